// The demo data `npm start` loads: idempotent, plausible, and readable through the tools as the
// README's walkthrough does (Alice premium, Bob free, Dave pro, Dr. Carol reading what Alice and
// Dave shared).
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { seed } from "../../scripts/demo/dermal.js";
import { DEMO_USERS } from "../../scripts/demo/users.js";
import { adminAuth, adminDb, createUser } from "../support/emulators.js";
import { callTool, connect, textOf } from "../support/mcp.js";

const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close())));
const as = async (uid: string, claims?: Record<string, unknown>) => {
  const user = await createUser({ uid, ...(claims ? { claims } : {}) });
  const c = await connect("dermal", { token: user.token });
  clients.push(c);
  return c;
};
const count = async (uid: string, sub: string) => (await adminDb().collection(`users/${uid}/${sub}`).count().get()).data().count;

beforeAll(async () => {
  const ctx = { db: adminDb(), auth: adminAuth(), users: DEMO_USERS, log: () => undefined };
  await seed(ctx);
  await seed(ctx); // a second run changes nothing
});

test("seeding twice leaves one copy of everything", async () => {
  expect(await count(DEMO_USERS.alice.uid, "sessions")).toBe(42);
  expect(await count(DEMO_USERS.alice.uid, "reports")).toBe(41); // one failed capture
  expect(await count(DEMO_USERS.bob.uid, "sessions")).toBe(16);
  expect(await count(DEMO_USERS.bob.uid, "reports")).toBe(15); // latest still processing
  expect(await count(DEMO_USERS.dave.uid, "sessions")).toBe(91);
  expect(await count(DEMO_USERS.dave.uid, "reports")).toBe(90); // one failed capture
});

test("Alice (premium) sees months of sessions with her acne clearing", async () => {
  const c = await as(DEMO_USERS.alice.uid);
  const status = await callTool(c, "get_user_status", { uid: DEMO_USERS.alice.uid });
  expect(status.structuredContent).toMatchObject({ tier: "premium", displayName: "Alice Example", sharedWith: [DEMO_USERS.carol.uid] });
  expect((status.structuredContent as any).recentActivity.sessionsLast30Days).toBeGreaterThanOrEqual(7);
  const exp = await callTool(c, "export_zone_history", { uid: DEMO_USERS.alice.uid, zone: "chin", metrics: ["acne"] });
  const acne = (exp.structuredContent as any).records.map((r: any) => r.acne as number);
  expect(acne.length).toBe(41);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  expect(mean(acne.slice(-8))).toBeLessThan(mean(acne.slice(0, 8)) - 15);
  const months = new Set((exp.structuredContent as any).records.map((r: any) => r.capturedAt.slice(0, 7)));
  expect(months.size).toBeGreaterThanOrEqual(5);
});

test("Dr. Carol reads what Alice shared, not Bob's records", async () => {
  const c = await as(DEMO_USERS.carol.uid, { clinician: true });
  const list = await callTool(c, "list_sessions", { uid: DEMO_USERS.alice.uid, limit: 2 });
  expect(list.isError, textOf(list)).toBeFalsy();
  const [latest] = (list.structuredContent as any).sessions;
  const detail = await callTool(c, "get_analysis_detail", { sessionId: latest.sessionId });
  expect(detail.isError, textOf(detail)).toBeFalsy();
  expect((detail.structuredContent as any).images[0].uri).toMatch(/^gs:\/\//);
  const bob = await callTool(c, "get_user_status", { uid: DEMO_USERS.bob.uid });
  expect(bob.isError).toBe(true);
  expect(textOf(bob)).toMatch(/^Error: Access denied: .* \(403\)$/);
});

test("Bob (free) has a session still being analysed", async () => {
  const c = await as(DEMO_USERS.bob.uid);
  const list = await callTool(c, "list_sessions", { uid: DEMO_USERS.bob.uid });
  const s = list.structuredContent as any;
  expect(s.sessions).toHaveLength(5);
  expect(s.sessions[0]).toMatchObject({ status: "processing", overallScore: null });
  const status = await callTool(c, "get_user_status", { uid: DEMO_USERS.bob.uid });
  expect(status.structuredContent).toMatchObject({ tier: "free", skinType: "sensitive" });
});

test("Dave (pro) captures every other day: his retinoid irritates first, then smooths; a full export comes in parts", async () => {
  const c = await as(DEMO_USERS.dave.uid);
  const status = await callTool(c, "get_user_status", { uid: DEMO_USERS.dave.uid });
  expect(status.structuredContent).toMatchObject({ tier: "pro", skinType: "dry", displayName: "Dave Example", sharedWith: [DEMO_USERS.carol.uid] });
  expect((status.structuredContent as any).recentActivity.sessionsLast30Days).toBeGreaterThanOrEqual(14);

  const records: any[] = [];
  let cursor: string | undefined;
  let parts = 0;
  do {
    const r = await callTool(c, "export_zone_history", { uid: DEMO_USERS.dave.uid, ...(cursor ? { cursor } : {}) });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(Buffer.byteLength(JSON.stringify(r))).toBeLessThanOrEqual(100_000);
    records.push(...(r.structuredContent as any).records);
    cursor = (r.structuredContent as any).nextCursor;
    parts++;
  } while (cursor && parts < 10);
  expect(parts).toBeGreaterThanOrEqual(2);
  expect(records).toHaveLength(59 * 6 + 31 * 5); // sessions 0-59 less the failed one, all zones; 60-90 without the chin (beard)

  const series = (zone: string, metric: string) => records.filter((r) => r.zone === zone).map((r) => r[metric] as number);
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const redness = series("left_cheek", "redness");
  expect(mean(redness.slice(8, 14))).toBeGreaterThan(mean(redness.slice(-10)) + 10); // irritation in weeks 2-4
  const wrinkles = series("forehead", "wrinkle_depth");
  expect(mean(wrinkles.slice(-10))).toBeLessThan(mean(wrinkles.slice(0, 10)) - 6);
  expect(series("chin", "acne")).toHaveLength(59);

  const carol = await as(DEMO_USERS.carol.uid, { clinician: true });
  const shared = await callTool(carol, "list_sessions", { uid: DEMO_USERS.dave.uid, limit: 1 });
  expect(shared.isError, textOf(shared)).toBeFalsy();
});
