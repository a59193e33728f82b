// The deadline every dependency call gets (platform/deadline.ts), in-process against servers that
// accept a connection and never answer: Vertex AI embeddings through the real @google/genai
// client end with the sentence naming the embedding model; while a dependency is timing out, a
// second call is answered at once instead of waiting too (one call probes); the request's cancel
// ends the call and closes its connection; outside a request nothing is bounded here. The Admin
// SDK's Firestore against a gRPC server that never answers: a read, a query, a write, a
// transaction and a listener's first snapshot each end with the sentence naming the database, and
// the server sees each call reset by its deadline (or at once by the request's cancel), none sent
// again. Each vision provider through its real client: one that never answers, one that answers
// slowly but steadily for over 12 s (answered), one that starts and stops, one still answering
// when the request's time ends.
import { OAuth2Client } from "google-auth-library";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createLogger } from "../../functions/src/core/log.js";
import { BUDGETS, callDependency, dependencyTrouble, DependencyUnavailable, recovered, RequestCancelled, withRequestDeadline, writesSafeToRepeat, type Budget } from "../../functions/src/platform/deadline.js";
import { VertexEmbedder } from "../../functions/src/platform/embeddings-vertex.js";
import { ToolError } from "../../functions/src/core/errors.js";
import { silentGrpcServer, silentServer } from "../support/stall.js";
import { initializeApp } from "firebase-admin/app";
import { getFirestore, type Firestore } from "firebase-admin/firestore";
import { instrumentFirestore } from "../../functions/src/platform/firestore-deadlines.js";
import { waitFor } from "../../functions/src/platform/wait.js";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { visionAdapter, VISION_PROVIDERS, type VisionProvider } from "../../functions/src/platform/vision-llm.js";
import { streamedProvider, writeStreamed } from "../support/vision-stream.js";

let silent: Awaited<ReturnType<typeof silentServer>>;
beforeAll(async () => (silent = await silentServer()));
afterAll(() => silent?.close());

const log = createLogger({ test: "deadlines" });
const inRequest = <T>(run: () => Promise<T>, signal?: AbortSignal) => withRequestDeadline({ timeoutSeconds: 60, signal, log }, run);
const errorOf = (p: Promise<unknown>) => p.then(() => undefined, (err: unknown) => err);
/** A dependency of the test's own with a short budget (the shipped budgets are seconds long). */
const hung = (ms: number): Budget => ({ dependency: "vision", label: "the test dependency", ms, marksTrouble: true });
const hang = (signal: AbortSignal) => fetch(silent.url, { signal });

describe("a dependency that never answers", () => {
  test("Vertex AI embeddings: the sentence naming the embedding model, 503 with Retry-After", async () => {
    const authClient = new OAuth2Client();
    authClient.setCredentials({ access_token: "test", expiry_date: Date.now() + 3_600_000 });
    const embedder = new VertexEmbedder({ project: "demo-project", location: "us-central1", baseUrl: silent.url, googleAuthOptions: { authClient } });
    const err = await errorOf(inRequest(() => embedder.embed(["sunscreen"], "query")));
    expect(err).toBeInstanceOf(DependencyUnavailable);
    const e = err as ToolError;
    expect(e.status).toBe(503);
    expect(e.extra.retryAfterSeconds).toBeGreaterThan(0);
    expect(e.toText()).toBe(
      `Error: Service temporarily unavailable: the embedding model (Vertex AI) did not answer within ${BUDGETS.vertex.ms / 1000} s. Try again in ${e.extra.retryAfterSeconds} s (503)`,
    );
  }, 120_000);

  test("while it is timing out one call probes it; the others are answered at once; an answer closes it again", async () => {
    const b = hung(300);
    expect(await errorOf(inRequest(() => callDependency(b, hang)))).toBeInstanceOf(DependencyUnavailable);
    expect(dependencyTrouble().map((t) => t.dependency)).toContain("vision");
    // A probe is in flight (it will wait its whole budget); the next call does not wait for it.
    let probeDone = false;
    const probe = errorOf(inRequest(() => callDependency({ ...b, ms: 60_000 }, hang))).finally(() => (probeDone = true));
    const refused = await errorOf(inRequest(() => callDependency(b, hang, { write: "unknown" })));
    expect(probeDone).toBe(false);
    expect((refused as ToolError).toText()).toBe("Error: Service temporarily unavailable: the test dependency is not answering right now. Try again in 10 s. Nothing was changed (503)");
    await silent.close(); // the probe's connection ends: an answer of sorts (the dependency is reachable again)
    silent = await silentServer();
    await probe;
    expect(await inRequest(() => callDependency(b, async () => "answered"))).toBe("answered");
    expect(dependencyTrouble().map((t) => t.dependency)).not.toContain("vision");
  }, 120_000);

  test("the request's cancel ends the call at once and aborts its connection", async () => {
    const cancel = new AbortController();
    let seen: AbortSignal | undefined;
    const call = errorOf(inRequest(() => callDependency(hung(60_000), (signal) => ((seen = signal), hang(signal))), cancel.signal));
    await new Promise((r) => setTimeout(r, 100));
    cancel.abort();
    expect(await call).toBeInstanceOf(RequestCancelled);
    expect(seen?.aborted).toBe(true);
  });

  test("a timed-out write says whether sending it again is safe: as the call says, or as its caller decided", async () => {
    // Another dependency each time, so no call is refused at once as "not answering right now".
    const text = async (dependency: Budget["dependency"], run: () => Promise<unknown>) => ((await errorOf(inRequest(run))) as ToolError).toText();
    const b = (dependency: Budget["dependency"]): Budget => ({ ...hung(200), dependency });
    const safe = /The change may or may not have been saved; sending the same call again is safe \(503\)$/;
    const check = /The change may or may not have been saved: check before sending it again \(503\)$/;
    expect(await text("vision", () => callDependency(b("vision"), hang, { write: "unknown" }))).toMatch(check);
    // A transaction whose repeat gets the first answer back (the token endpoint's exchanges, a keyed upload).
    expect(await text("vertex", () => writesSafeToRepeat(() => callDependency(b("vertex"), hang, { write: "unknown" })))).toMatch(safe);
    // A document set at a new random id on each attempt: a repeat makes a second one.
    expect(await text("vision-llm", () => writesSafeToRepeat(() => callDependency(b("vision-llm"), hang, { write: "idempotent" }), false))).toMatch(check);
    for (const d of ["vision", "vertex", "vision-llm"] as const) recovered(d, log);
  });

  test("outside a request (seeders, command-line imports) nothing is bounded here", async () => {
    const slow = new Promise<string>((resolve) => setTimeout(() => resolve("done"), 500));
    expect(await callDependency(hung(1), () => slow)).toBe("done");
  });
});

/**
 * Runs `test` with an Admin SDK Firestore (instrumented as the functions' is) talking to `grpc`
 * only: the emulator's host in the environment would win over the host set here.
 */
async function againstGrpc(grpc: Awaited<ReturnType<typeof silentGrpcServer>>, name: string, test: (db: Firestore) => Promise<void>): Promise<void> {
  const emulatorHost = process.env.FIRESTORE_EMULATOR_HOST;
  delete process.env.FIRESTORE_EMULATOR_HOST;
  try {
    const db = getFirestore(initializeApp({ projectId: `demo-${name}` }, name));
    db.settings({ host: grpc.host, ssl: false, preferRest: false });
    instrumentFirestore(db);
    recovered("firestore", log); // a test before may have left it timing out: calls would be answered at once, not sent
    await test(db);
  } finally {
    if (emulatorHost !== undefined) process.env.FIRESTORE_EMULATOR_HOST = emulatorHost;
    await grpc.close();
  }
}

describe("Firestore (the Admin SDK) that never answers", () => {
  test("a read, a query, a write, a transaction and a listener's first snapshot end with the sentence; each gRPC call is reset on the wire by its deadline, none retried after it", async () => {
    const grpc = await silentGrpcServer();
    await againstGrpc(grpc, "stalled", async (db) => {
      const doc = db.collection("stalled").doc("one");
      const budgetMs = BUDGETS.firestore.ms;
      const started = Date.now();
      const [read, query, write, transaction, listener] = await Promise.all([
        errorOf(inRequest(() => doc.get())),
        errorOf(inRequest(() => db.collection("stalled").where("n", ">", 1).get())),
        errorOf(inRequest(() => doc.set({ n: 1 }))),
        errorOf(inRequest(() => db.runTransaction(async (tx) => (await tx.get(doc)).exists))),
        errorOf(inRequest(() => waitFor(doc, () => true, { timeoutMs: 120_000 }))),
      ]);
      const answeredMs = Date.now() - started;
      const database = /^Error: Service temporarily unavailable: the database \(Firestore\) (did not answer within 8 s|is not answering right now)\. Try again in 10 s/;
      for (const err of [read, query, write, transaction, listener]) {
        expect(err).toBeInstanceOf(DependencyUnavailable);
        expect((err as ToolError).toText()).toMatch(database);
      }
      expect((write as ToolError).toText()).toMatch(/(sending the same call again is safe|Nothing was changed) \(503\)$/);
      expect((transaction as ToolError).toText()).toMatch(/(may or may not have been saved: check before sending it again|Nothing was changed) \(503\)$/);
      // On the wire: every call the server saw is reset by the client (RST_STREAM CANCEL), the
      // bounded ones by their deadline and the listener's when it is detached; nothing opens after.
      const slackMs = 10_000;
      const allEnded = async () => {
        const until = Date.now() + budgetMs + slackMs;
        while (Date.now() < until && grpc.calls.some((c) => c.closedAt === undefined)) await new Promise((r) => setTimeout(r, 200));
      };
      await allEnded();
      const lateCheck = grpc.calls.length;
      await new Promise((r) => setTimeout(r, 3_000)); // no retry starts after the deadline
      console.info(`answered after ${answeredMs} ms; calls on the wire: ${grpc.calls.map((c) => `${c.method} +${c.openedAt - started}..+${c.closedAt! - started} ms rst ${c.rstCode}`).join(", ")}`);
      expect(grpc.calls.length).toBe(lateCheck);
      expect(grpc.calls.map((c) => c.method)).toEqual(expect.arrayContaining(["BatchGetDocuments", "RunQuery", "Commit", "Listen"]));
      for (const c of grpc.calls) {
        expect(c.closedAt, c.method).toBeDefined();
        expect(c.rstCode, c.method).toBe(8);
        expect(c.closedAt! - started, c.method).toBeLessThan(budgetMs + slackMs);
        expect(c.openedAt - started, `${c.method} opened after the deadline`).toBeLessThan(budgetMs);
      }
    });
  }, 120_000);
});

describe("Firestore (the Admin SDK) that answers every call with UNAVAILABLE", () => {
  test("the SDK's retries stay within the budget: each call ends with the sentence, and none is sent after its deadline", async () => {
    const grpc = await silentGrpcServer({ unavailable: true });
    await againstGrpc(grpc, "unavailable", async (db) => {
      const budgetMs = BUDGETS.firestore.ms;
      const started = Date.now();
      const [read, query, write] = await Promise.all([
        errorOf(inRequest(() => db.doc("unavailable/one").get())),
        errorOf(inRequest(() => db.collection("unavailable").where("n", ">", 1).get())),
        errorOf(inRequest(() => db.doc("unavailable/two").update({ n: 2 }))),
      ]);
      for (const err of [read, query, write]) {
        expect(err).toBeInstanceOf(DependencyUnavailable);
        expect((err as ToolError).toText()).toMatch(/^Error: Service temporarily unavailable: the database \(Firestore\) (did not answer within 8 s|is not answering right now)\. Try again in 10 s/);
      }
      await new Promise((r) => setTimeout(r, 2_000)); // an attempt sent just before the deadline has arrived by now
      const sent = grpc.calls.length;
      await new Promise((r) => setTimeout(r, 5_000)); // backoffs would have run by now
      const byMethod = (m: string) => grpc.calls.filter((c) => c.method === m).length;
      console.info(`UNAVAILABLE: attempts BatchGetDocuments ${byMethod("BatchGetDocuments")}, RunQuery ${byMethod("RunQuery")}, Commit ${byMethod("Commit")}; the last sent ${Math.max(...grpc.calls.map((c) => c.openedAt)) - started} ms in`);
      expect(grpc.calls.length).toBe(sent);
      expect(byMethod("Commit")).toBeGreaterThan(1); // retried, within the budget
      for (const c of grpc.calls) expect(c.openedAt - started, c.method).toBeLessThan(budgetMs + 5_000);
    });
  }, 120_000);
});

describe("Firestore (the Admin SDK): the request's cancel", () => {
  test("resets the write's and the read's gRPC calls at once; a read nobody cancelled ends at its deadline", async () => {
    const grpc = await silentGrpcServer();
    await againstGrpc(grpc, "cancelled", async (db) => {
      const cancel = new AbortController();
      const started = Date.now();
      const write = errorOf(inRequest(() => db.doc("cancelled/one").set({ n: 1 }), cancel.signal));
      const read = errorOf(inRequest(() => db.collection("cancelled").where("n", ">", 1).get(), cancel.signal));
      const kept = errorOf(inRequest(() => db.doc("cancelled/kept").get()));
      const until = Date.now() + 30_000;
      while (grpc.calls.length < 3 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      cancel.abort();
      const cancelledAt = Date.now();
      expect(await write).toBeInstanceOf(RequestCancelled);
      expect(await read).toBeInstanceOf(RequestCancelled);
      expect(await kept).toBeInstanceOf(DependencyUnavailable);
      while (grpc.calls.some((c) => c.closedAt === undefined) && Date.now() < until + BUDGETS.firestore.ms) await new Promise((r) => setTimeout(r, 50));
      const call = (method: string) => grpc.calls.find((c) => c.method === method)!;
      const [commit, query, batchGet] = [call("Commit"), call("RunQuery"), call("BatchGetDocuments")];
      console.info(`cancelled ${cancelledAt - started} ms in: Commit reset ${commit.closedAt! - cancelledAt} ms after, RunQuery ${query.closedAt! - cancelledAt} ms after; the read not cancelled ${batchGet.closedAt! - cancelledAt} ms after`);
      for (const c of [commit, query, batchGet]) expect(c.rstCode, c.method).toBe(8);
      // The cancelled calls' resets follow the cancel, not their deadline: before the one that waits for its deadline.
      expect(commit.closedAt!).toBeLessThan(batchGet.closedAt!);
      expect(query.closedAt!).toBeLessThan(batchGet.closedAt!);
      expect(batchGet.closedAt! - started).toBeLessThan(BUDGETS.firestore.ms + 10_000);
    });
  }, 120_000);
});

describe("vision models: the first part of the answer, and every next one, within the budget", () => {
  /** How the stand-in of every provider answers: not at all, slowly but steadily, or a start and then nothing. */
  let mode: "silent" | "slow" | "stops" = "silent";
  const closed: { provider: string; after: number }[] = [];
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
      const started = Date.now();
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
      const provider = streamedProvider(path, body);
      res.on("close", () => closed.push({ provider: provider ?? path, after: Date.now() - started }));
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
  const analyzeAll = async () => {
    const image = await png();
    return Promise.all(
      VISION_PROVIDERS.map(async (provider) => {
        const started = Date.now();
        const result = await withRequestDeadline({ timeoutSeconds: 300, log }, async () => (await visionAdapter(provider)).analyze({ png: image, prompt: "Describe" })).then(
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
    mode = "silent";
    closed.length = 0;
    const results = await analyzeAll();
    console.info(`never answering: ${results.map((r) => `${r.provider} ${(r.ms / 1000).toFixed(1)} s`).join(", ")}`);
    for (const r of results) {
      expect(r.err, r.provider).toBeInstanceOf(DependencyUnavailable);
      expect((r.err as ToolError).toText(), r.provider).toBe(`Error: Service temporarily unavailable: the vision model did not answer within ${budgetMs / 1000} s. Try again in 10 s (503)`);
      expect(r.ms, r.provider).toBeLessThan(budgetMs + slackMs);
    }
    // The provider sees each request end: the client closed it (nothing waits on after the answer).
    const until = Date.now() + 10_000;
    while (closed.length < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(closed.map((c) => c.provider).sort()).toEqual([...VISION_PROVIDERS].sort());
  }, 120_000);

  test("a slow answer that keeps coming (a part every 3 s, over 12 s in all) is answered in full by each of the four", async () => {
    mode = "slow";
    const results = await analyzeAll();
    console.info(`streaming slowly: ${results.map((r) => `${r.provider} ${(r.ms / 1000).toFixed(1)} s`).join(", ")}`);
    for (const r of results) {
      expect(r.err, `${r.provider}: ${String(r.err)}`).toBeUndefined();
      expect(r.answer?.text, r.provider).toBe(text);
      expect(r.ms, r.provider).toBeGreaterThan(10_000); // the stand-in's pauses alone take 12 s
    }
  }, 120_000);

  test("the whole answer within the request's own time: one still coming when it ends says it did not finish", async () => {
    mode = "slow";
    const image = await png();
    // A request with 6 s (its answer must go out a second before): the slow answer takes 12 s or more.
    const err = await errorOf(withRequestDeadline({ timeoutSeconds: 6, log }, async () => (await visionAdapter("openai")).analyze({ png: image, prompt: "Describe" })));
    expect(err).toBeInstanceOf(DependencyUnavailable);
    expect((err as ToolError).toText()).toMatch(/^Error: Service temporarily unavailable: the vision model did not finish its answer within [45] s\. Try again in 10 s \(503\)$/);
  }, 120_000);

  test("an answer that starts and then stops: the sentence says it stopped", async () => {
    mode = "stops";
    const results = await analyzeAll();
    for (const r of results) {
      expect(r.err, r.provider).toBeInstanceOf(DependencyUnavailable);
      expect((r.err as ToolError).toText(), r.provider).toBe(`Error: Service temporarily unavailable: the vision model stopped answering (nothing for ${budgetMs / 1000} s). Try again in 10 s (503)`);
      expect(r.ms, r.provider).toBeLessThan(2 * budgetMs + slackMs);
    }
  }, 120_000);
});
