// What one person, and everyone together, may spend in a day (platform/quota.ts), against the fotos
// function in the emulator suite with a real MCP client: OCR, annotation and redaction count against
// each person's daily quota; vision-model calls and stored bytes against the deployment's daily
// budget, which no number of accounts can exceed. Each refusal says which limit and when it resets.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import type { Client } from "@modelcontextprotocol/client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { adminDb, createUser, functionUrl, type TestUser } from "../support/emulators.js";
import { callTool, connect, textOf } from "../support/mcp.js";
import { BUDGETS, budgetDocIds, QUOTAS, quotaDocId, type Budget, type Quota } from "../../functions/src/platform/quota.js";

const RESETS = "resets at 00:00 UTC, in \\d+ (h \\d+ )?min";
let ollama: Server;
let ollamaUrl: string;
let ollamaCalls = 0;

const png = () => sharp({ create: { width: 200, height: 80, channels: 3, background: "#ffffff" } }).png().toBuffer();

async function upload(user: TestUser, body: Buffer): Promise<Response> {
  return fetch(functionUrl("fotos", "/screenshots"), { method: "POST", headers: { authorization: `Bearer ${user.token}`, "content-type": "image/png" }, body: new Uint8Array(body) });
}

async function person(): Promise<{ user: TestUser; client: Client; id: string }> {
  const user = await createUser();
  const res = await upload(user, await png());
  expect(res.status).toBe(201);
  const { screenshot_id } = (await res.json()) as { screenshot_id: string };
  await adminDb().doc(`users/${user.uid}/fotos/settings`).set({ ai: { ollamaUrl } });
  return { user, client: await connect("fotos", { token: user.token }), id: screenshot_id };
}

const useUp = (q: Quota, uid: string) => adminDb().collection("usageQuotas").doc(quotaDocId(q, uid)).set({ uid, count: q.perDay });

/** Spends a deployment budget for the length of `fn`, then gives it back. */
async function withBudgetSpent(b: Budget, fn: () => Promise<void>): Promise<void> {
  const [first, ...rest] = budgetDocIds(b).map((id) => adminDb().collection("usageQuotas").doc(id));
  const before = await Promise.all([first!, ...rest].map((d) => d.get()));
  await first!.set({ budget: b.name, count: b.perDay });
  try {
    await fn();
  } finally {
    await Promise.all([first!, ...rest].map((d, i) => (before[i]!.exists ? d.set(before[i]!.data()!) : d.delete())));
  }
}

beforeAll(async () => {
  ollama = createServer(async (req, res) => {
    for await (const _ of req);
    ollamaCalls++;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ model: "llava", created_at: new Date().toISOString(), message: { role: "assistant", content: "A white image." }, done: true, prompt_eval_count: 5, eval_count: 3 }));
  });
  await new Promise<void>((resolve) => ollama.listen(0, "127.0.0.1", resolve));
  ollamaUrl = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => ollama.close(() => resolve())));

describe("per person: OCR, annotation and redaction have daily quotas", () => {
  test.each([
    ["ocr_screenshot", QUOTAS.ocr, (id: string) => ({ screenshot_id: id })],
    ["annotate_screenshot", QUOTAS.annotations, (id: string) => ({ screenshot_id: id, annotations: [{ type: "rect", x: 1, y: 1, width: 5, height: 5 }] })],
    ["auto_redact_pii", QUOTAS.redactions, (id: string) => ({ screenshot_id: id })],
  ] as const)("%s over the person's quota: refused with the limit and when it resets; another person is still served", async (name, quota, args) => {
    const spent = await person();
    const other = await person();
    try {
      await useUp(quota, spent.user.uid);
      const refused = await callTool(spent.client, name, args(spent.id));
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(new RegExp(`^Error: Daily limit reached: you have used all ${quota.perDay} ${quota.what} of today\\. The limit ${RESETS} \\(429\\)$`));
      const served = await callTool(other.client, name, args(other.id));
      expect(served.isError, textOf(served)).toBeFalsy();
      const used = await adminDb().collection("usageQuotas").doc(quotaDocId(quota, other.user.uid)).get();
      expect(used.get("count")).toBe(1);
    } finally {
      await spent.client.close();
      await other.client.close();
    }
  }, 120_000);

  test("a cached OCR result is not counted again", async () => {
    const p = await person();
    try {
      for (let i = 0; i < 3; i++) expect((await callTool(p.client, "ocr_screenshot", { screenshot_id: p.id })).isError).toBeFalsy();
      expect((await adminDb().collection("usageQuotas").doc(quotaDocId(QUOTAS.ocr, p.user.uid)).get()).get("count")).toBe(1);
    } finally {
      await p.client.close();
    }
  }, 120_000);
});

describe("per deployment: daily budgets no number of accounts can exceed", () => {
  test("vision-model calls: once the day's budget is spent every account is refused, the provider is not called, and the sentence says when it resets", async () => {
    const a = await person();
    const b = await person();
    try {
      expect((await callTool(a.client, "analyze_screenshot", { screenshot_id: a.id, provider: "ollama" })).isError).toBeFalsy();
      const calls = ollamaCalls;
      await withBudgetSpent(BUDGETS.visionLlm, async () => {
        for (const p of [a, b]) {
          const refused = await callTool(p.client, "analyze_screenshot", { screenshot_id: p.id, provider: "ollama" });
          expect(refused.isError).toBe(true);
          expect(textOf(refused)).toMatch(
            new RegExp(`^Error: This server's daily budget is spent: all ${BUDGETS.visionLlm.perDay} vision-model analyses it allows per day \\(for everyone\\) were used today, so this was not done\\. The budget ${RESETS} \\(429\\)$`),
          );
        }
        expect(ollamaCalls).toBe(calls);
      });
      expect((await callTool(b.client, "analyze_screenshot", { screenshot_id: b.id, provider: "ollama" })).isError).toBeFalsy();
    } finally {
      await a.client.close();
      await b.client.close();
    }
  }, 120_000);

  test("stored bytes: an upload over the day's budget is refused (429, Retry-After) and nothing is stored", async () => {
    const user = await createUser();
    await withBudgetSpent(BUDGETS.storedBytes, async () => {
      const res = await upload(user, await png());
      expect(res.status).toBe(429);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(((await res.json()) as { error: string }).error).toMatch(
        new RegExp(`^This server's daily budget is spent: all ${BUDGETS.storedBytes.perDay / 1048576} MB of new screenshots stored it allows per day \\(for everyone\\) were used today, so this was not done\\. The budget ${RESETS}$`),
      );
    });
    expect((await adminDb().collection(`users/${user.uid}/screenshots`).get()).size).toBe(0);
    expect((await upload(user, await png())).status).toBe(201);
  }, 120_000);
});
