// The vision models' deadline (platform/deadline.ts, an idle budget): each provider through its
// real client library (@anthropic-ai/sdk, openai, @google/genai, ollama) against a stand-in that
// speaks its streamed wire format (test/support/vision-stream.ts), in a request as fotos makes
// it. One that never answers, one that answers slowly but steadily for over 12 s (answered in
// full), one that starts and stops, one still answering when the request's time ends. The prompt
// tells the stand-in how to answer, so the tests run at once.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLogger } from "../../functions/src/core/log.js";
import { ToolError } from "../../functions/src/core/errors.js";
import { BUDGETS, DependencyUnavailable, withRequestDeadline } from "../../functions/src/platform/deadline.js";
import { visionAdapter, VISION_PROVIDERS, type VisionProvider } from "../../functions/src/platform/vision-llm.js";
import { streamedProvider, writeStreamed } from "../support/vision-stream.js";

const log = createLogger({ test: "vision-deadlines" });
const errorOf = (p: Promise<unknown>) => p.then(() => undefined, (err: unknown) => err);

describe.concurrent("vision models: the first part of the answer, and every next one, within the budget", () => {
  /** How the stand-in of every provider answers (named in the prompt): not at all, slowly but steadily, or a start and then nothing. */
  type Mode = "silent" | "slow" | "stops";
  const closed: { provider: string; mode: Mode }[] = [];
  let standIn: Server;
  const text = "The settings page shows two toggles and a Save button.";
  const answers: Record<VisionProvider, (body: any) => unknown> = {
    claude: (body) => ({ id: "msg_1", type: "message", role: "assistant", model: body.model, content: [{ type: "text", text }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 10, output_tokens: 12 } }),
    openai: (body) => ({ id: "chatcmpl-1", object: "chat.completion", created: 1, model: body.model, choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }], usage: { prompt_tokens: 10, completion_tokens: 12, total_tokens: 22 } }),
    gemini: () => ({ candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 12, totalTokenCount: 22 }, modelVersion: "gemini-2.5-flash-001" }),
    ollama: (body) => ({ model: body.model, created_at: new Date().toISOString(), message: { role: "assistant", content: text }, done: true, done_reason: "stop", prompt_eval_count: 10, eval_count: 12 }),
  };
  const env: Record<string, string | undefined> = {};
  const setEnv = (vars: Record<string, string>) => {
    for (const [k, v] of Object.entries(vars)) (env[k] = process.env[k]), (process.env[k] = v);
  };

  beforeAll(async () => {
    standIn = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const raw = Buffer.concat(chunks).toString();
      const body = JSON.parse(raw || "{}");
      const mode = (/mode:(silent|slow|stops)/.exec(raw)?.[1] ?? "silent") as Mode;
      const provider = streamedProvider(path, body);
      res.on("close", () => closed.push({ provider: provider ?? path, mode }));
      if (!provider || mode === "silent") return; // accepts the request, never answers
      const gone = new AbortController();
      res.on("close", () => gone.abort());
      await writeStreamed(res, provider, answers[provider](body), mode === "slow" ? { parts: 5, gapMs: 3_000, signal: gone.signal } : { parts: 2, gapMs: 600_000, signal: gone.signal });
    });
    await new Promise<void>((resolve) => standIn.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
    setEnv({ ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: base, OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${base}/v1`, GOOGLE_VERTEX_BASE_URL: base, GOOGLE_CLOUD_PROJECT: "demo-project", OLLAMA_URL: base });
  });
  afterAll(async () => {
    for (const [k, v] of Object.entries(env)) (v === undefined ? delete process.env[k] : (process.env[k] = v));
    standIn.closeAllConnections();
    await new Promise<void>((resolve) => standIn.close(() => resolve()));
  });

  const png = () => sharp({ create: { width: 64, height: 48, channels: 3, background: "#336699" } }).png().toBuffer();
  /** Each provider's analysis as fotos makes it: in a request with fotos' own time (300 s). */
  const analyzeAll = async (mode: Mode) => {
    const image = await png();
    return Promise.all(
      VISION_PROVIDERS.map(async (provider) => {
        const started = Date.now();
        const result = await withRequestDeadline({ timeoutSeconds: 300, log }, async () => (await visionAdapter(provider)).analyze({ png: image, prompt: `Describe (mode:${mode})` })).then(
          (answer) => ({ answer, err: undefined }),
          (err: unknown) => ({ answer: undefined, err }),
        );
        return { provider, ms: Date.now() - started, ...result };
      }),
    );
  };
  const budgetMs = BUDGETS.visionLlm.ms;
  const slackMs = 12_000;

  test("a provider that accepts the request and never answers: each of the four ends within the budget with the sentence, and its request is closed", async () => {
    const results = await analyzeAll("silent");
    console.info(`never answering: ${results.map((r) => `${r.provider} ${(r.ms / 1000).toFixed(1)} s`).join(", ")}`);
    for (const r of results) {
      expect(r.err, r.provider).toBeInstanceOf(DependencyUnavailable);
      expect((r.err as ToolError).toText(), r.provider).toBe(`Error: Service temporarily unavailable: the vision model did not answer within ${budgetMs / 1000} s. Try again in 10 s (503)`);
      expect(r.ms, r.provider).toBeLessThan(budgetMs + slackMs);
    }
    // The provider sees each request end: the client closed it (nothing waits on after the answer).
    const until = Date.now() + 10_000;
    const silentOnes = () => closed.filter((c) => c.mode === "silent");
    while (silentOnes().length < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(silentOnes().map((c) => c.provider).sort()).toEqual([...VISION_PROVIDERS].sort());
  }, 120_000);

  test("a slow answer that keeps coming (a part every 3 s, over 12 s in all) is answered in full by each of the four", async () => {
    const results = await analyzeAll("slow");
    console.info(`streaming slowly: ${results.map((r) => `${r.provider} ${(r.ms / 1000).toFixed(1)} s`).join(", ")}`);
    for (const r of results) {
      expect(r.err, `${r.provider}: ${String(r.err)}`).toBeUndefined();
      expect(r.answer?.text, r.provider).toBe(text);
      expect(r.ms, r.provider).toBeGreaterThan(10_000); // the stand-in's pauses alone take 12 s
    }
  }, 120_000);

  test("the whole answer within the request's own time: one still coming when it ends says it did not finish", async () => {
    const image = await png();
    const openai = await visionAdapter("openai"); // loaded before the request's time starts
    // A request with 8 s (its answer must go out a second before): the slow answer takes 12 s or more.
    const err = await errorOf(withRequestDeadline({ timeoutSeconds: 8, log }, () => openai.analyze({ png: image, prompt: "Describe (mode:slow)" })));
    expect(err).toBeInstanceOf(DependencyUnavailable);
    expect((err as ToolError).toText()).toMatch(/^Error: Service temporarily unavailable: the vision model did not finish its answer within \d+ s\. Try again in 10 s \(503\)$/);
  }, 120_000);

  test("an answer that starts and then stops: the sentence says it stopped", async () => {
    const results = await analyzeAll("stops");
    for (const r of results) {
      expect(r.err, r.provider).toBeInstanceOf(DependencyUnavailable);
      expect((r.err as ToolError).toText(), r.provider).toBe(`Error: Service temporarily unavailable: the vision model stopped answering (nothing for ${budgetMs / 1000} s). Try again in 10 s (503)`);
      expect(r.ms, r.provider).toBeLessThan(2 * budgetMs + slackMs);
    }
  }, 120_000);
});
