// dermal tools end to end: a real MCP client, the real function in the emulator, Firestore data.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { adminDb, createUser, type TestUser } from "../support/emulators.js";
import { FieldValue, Timestamp } from "firebase-admin/firestore";
import { callTool, connect, textOf } from "../support/mcp.js";
import { DAY, METRICS, overall, parseCsv, score, seedUser, sessionId, ZONES, type SessionSpec } from "./fixtures.js";

const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close())));
async function client(user: TestUser, era: "modern" | "legacy" = "modern"): Promise<Client> {
  const c = await connect("dermal", { token: user.token, era });
  clients.push(c);
  return c;
}

const NO_PERIORBITAL = ZONES.filter((z) => z !== "periorbital");
// Nine sessions, oldest first: index = fixture session number (see fixtures.score()).
const NOW = Date.now();
const DAYS_AGO = [120, 90, 60, 45, 31, 20, 10, 2, 0.5];
const SESSIONS: SessionSpec[] = DAYS_AGO.map((d) => ({ at: new Date(NOW - d * DAY) }));
SESSIONS[3]!.status = "failed";
SESSIONS[5]!.zones = NO_PERIORBITAL;
SESSIONS[8]!.status = "processing";
const COMPLETED = [0, 1, 2, 4, 5, 6, 7];
const atOf = (i: number) => SESSIONS[i]!.at as Date;
const day = (d: Date) => d.toISOString().slice(0, 10);

let alice: TestUser;
let noProfile: TestUser;
let c: Client;

beforeAll(async () => {
  [alice, noProfile] = await Promise.all([createUser(), createUser()]);
  await seedUser(alice.uid, { tier: "premium", skinType: "combination", displayName: "Alice Test", sharedWith: ["some-clinician"] }, SESSIONS);
  c = await client(alice);
});

describe("tools/list", () => {
  test("lists the four read-only tools with their input and output schemas", async () => {
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["export_zone_history", "get_analysis_detail", "get_user_status", "list_sessions"]);
    for (const t of tools) {
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
      expect(t.annotations?.destructiveHint ?? false, t.name).toBe(false);
      expect(t.outputSchema?.type, t.name).toBe("object");
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    expect(byName.get_user_status!.inputSchema.required).toEqual(["uid"]);
    expect(byName.get_analysis_detail!.inputSchema.required).toEqual(["sessionId"]);
    const limit = (byName.list_sessions!.inputSchema.properties as Record<string, Record<string, unknown>>).limit!;
    expect(limit).toMatchObject({ type: "integer", default: 5, maximum: 20 });
    expect(byName.list_sessions!.inputSchema.required).toEqual(["uid"]);
    expect(c.getInstructions()).toMatch(/export_zone_history/);
  });
});

describe("get_user_status", () => {
  test.each(["modern", "legacy"] as const)("own profile, tier, skin type and recent activity (%s client)", async (era) => {
    const cl = era === "modern" ? c : await client(alice, "legacy");
    const r = await callTool(cl, "get_user_status", { uid: alice.uid });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as Record<string, any>;
    expect(s).toMatchObject({ uid: alice.uid, displayName: "Alice Test", tier: "premium", skinType: "combination", sharedWith: ["some-clinician"] });
    expect(s.recentActivity).toEqual({
      lastSession: { sessionId: sessionId(alice.uid, 8), capturedAt: atOf(8).toISOString(), zones: [...ZONES], status: "processing", overallScore: null },
      sessionsLast30Days: 4,
      totalSessions: 9,
    });
    expect(JSON.parse(textOf(r))).toEqual(s);
  });

  test("own uid without a profile: User not found (404)", async () => {
    const r = await callTool(await client(noProfile), "get_user_status", { uid: noProfile.uid });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("Error: User not found (404)");
  });

  test("missing uid is an invalid-input error", async () => {
    const r = await callTool(c, "get_user_status", {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("Error: Invalid input: uid is required (400)");
  });
});

describe("id arguments are one path segment", () => {
  const SHAPE = 'at most 128 characters, no "/", not "." or "..", and not of the form __name__ (reserved by Firestore) (400)';
  const UID = `Error: Invalid input: uid must be a Firebase Auth user id: ${SHAPE}`;
  const SESSION = `Error: Invalid input: sessionId must be a session id as list_sessions returns it: ${SHAPE}`;
  test.each([
    ["get_user_status", { uid: "x/sessions/y" }, UID],
    ["get_user_status", { uid: ".." }, UID],
    ["list_sessions", { uid: "x/sessions/y" }, UID],
    ["list_sessions", { uid: "." }, UID],
    ["export_zone_history", { uid: "x/sessions/y" }, UID],
    ["export_zone_history", { uid: "__x__" }, UID],
    ["get_analysis_detail", { sessionId: "a/b" }, SESSION],
    ["get_analysis_detail", { sessionId: ".." }, SESSION],
    ["get_analysis_detail", { sessionId: "__name__" }, SESSION],
  ])("%s %j is an invalid-input error", async (tool, args, text) => {
    const r = await callTool(c, tool, args);
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(text);
  });

  test("a path through your own uid is refused too, not read", async () => {
    const r = await callTool(c, "get_user_status", { uid: `${alice.uid}/sessions/${sessionId(alice.uid, 0)}` });
    expect(textOf(r)).toBe(UID);
  });
});

describe("list_sessions", () => {
  const ids = (r: { structuredContent?: unknown }) => (r.structuredContent as { sessions: { sessionId: string }[] }).sessions.map((s) => s.sessionId);

  test("defaults to the 5 newest, newest first", async () => {
    const r = await callTool(c, "list_sessions", { uid: alice.uid });
    expect(r.isError).toBeFalsy();
    expect(ids(r)).toEqual([8, 7, 6, 5, 4].map((i) => sessionId(alice.uid, i)));
    const s = r.structuredContent as Record<string, any>;
    expect(s).toMatchObject({ uid: alice.uid, limit: 5, count: 5, hasMore: true });
    expect(s.sessions[0]).toEqual({ sessionId: sessionId(alice.uid, 8), capturedAt: atOf(8).toISOString(), zones: [...ZONES], status: "processing", overallScore: null });
    expect(s.sessions[1]).toMatchObject({ status: "completed", overallScore: overall(7) });
    expect(s.sessions[3]).toMatchObject({ zones: NO_PERIORBITAL });
  });

  test("limit picks how many; 20 returns all nine, ordered by capture time descending", async () => {
    const r3 = await callTool(c, "list_sessions", { uid: alice.uid, limit: 3 });
    expect(ids(r3)).toEqual([8, 7, 6].map((i) => sessionId(alice.uid, i)));
    const r20 = await callTool(c, "list_sessions", { uid: alice.uid, limit: 20 });
    expect(ids(r20)).toEqual([8, 7, 6, 5, 4, 3, 2, 1, 0].map((i) => sessionId(alice.uid, i)));
    expect(r20.structuredContent).toMatchObject({ count: 9, hasMore: false });
    const failed = (r20.structuredContent as any).sessions.find((s: any) => s.sessionId === sessionId(alice.uid, 3));
    expect(failed).toMatchObject({ status: "failed", overallScore: null });
  });

  test.each([
    [21, "Error: Invalid input: limit must be at most 20 (400)"],
    [0, "Error: Invalid input: limit must be at least 1 (400)"],
    [-3, "Error: Invalid input: limit must be at least 1 (400)"],
    [2.5, "Error: Invalid input: limit must be an integer, not a number (400)"],
    ["5", "Error: Invalid input: limit must be a number, not a string (400)"],
  ])("limit %j is refused, not clamped", async (limit, text) => {
    const r = await callTool(c, "list_sessions", { uid: alice.uid, limit });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(text);
    expect(r.structuredContent).toBeUndefined();
  });

  test("own uid without a profile: User not found (404)", async () => {
    const r = await callTool(await client(noProfile), "list_sessions", { uid: noProfile.uid });
    expect(textOf(r)).toBe("Error: User not found (404)");
  });
});

describe("get_analysis_detail", () => {
  const detail = async (i: number) => {
    const r = await callTool(c, "get_analysis_detail", { sessionId: sessionId(alice.uid, i) });
    expect(r.isError, textOf(r)).toBeFalsy();
    return r.structuredContent as Record<string, any>;
  };

  test("the full report with the change of every metric since the previous session", async () => {
    const d = await detail(7);
    expect(d).toMatchObject({
      sessionId: sessionId(alice.uid, 7),
      uid: alice.uid,
      capturedAt: atOf(7).toISOString(),
      status: "completed",
      modelVersion: "dermalnet-test-1",
      overallScore: overall(7),
      overallChange: 1,
      previousSession: { sessionId: sessionId(alice.uid, 6), capturedAt: atOf(6).toISOString() },
      images: [{ view: "front", uri: `gs://test-bucket/users/${alice.uid}/sessions/${sessionId(alice.uid, 7)}/front.jpg` }],
    });
    expect(d.zones.map((z: any) => z.zone)).toEqual([...ZONES]);
    for (const z of d.zones) {
      for (const m of METRICS) {
        expect(z.metrics[m]).toBe(score(7, z.zone, m));
        expect(z.change[m]).toBe(1);
      }
    }
  });

  test("a zone the previous session did not capture has no change; the previous session skips failed ones", async () => {
    const d6 = await detail(6);
    expect(d6.previousSession.sessionId).toBe(sessionId(alice.uid, 5));
    expect(d6.zones.find((z: any) => z.zone === "periorbital").change).toBeNull();
    expect(d6.zones.find((z: any) => z.zone === "nose").change.acne).toBe(1);
    const d4 = await detail(4); // session 3 failed: compare with session 2
    expect(d4.previousSession.sessionId).toBe(sessionId(alice.uid, 2));
    expect(d4.overallChange).toBe(2);
    expect(d4.zones[0].change.redness).toBe(2);
    const d5 = await detail(5);
    expect(d5.zones.map((z: any) => z.zone)).toEqual(NO_PERIORBITAL);
  });

  test("the first session has no previous session", async () => {
    const d = await detail(0);
    expect(d.previousSession).toBeNull();
    expect(d.overallChange).toBeNull();
    expect(d.zones.every((z: any) => z.change === null)).toBe(true);
  });

  test("a session still processing, or failed, has no report yet", async () => {
    const p = await callTool(c, "get_analysis_detail", { sessionId: sessionId(alice.uid, 8) });
    expect(p.isError).toBe(true);
    expect(textOf(p)).toBe(`Error: Analysis report for session ${sessionId(alice.uid, 8)} is not available: its status is processing; try again later (409)`);
    const f = await callTool(c, "get_analysis_detail", { sessionId: sessionId(alice.uid, 3) });
    expect(textOf(f)).toBe(`Error: Analysis report for session ${sessionId(alice.uid, 3)} is not available: its analysis failed; a new capture is needed (409)`);
  });

  test("an unknown session id: session not found (same answer as someone else's)", async () => {
    const r = await callTool(c, "get_analysis_detail", { sessionId: "no-such-session" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      "Error: Session not found or access denied: you can read only your own sessions, or those of a user who shared them with you as their clinician (403)",
    );
    const empty = await callTool(c, "get_analysis_detail", { sessionId: "" });
    expect(textOf(empty)).toBe("Error: Invalid input: sessionId must not be empty (400)");
  });
});

describe("records with missing fields", () => {
  let sparse: TestUser;
  let sc: Client;
  const at = new Date(NOW - 5 * DAY);
  beforeAll(async () => {
    sparse = await createUser();
    await seedUser(sparse.uid, { tier: "pro" }, [{ at: 20, id: "prev" }, { at: 5, id: "no-score" }, { at: 3, id: "no-report" }, { at: 2, id: "no-time" }]);
    const user = adminDb().collection("users").doc(sparse.uid);
    await user.collection("reports").doc("no-report").delete();
    await user.collection("reports").doc("no-score").update({ overallScore: FieldValue.delete() });
    await user.collection("sessions").doc("no-time").set({ sessionId: "no-time", uid: sparse.uid, zones: ["nose"], status: "completed" });
    await user.collection("reports").doc("no-time").set({
      sessionId: "no-time", uid: sparse.uid, modelVersion: "m", analyzedAt: Timestamp.fromDate(at),
      zones: { nose: Object.fromEntries(METRICS.map((m) => [m, 10])) }, images: [],
    });
    sc = await client(sparse);
  });

  test("a completed session without its report says the report is missing", async () => {
    const r = await callTool(sc, "get_analysis_detail", { sessionId: "no-report" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("Error: Analysis report for session no-report is missing: the session is completed but no report was stored (404)");
  });

  test("no overall score reads as null, not 0, and has no change", async () => {
    const r = await callTool(sc, "get_analysis_detail", { sessionId: "no-score" });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ overallScore: null, overallChange: null, previousSession: { sessionId: "prev" } });
    const list = await callTool(sc, "list_sessions", { uid: sparse.uid });
    expect((list.structuredContent as any).sessions.find((s: any) => s.sessionId === "no-score").overallScore).toBeNull();
  });

  test("no capture time reads as null, never 1970, and stays out of time series", async () => {
    const r = await callTool(sc, "get_analysis_detail", { sessionId: "no-time" });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ capturedAt: null, previousSession: null, overallScore: null });
    const exp = await callTool(sc, "export_zone_history", { uid: sparse.uid, zone: "nose" });
    const records = (exp.structuredContent as any).records;
    expect(records.map((x: any) => x.sessionId)).toEqual(["prev", "no-score"]);
    expect(JSON.stringify(exp)).not.toContain("1970-");
  });
});

describe("export_zone_history", () => {
  const run = async (args: Record<string, unknown>) => {
    const r = await callTool(c, "export_zone_history", { uid: alice.uid, ...args });
    expect(r.isError, textOf(r)).toBeFalsy();
    return r.structuredContent as Record<string, any>;
  };
  const expected = (sessions: number[], zones: readonly string[] = ZONES, metrics: readonly string[] = METRICS) =>
    sessions.flatMap((i) =>
      zones
        .filter((z) => (SESSIONS[i]!.zones ?? ZONES).includes(z as never))
        .map((z) => ({
          sessionId: sessionId(alice.uid, i),
          capturedAt: atOf(i).toISOString(),
          zone: z,
          ...Object.fromEntries(metrics.map((m) => [m, score(i, z as never, m as never)])),
        })),
    );

  test("default: every zone and metric of every analysed session, oldest first, as JSON", async () => {
    const s = await run({});
    expect(s).toMatchObject({ uid: alice.uid, zone: null, metrics: [...METRICS], from: null, to: null, format: "json", truncated: false });
    expect(s.nextCursor).toBeUndefined();
    expect(s.records).toEqual(expected(COMPLETED));
    expect(s.recordCount).toBe(6 * 6 + 5);
  });

  test("one zone and chosen metrics", async () => {
    const s = await run({ zone: "periorbital", metrics: ["hydration", "acne"] });
    expect(s.metrics).toEqual(["acne", "hydration"]);
    expect(s.records).toEqual(expected(COMPLETED, ["periorbital"], ["acne", "hydration"]));
    expect(Object.keys(s.records[0])).toEqual(["sessionId", "capturedAt", "zone", "acne", "hydration"]);
  });

  test("from/to are inclusive calendar days (or timestamps)", async () => {
    const s = await run({ zone: "nose", from: day(atOf(2)), to: day(atOf(5)) });
    expect(s.records.map((r: any) => r.sessionId)).toEqual([2, 4, 5].map((i) => sessionId(alice.uid, i)));
    expect(s.from).toBe(`${day(atOf(2))}T00:00:00.000Z`);
    expect(s.to).toBe(`${day(atOf(5))}T23:59:59.999Z`);
    const t = await run({ zone: "nose", from: atOf(6).toISOString(), to: atOf(6).toISOString() });
    expect(t.records.map((r: any) => r.sessionId)).toEqual([sessionId(alice.uid, 6)]);
    const none = await run({ from: "2001-01-01", to: "2001-12-31" });
    expect(none).toMatchObject({ recordCount: 0, records: [], truncated: false, note: "No analysed sessions in this range." });
  });

  test("CSV is valid CSV with a header and the same values", async () => {
    const r = await callTool(c, "export_zone_history", { uid: alice.uid, format: "csv", metrics: ["acne", "wrinkle_depth"] });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as Record<string, any>;
    expect(s.records).toBeUndefined();
    expect(textOf(r)).toBe(s.csv);
    const rows = parseCsv(s.csv);
    expect(rows[0]).toEqual(["sessionId", "capturedAt", "zone", "acne", "wrinkle_depth"]);
    const want = expected(COMPLETED, ZONES, ["acne", "wrinkle_depth"]).map((e: any) => [e.sessionId, e.capturedAt, e.zone, String(e.acne), String(e.wrinkle_depth)]);
    expect(rows.slice(1)).toEqual(want);
    expect(s.recordCount).toBe(want.length);
  });

  test.each([
    [{ zone: "cheek" }, 'Error: Invalid input: zone must be one of: "forehead", "nose", "left_cheek", "right_cheek", "chin", "periorbital" (400)'],
    [{ metrics: ["acne", "shine"] }, 'Error: Invalid input: metrics.1 must be one of: "acne", "wrinkle_depth", "pigmentation", "redness", "hydration", "pores" (400)'],
    [{ metrics: [] }, "Error: Invalid input: metrics must have at least 1 item (400)"],
    [{ format: "xml" }, 'Error: Invalid input: format must be one of: "json", "csv" (400)'],
    [{ from: "2025-02-30" }, "Error: Invalid input: from must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with a time zone (400)"],
    [{ to: "last week" }, "Error: Invalid input: to must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with a time zone (400)"],
    [{ from: "2025-03-01", to: "2025-02-01" }, "Error: Invalid input: from must not be after to (400)"],
    [{ cursor: "not-a-cursor" }, "Error: Invalid cursor: pass the nextCursor of the previous response unchanged, or omit cursor to start over (400)"],
  ])("bad arguments %j are invalid-input errors", async (args, text) => {
    const r = await callTool(c, "export_zone_history", { uid: alice.uid, ...args });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(text);
  });

  test("own uid without a profile: User not found (404)", async () => {
    const r = await callTool(await client(noProfile), "export_zone_history", { uid: noProfile.uid });
    expect(textOf(r)).toBe("Error: User not found (404)");
  });
});
