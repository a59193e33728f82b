// The contract every dermal store keeps (functions/src/domains/dermal/records.ts), run against
// each implementation: memory in test/unit, Firestore in test/fast. What the tools rely on: who
// has what, newest first, counts, the previous analysed session, ids shared between users.
import { describe, expect, test } from "vitest";
import type { DermalStore } from "../../functions/src/domains/dermal/records.js";
import type { Profile, Report, Session } from "../../functions/src/domains/dermal/schema.js";

export interface StoreUnderTest {
  store: DermalStore;
  putProfile(p: Profile): Promise<void>;
  putSession(s: Session): Promise<void>;
  putReport(r: Report): Promise<void>;
}

const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n, 9, 30)).toISOString();

const profile = (uid: string, displayName: string): Profile => ({
  uid,
  displayName,
  tier: "premium",
  skinType: "oily",
  createdAt: day(0),
  lastActiveAt: day(10),
  sharedWith: [],
});
const session = (uid: string, sessionId: string, at: string | null): Session => ({ sessionId, uid, capturedAt: at, zones: ["forehead", "nose"], status: "completed" });
const report = (uid: string, sessionId: string, at: string, overallScore: number | null): Report => ({
  sessionId,
  uid,
  capturedAt: at,
  analyzedAt: at,
  modelVersion: "v2",
  overallScore,
  zones: { forehead: { acne: 1, wrinkle_depth: 2, pigmentation: 3, redness: 4, hydration: 5.5, pores: 6 } },
  images: [{ view: "front", uri: "gs://b/front.jpg" }],
});

export function dermalStoreContract(name: string, open: () => Promise<StoreUnderTest>): void {
  describe(`dermal store contract: ${name}`, () => {
    const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const uid = (who: string) => `contract-${who}-${run}`;

    test("a profile reads back as written; several come back in the order asked, null where none exists", async () => {
      const s = await open();
      const ada = profile(uid("ada"), "Ada");
      const bo = profile(uid("bo"), "Bo");
      await s.putProfile(ada);
      await s.putProfile(bo);
      expect(await s.store.getProfile(ada.uid)).toEqual(ada);
      expect(await s.store.getProfile(uid("nobody"))).toBeNull();
      expect(await s.store.getProfiles([bo.uid, uid("nobody"), ada.uid])).toEqual([bo, null, ada]);
      expect(await s.store.getProfiles([])).toEqual([]);
    });

    test("sessions list newest first, `limit` at a time, saying whether more exist; counts all or since a date", async () => {
      const s = await open();
      const u = uid("lister");
      for (const [id, n] of [["s-a", 3], ["s-b", 1], ["s-c", 5], ["s-d", 2]] as const) await s.putSession(session(u, id, day(n)));
      const first = await s.store.listSessions(u, 3);
      expect(first.sessions.map((x) => x.sessionId)).toEqual(["s-c", "s-a", "s-d"]);
      expect(first.hasMore).toBe(true);
      expect(first.sessions[0]).toEqual(session(u, "s-c", day(5)));
      expect((await s.store.listSessions(u, 4)).hasMore).toBe(false);
      expect(await s.store.countSessions(u)).toBe(4);
      expect(await s.store.countSessions(u, new Date(day(3)))).toBe(2);
      expect(await s.store.listSessions(uid("empty"), 5)).toEqual({ sessions: [], hasMore: false });
    });

    test("one session and one report by id; null for an unknown id or another user's", async () => {
      const s = await open();
      const u = uid("owner");
      await s.putSession(session(u, "s-1", day(1)));
      await s.putReport(report(u, "s-1", day(1), 71));
      expect(await s.store.getSession(u, "s-1")).toEqual(session(u, "s-1", day(1)));
      expect(await s.store.getReport(u, "s-1")).toEqual(report(u, "s-1", day(1), 71));
      expect(await s.store.getSession(u, "s-2")).toBeNull();
      expect(await s.store.getReport(uid("other"), "s-1")).toBeNull();
    });

    test("overall scores only for analysed, scored sessions", async () => {
      const s = await open();
      const u = uid("scores");
      await s.putReport(report(u, "s-1", day(1), 60));
      await s.putReport(report(u, "s-2", day(2), null));
      const scores = await s.store.overallScores(u, ["s-1", "s-2", "s-3"]);
      expect([...scores]).toEqual([["s-1", 60]]);
      expect((await s.store.overallScores(u, [])).size).toBe(0);
    });

    test("the previous analysed session is the one just before by capture time, then id", async () => {
      const s = await open();
      const u = uid("previous");
      const r1 = report(u, "s-1", day(1), 50);
      const r2a = report(u, "s-2a", day(2), 51);
      const r2b = report(u, "s-2b", day(2), 52); // same capture time: the id orders them
      const r3 = report(u, "s-3", day(3), 53);
      for (const r of [r3, r1, r2b, r2a]) await s.putReport(r);
      expect(await s.store.previousReport(r3)).toEqual(r2b);
      expect(await s.store.previousReport(r2b)).toEqual(r2a);
      expect(await s.store.previousReport(r2a)).toEqual(r1);
      expect(await s.store.previousReport(r1)).toBeNull();
      expect(await s.store.previousReport({ ...r3, capturedAt: null })).toBeNull();
    });

    test("reports read oldest first (capture time, then id), as many as asked, within a range, from a position", async () => {
      const s = await open();
      const u = uid("reader");
      const rs = [report(u, "s-1", day(1), 1), report(u, "s-2a", day(2), 2), report(u, "s-2b", day(2), 3), report(u, "s-3", day(3), 4), report(u, "s-4", day(4), 5)];
      for (const r of [...rs].reverse()) await s.putReport(r);
      await s.putReport({ ...report(u, "s-untimed", day(0), 6), capturedAt: null }); // never read: no capture time
      const ids = (rows: { report: Report }[]) => rows.map((r) => r.report.sessionId);
      const all = s.store.reportReader(u, null, null, null);
      const first = await all.read(2);
      expect(ids(first)).toEqual(["s-1", "s-2a"]);
      expect(first[0]).toMatchObject({ report: rs[0], capturedAt: day(1) });
      expect(ids(await all.read(2))).toEqual(["s-2b", "s-3"]);
      expect(ids(await all.read(5))).toEqual(["s-4"]);
      expect(await all.read(1)).toEqual([]);
      expect(ids(await s.store.reportReader(u, new Date(day(2)), new Date(day(3)), null).read(10))).toEqual(["s-2a", "s-2b", "s-3"]);
      const at2b = (await s.store.reportReader(u, null, null, null).read(3))[2]!.position;
      expect(at2b.sessionId).toBe("s-2b");
      expect(ids(await s.store.reportReader(u, null, null, at2b).read(10))).toEqual(["s-2b", "s-3", "s-4"]);
    });

    test("a session id two users share finds both sessions, by user id", async () => {
      const s = await open();
      const shared = `shared-${run}`;
      const [a, b] = [uid("a-first"), uid("b-second")];
      await s.putSession(session(b, shared, day(2)));
      await s.putSession(session(a, shared, day(1)));
      expect((await s.store.sessionsWithId(shared)).map((x) => x.uid)).toEqual([a, b]);
      expect(await s.store.sessionsWithId(`none-${run}`)).toEqual([]);
    });
  });
}
