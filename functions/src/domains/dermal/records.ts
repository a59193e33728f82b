// The dermal records as a store (the storage seam): what the tools read, as an interface with two
// implementations that pass the same contract tests (test/support/dermal-store-contract.ts):
// Firestore (store.ts, production and the emulator) and memory (logic tests without emulators,
// other hosts). Ids are compared as Firestore compares document ids; times as ISO 8601. The host
// passes the store in as the domain's backend (index.ts: Firestore); handlers reach it through
// dermalStore(ctx) only.
import type { RequestContext } from "../../mcp/define.js";
import * as firestore from "./store.js";
import type { ReportPosition, ReportReader, ReportRow } from "./store.js";
import type { Profile, Report, Session } from "./schema.js";

export type { ReportPosition, ReportReader, ReportRow };

export interface DermalStore {
  getProfile(uid: string): Promise<Profile | null>;
  /** In the order of `uids` (null where none exists). */
  getProfiles(uids: string[]): Promise<(Profile | null)[]>;
  /** Newest first (sessions without a capture time are left out); whether more than `limit` exist. */
  listSessions(uid: string, limit: number): Promise<{ sessions: Session[]; hasMore: boolean }>;
  /** All sessions, or those captured at or after `since`. */
  countSessions(uid: string, since?: Date): Promise<number>;
  /** Overall scores of the given sessions' reports (absent when not analysed or unscored). */
  overallScores(uid: string, sessionIds: string[]): Promise<Map<string, number>>;
  getSession(uid: string, sessionId: string): Promise<Session | null>;
  /** Every user's session with this id, at most SESSION_ID_MATCHES, by user id. */
  sessionsWithId(sessionId: string): Promise<Session[]>;
  getReport(uid: string, sessionId: string): Promise<Report | null>;
  /** The user's analysed session just before `report` (capture time, then id), or null. */
  previousReport(report: Report): Promise<Report | null>;
  /** The user's timestamped reports oldest first (capture time, then id) within [from, to], from `start` (inclusive). */
  reportReader(uid: string, from: Date | null, to: Date | null, start: ReportPosition | null): ReportReader;
}

/** The store the host served the domain with (its `backend`). */
export function dermalStore(ctx: RequestContext): DermalStore {
  const store = ctx.backend as DermalStore | undefined;
  if (typeof store?.getProfile !== "function") throw new Error("the dermal domain was served without a store");
  return store;
}

/** The records in Firestore (store.ts). */
export const firestoreDermalStore: DermalStore = {
  getProfile: firestore.getProfile,
  getProfiles: firestore.getProfiles,
  listSessions: firestore.listSessions,
  countSessions: firestore.countSessions,
  overallScores: firestore.overallScores,
  getSession: firestore.getSession,
  sessionsWithId: firestore.sessionsWithId,
  getReport: firestore.getReport,
  previousReport: firestore.previousReport,
  reportReader: firestore.reportReader,
};

/** A store in memory, and how to fill it (what a test or another host writes). */
export interface MemoryDermalStore extends DermalStore {
  putProfile(profile: Profile): void;
  putSession(session: Session): void;
  putReport(report: Report): void;
}

export function memoryDermalStore(): MemoryDermalStore {
  const profiles = new Map<string, Profile>();
  const sessions = new Map<string, Map<string, Session>>();
  const reports = new Map<string, Map<string, Report>>();
  const of = <T>(m: Map<string, Map<string, T>>, uid: string) => m.get(uid) ?? m.set(uid, new Map()).get(uid)!;
  const time = (iso: string | null) => (iso === null ? null : Date.parse(iso));
  // Capture time, then id: the order of Firestore's (capturedAt, __name__) index.
  const byCapture = <T extends { capturedAt: string | null; sessionId: string }>(a: T, b: T) => time(a.capturedAt)! - time(b.capturedAt)! || compareIds(a.sessionId, b.sessionId);
  const copy = <T>(v: T): T => structuredClone(v);
  return {
    putProfile: (p) => void profiles.set(p.uid, copy(p)),
    putSession: (s) => void of(sessions, s.uid).set(s.sessionId, copy(s)),
    putReport: (r) => void of(reports, r.uid).set(r.sessionId, copy(r)),
    async getProfile(uid) {
      return copy(profiles.get(uid) ?? null);
    },
    async getProfiles(uids) {
      return uids.map((uid) => copy(profiles.get(uid) ?? null));
    },
    async listSessions(uid, limit) {
      const all = [...of(sessions, uid).values()].filter((s) => s.capturedAt !== null).sort((a, b) => byCapture(b, a));
      return { sessions: copy(all.slice(0, limit)), hasMore: all.length > limit };
    },
    async countSessions(uid, since) {
      return [...of(sessions, uid).values()].filter((s) => !since || (s.capturedAt !== null && time(s.capturedAt)! >= since.getTime())).length;
    },
    async overallScores(uid, sessionIds) {
      const out = new Map<string, number>();
      for (const id of sessionIds) {
        const score = of(reports, uid).get(id)?.overallScore;
        if (score !== undefined && score !== null) out.set(id, score);
      }
      return out;
    },
    async getSession(uid, sessionId) {
      return copy(of(sessions, uid).get(sessionId) ?? null);
    },
    async sessionsWithId(sessionId) {
      const uids = [...sessions.keys()].sort(compareIds);
      return copy(uids.flatMap((uid) => sessions.get(uid)!.get(sessionId) ?? []).slice(0, firestore.SESSION_ID_MATCHES));
    },
    async getReport(uid, sessionId) {
      return copy(of(reports, uid).get(sessionId) ?? null);
    },
    async previousReport(report) {
      if (!report.capturedAt) return null;
      const earlier = [...of(reports, report.uid).values()].filter((r) => r.capturedAt !== null && byCapture(r, report) < 0).sort(byCapture);
      return copy(earlier.at(-1) ?? null);
    },
    reportReader(uid, from, to, start) {
      // Positions as Firestore stores a Date: whole milliseconds.
      const position = (r: Report): ReportPosition => {
        const ms = time(r.capturedAt)!;
        return { seconds: Math.floor(ms / 1000), nanos: (((ms % 1000) + 1000) % 1000) * 1_000_000, sessionId: r.sessionId };
      };
      const notBefore = (p: ReportPosition, s: ReportPosition) => p.seconds - s.seconds || p.nanos - s.nanos || compareIds(p.sessionId, s.sessionId);
      let rows: ReportRow[] | undefined;
      return {
        async read(n) {
          rows ??= [...of(reports, uid).values()]
            .filter((r) => r.capturedAt !== null && (!from || time(r.capturedAt)! >= from.getTime()) && (!to || time(r.capturedAt)! <= to.getTime()))
            .sort(byCapture)
            .map((r) => ({ report: copy(r), position: position(r), capturedAt: r.capturedAt! }))
            .filter((row) => !start || notBefore(row.position, start) >= 0);
          return n < 1 ? [] : rows.splice(0, n);
        },
      };
    },
  };
}

/** Firestore's order of document ids (UTF-8 bytes). */
function compareIds(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
