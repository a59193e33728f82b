// The deployment's daily budgets (platform/quota.ts) against the Firestore emulator: a budget is the
// sum of its shards, an amount larger than what is left is refused, and a paid Cloud Vision call is
// never made once the day's budget is spent (the function's OCR engine, against a local stand-in
// that only counts what reaches it).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, test } from "vitest";
import { adminDb } from "../support/emulators.js";
import { BUDGETS, budgetDocIds, spendBudget, type Budget } from "../../functions/src/platform/quota.js";

let vision: Server;
let visionCalls = 0;
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
});
afterAll(() => new Promise<void>((resolve) => vision.close(() => resolve())));

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
