// dermal's tools on the in-memory store: the function's own server (createServer, through
// connectInProcess) with a memory store as its backend, a real MCP client, no emulator. What a user
// notices: their sessions newest first with scores, a report's change since the previous one, the
// export in parts, the same refusal for someone else's records as for made-up ones, and a
// clinician reading only what was shared with them.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { SESSION_DENIED, USER_DENIED } from "../../functions/src/domains/dermal/access.js";
import { memoryDermalStore } from "../../functions/src/domains/dermal/records.js";
import { METRICS, ZONES, type Report, type ZoneScores } from "../../functions/src/domains/dermal/schema.js";
import { connectInProcess, idTokenCaller, loadDomain } from "../support/in-process.js";
import { callTool, textOf } from "../support/mcp.js";

const DAY = 24 * 60 * 60 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();
const scores = (base: number): ZoneScores => Object.fromEntries(METRICS.map((m, i) => [m, base + i])) as ZoneScores;

const store = memoryDermalStore();
const clients: Client[] = [];
let asAda: Client;

/** A completed session `n` days ago with its report (every zone scored `base` + the metric's index). */
function analysed(uid: string, sessionId: string, n: number, base: number): void {
  const at = daysAgo(n);
  store.putSession({ sessionId, uid, capturedAt: at, zones: [...ZONES], status: "completed" });
  const report: Report = { sessionId, uid, capturedAt: at, analyzedAt: at, modelVersion: "v3", overallScore: 60 + base, zones: {}, images: [] };
  for (const z of ZONES) report.zones[z] = scores(base);
  store.putReport(report);
}

async function connectAs(uid: string, claims: Record<string, unknown> = {}): Promise<Client> {
  const dermal = await loadDomain("dermal");
  const client = await connectInProcess({ ...dermal, backend: store }, { caller: idTokenCaller(uid, claims) });
  clients.push(client);
  return client;
}

beforeAll(async () => {
  store.putProfile({ uid: "ada", displayName: "Ada", tier: "premium", skinType: "oily", createdAt: daysAgo(400), lastActiveAt: daysAgo(1), sharedWith: ["dr-lee"] });
  store.putProfile({ uid: "bo", displayName: "Bo", tier: "free", skinType: null, createdAt: daysAgo(50), lastActiveAt: daysAgo(2), sharedWith: [] });
  analysed("ada", "a-old", 40, 10);
  analysed("ada", "a-mid", 20, 12);
  analysed("ada", "a-new", 2, 15);
  store.putSession({ sessionId: "a-wip", uid: "ada", capturedAt: daysAgo(1), zones: ["nose"], status: "processing" });
  analysed("bo", "b-1", 3, 30);
  asAda = await connectAs("ada");
});
afterAll(async () => Promise.all(clients.map((c) => c.close())));

describe("dermal tools on the memory store", () => {
  test("get_user_status: the caller's profile and recent activity", async () => {
    const result = await callTool(asAda, "get_user_status", { uid: "ada" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      uid: "ada",
      displayName: "Ada",
      tier: "premium",
      sharedWith: ["dr-lee"],
      recentActivity: { lastSession: { sessionId: "a-wip", status: "processing", overallScore: null }, sessionsLast30Days: 3, totalSessions: 4 },
    });
  });

  test("list_sessions: newest first, `limit` of them, scores for analysed ones", async () => {
    const result = await callTool(asAda, "list_sessions", { uid: "ada", limit: 3 });
    const data = result.structuredContent as { sessions: { sessionId: string; overallScore: number | null }[]; hasMore: boolean };
    expect(data.sessions.map((s) => [s.sessionId, s.overallScore])).toEqual([["a-wip", null], ["a-new", 75], ["a-mid", 72]]);
    expect(data.hasMore).toBe(true);
  });

  test("get_analysis_detail: every zone's metrics and the change since the previous analysed session", async () => {
    const result = await callTool(asAda, "get_analysis_detail", { sessionId: "a-new" });
    const data = result.structuredContent as { previousSession: { sessionId: string }; overallChange: number; zones: { zone: string; change: ZoneScores }[] };
    expect(data.previousSession.sessionId).toBe("a-mid");
    expect(data.overallChange).toBe(3);
    expect(data.zones).toHaveLength(ZONES.length);
    expect(data.zones[0]!.change.acne).toBe(3);
    const wip = await callTool(asAda, "get_analysis_detail", { sessionId: "a-wip" });
    expect(textOf(wip)).toBe("Error: Analysis report for session a-wip is not available: its status is processing; try again later (409)");
  });

  test("export_zone_history: oldest first, CSV with a header line", async () => {
    const result = await callTool(asAda, "export_zone_history", { uid: "ada", zone: "nose", metrics: ["acne"], format: "csv" });
    const lines = textOf(result).trim().split("\r\n");
    expect(lines[0]).toBe("sessionId,capturedAt,zone,acne");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["a-old", "a-mid", "a-new"]);
    expect(lines.slice(1).map((l) => l.split(",")[3])).toEqual(["10", "12", "15"]);
  });

  test("someone else's records and a made-up uid or session get the same refusal", async () => {
    const other = await callTool(asAda, "get_user_status", { uid: "bo" });
    expect(textOf(other)).toBe(`Error: ${USER_DENIED} (403)`);
    expect(textOf(await callTool(asAda, "list_sessions", { uid: "nobody" }))).toBe(textOf(other));
    const session = await callTool(asAda, "get_analysis_detail", { sessionId: "b-1" });
    expect(textOf(session)).toBe(`Error: ${SESSION_DENIED} (403)`);
    expect(textOf(await callTool(asAda, "get_analysis_detail", { sessionId: "no-such" }))).toBe(textOf(session));
  });

  test("a clinician reads what a patient shared with them, and nothing else", async () => {
    const drLee = await connectAs("dr-lee", { clinician: true });
    const shared = await callTool(drLee, "get_analysis_detail", { sessionId: "a-mid" });
    expect(shared.structuredContent).toMatchObject({ uid: "ada", sessionId: "a-mid" });
    expect((await callTool(drLee, "get_user_status", { uid: "ada" })).structuredContent).not.toHaveProperty("sharedWith");
    expect(textOf(await callTool(drLee, "list_sessions", { uid: "bo" }))).toBe(`Error: ${USER_DENIED} (403)`);
  });

  test("a bad argument is named in the error", async () => {
    const result = await callTool(asAda, "list_sessions", { uid: "ada", limit: 500 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error: Invalid input: limit .*20.* \(400\)$/);
  });
});
