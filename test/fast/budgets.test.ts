// The deployment's daily budgets (platform/quota.ts) against the Firestore emulator: a budget is the
// sum of its shards, an amount larger than what is left is refused, and a paid Cloud Vision call is
// never made once the day's budget is spent (the function's OCR engine, against a local stand-in
// that only counts what reaches it), nor a paid embedding (a knowledge search on Vertex, against a
// local stand-in for Vertex's `:predict` and the metadata server its credentials come from).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { adminDb } from "../support/emulators.js";
import { connectInProcess, idTokenCaller, loadDomain } from "../support/in-process.js";
import { callTool, textOf } from "../support/mcp.js";
import { BUDGETS, budgetDocIds, spendBudget, type Budget } from "../../functions/src/platform/quota.js";

let vision: Server;
let visionCalls = 0;
let google: Server;
let predictCalls = 0;
const run = Date.now().toString(36);

beforeAll(async () => {
  vision = createServer((req, res) => {
    visionCalls++;
    req.resume();
    res.statusCode = 500;
    res.end("{}");
  });
  await new Promise<void>((resolve) => vision.listen(0, "127.0.0.1", resolve));
  process.env.OCR_ENGINE = "vision";
  process.env.VISION_API_ENDPOINT = `http://127.0.0.1:${(vision.address() as AddressInfo).port}`;
  // Vertex AI's embeddings and the metadata server that Application Default Credentials ask for a token.
  google = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      res.setHeader("metadata-flavor", "Google");
      if (req.url?.startsWith("/computeMetadata/v1/instance/service-accounts/default/token")) return res.end(JSON.stringify({ access_token: "test-token", expires_in: 3600, token_type: "Bearer" }));
      if (req.url?.startsWith("/computeMetadata/")) return res.end(req.url.includes("project-id") ? "demo-mcp-suite" : "{}");
      if (!req.url?.endsWith("/models/gemini-embedding-001:predict")) {
        res.statusCode = 404;
        return res.end("{}");
      }
      predictCalls++;
      const { instances } = JSON.parse(body) as { instances: unknown[] };
      res.end(JSON.stringify({ predictions: instances.map(() => ({ embeddings: { values: Array.from({ length: 768 }, (_, i) => Math.cos(i)) } })) }));
    });
  });
  await new Promise<void>((resolve) => google.listen(0, "127.0.0.1", resolve));
  const googleHost = `127.0.0.1:${(google.address() as AddressInfo).port}`;
  process.env.EMBEDDINGS_PROVIDER = "vertex";
  process.env.GOOGLE_VERTEX_BASE_URL = `http://${googleHost}`;
  process.env.GCE_METADATA_HOST = googleHost;
  process.env.METADATA_SERVER_DETECTION = "assume-present";
});
afterAll(() => Promise.all([vision, google].map((s) => new Promise<void>((resolve) => s.close(() => resolve())))));

/** Spends a deployment budget for the length of `fn`, then gives it back. */
async function withBudgetSpent(b: Budget, fn: () => Promise<void>): Promise<void> {
  const shards = budgetDocIds(b).map((id) => adminDb().collection("usageQuotas").doc(id));
  const before = await Promise.all(shards.map((d) => d.get()));
  await shards[0]!.set({ budget: b.name, count: b.perDay });
  try {
    await fn();
  } finally {
    await Promise.all(shards.map((d, i) => (before[i]!.exists ? d.set(before[i]!.data()!) : d.delete())));
  }
}

const sumOf = async (b: Budget) => (await Promise.all(budgetDocIds(b).map((id) => adminDb().collection("usageQuotas").doc(id).get()))).reduce((n, d) => n + Number(d.get("count") ?? 0), 0);

test("a budget counts amounts across its shards and refuses what would go over, saying it is for everyone and when it resets", async () => {
  const b: Budget = { name: `test-${run}`, what: "test units", perDay: 10 };
  for (let i = 0; i < 4; i++) await spendBudget(b, 2);
  expect(await sumOf(b)).toBe(8);
  await expect(spendBudget(b, 3)).rejects.toThrow(/^This server's daily budget is spent: all 10 test units it allows per day \(for everyone\) were used today, so this was not done\. The budget resets at 00:00 UTC, in \d+/);
  expect(await sumOf(b)).toBe(8); // a refusal is not counted
  await spendBudget(b, 2);
  await expect(spendBudget(b)).rejects.toMatchObject({ kind: "rate_limited" });
});

test("Cloud Vision: with the day's budget spent, the function's OCR refuses before any call reaches the API", async () => {
  const { meteredOcrEngine } = await import("../../functions/src/domains/fotos/ocr-cache.js");
  const engine = await meteredOcrEngine();
  expect(engine.name).toBe("vision");
  const first = adminDb().collection("usageQuotas").doc(budgetDocIds(BUDGETS.cloudVision)[0]!);
  const before = await first.get();
  await first.set({ count: BUDGETS.cloudVision.perDay });
  try {
    await expect(engine.recognize(Buffer.from("png"), "eng")).rejects.toThrow(/daily budget is spent: all \d+ Cloud Vision calls/);
    expect(visionCalls).toBe(0);
  } finally {
    await (before.exists ? first.set(before.data()!) : first.delete());
  }
  // Within the budget the call goes out (this stand-in fails it: only that it was made matters).
  await engine.recognize(Buffer.from("png"), "eng").catch(() => undefined);
  expect(visionCalls).toBeGreaterThan(0);
});

test("embeddings: with the day's budget spent, a search by meaning is refused with the sentence and nothing reaches Vertex; within it the query is embedded and counted", async () => {
  const knowledge = await connectInProcess(await loadDomain("knowledge"), { caller: idTokenCaller(`fast-budget-${run}`) });
  try {
    await withBudgetSpent(BUDGETS.embeddings, async () => {
      const refused = await callTool(knowledge, "search_semantic", { query: `refused while spent ${run}`, mode: "semantic" });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(
        new RegExp(`^Error: This server's daily budget is spent: all ${BUDGETS.embeddings.perDay} texts embedded it allows per day \\(for everyone\\) were used today, so this was not done\\. The budget resets at 00:00 UTC, in \\d+`),
      );
      expect(predictCalls).toBe(0);
    });
    const spentBefore = await sumOf(BUDGETS.embeddings);
    const answered = await callTool(knowledge, "search_semantic", { query: `answered within the budget ${run}`, mode: "semantic" });
    expect(textOf(answered)).not.toMatch(/daily budget is spent/);
    expect(answered.isError, textOf(answered)).toBeFalsy();
    expect(predictCalls).toBe(1);
    expect(await sumOf(BUDGETS.embeddings)).toBe(spentBefore + 1);
  } finally {
    await knowledge.close();
  }
});
