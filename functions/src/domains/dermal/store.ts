// DermalVision data access (Firestore, Admin SDK). Layout (docs/dermal.md):
//   users/{uid}                          profile
//   users/{uid}/sessions/{sessionId}     monitoring session (field sessionId == document id)
//   users/{uid}/reports/{sessionId}      AI analysis report of that session
// Every read here is unchecked: callers go through access.ts first.
import { FieldPath, Timestamp, type DocumentData, type DocumentSnapshot, type QueryDocumentSnapshot } from "firebase-admin/firestore";
import { firestore, TIMESTAMP_MAX_SECONDS, TIMESTAMP_MIN_SECONDS } from "../../platform/firebase.js";
import { METRICS, ZONES, type Profile, type Report, type Session, type Zone, type ZoneScores } from "./schema.js";

export const USERS = "users";
export const SESSIONS = "sessions";
export const REPORTS = "reports";

const users = () => firestore().collection(USERS);
const sessions = (uid: string) => users().doc(uid).collection(SESSIONS);
const reports = (uid: string) => users().doc(uid).collection(REPORTS);

function iso(value: unknown): string | null {
  if (value instanceof Timestamp) return value.toDate().toISOString();
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "string" && !Number.isNaN(Date.parse(value))) return new Date(value).toISOString();
  return null;
}

// Firestore's timestamp range. A range filter on capturedAt from EARLIEST keeps only documents whose
// capturedAt is a timestamp (Firestore filters by type), so ordering and cursors see one type; and
// date arguments outside the range (e.g. year 0) are clamped instead of throwing.
const EARLIEST = new Timestamp(TIMESTAMP_MIN_SECONDS, 0);
const LATEST = new Timestamp(TIMESTAMP_MAX_SECONDS, 999_999_999);
const stamp = (d: Date): Timestamp =>
  d.getTime() < EARLIEST.toMillis() ? EARLIEST : d.getTime() > LATEST.toMillis() ? LATEST : Timestamp.fromDate(d);

const str = (value: unknown): string | null => (typeof value === "string" && value ? value : null);
const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

function toProfile(snap: DocumentSnapshot): Profile {
  const d = snap.data() ?? {};
  return {
    uid: snap.id,
    displayName: str(d.displayName),
    tier: str(d.tier) ?? "free",
    skinType: str(d.skinType),
    createdAt: iso(d.createdAt),
    lastActiveAt: iso(d.lastActiveAt),
    sharedWith: Array.isArray(d.sharedWith) ? d.sharedWith.filter((x): x is string => typeof x === "string") : [],
  };
}

function toSession(snap: DocumentSnapshot, uid: string): Session {
  const d = snap.data() ?? {};
  return {
    sessionId: snap.id,
    uid,
    capturedAt: iso(d.capturedAt),
    zones: Array.isArray(d.zones) ? d.zones.filter((z): z is Zone => (ZONES as readonly string[]).includes(z)) : [],
    status: str(d.status) ?? "completed",
  };
}

function toScores(value: unknown): ZoneScores | null {
  if (!value || typeof value !== "object") return null;
  const out = {} as ZoneScores;
  for (const m of METRICS) {
    const n = num((value as DocumentData)[m]);
    if (n === null) return null;
    out[m] = n;
  }
  return out;
}

function toReport(snap: DocumentSnapshot, uid: string): Report {
  const d = snap.data() ?? {};
  const zones: Report["zones"] = {};
  for (const z of ZONES) {
    const scores = toScores(d.zones?.[z]);
    if (scores) zones[z] = scores;
  }
  const images = Array.isArray(d.images)
    ? d.images.flatMap((i: DocumentData) => (typeof i?.uri === "string" ? [{ view: str(i.view) ?? "front", uri: i.uri as string }] : []))
    : [];
  return {
    sessionId: snap.id,
    uid,
    capturedAt: iso(d.capturedAt),
    analyzedAt: iso(d.analyzedAt),
    modelVersion: str(d.modelVersion) ?? "unknown",
    overallScore: num(d.overallScore),
    zones,
    images,
  };
}

export async function getProfile(uid: string): Promise<Profile | null> {
  const snap = await users().doc(uid).get();
  return snap.exists ? toProfile(snap) : null;
}

/** Several profiles in one round trip, in the order of `uids` (null where none exists). */
export async function getProfiles(uids: string[]): Promise<(Profile | null)[]> {
  if (!uids.length) return [];
  const snaps = await firestore().getAll(...uids.map((uid) => users().doc(uid)));
  return snaps.map((snap) => (snap.exists ? toProfile(snap) : null));
}

/** Newest first; one more than `limit` is read to tell whether more exist. */
export async function listSessions(uid: string, limit: number): Promise<{ sessions: Session[]; hasMore: boolean }> {
  const snap = await sessions(uid).orderBy("capturedAt", "desc").limit(limit + 1).get();
  const all = snap.docs.map((d) => toSession(d, uid));
  return { sessions: all.slice(0, limit), hasMore: all.length > limit };
}

export async function countSessions(uid: string, since?: Date): Promise<number> {
  const query = since ? sessions(uid).where("capturedAt", ">=", Timestamp.fromDate(since)) : sessions(uid);
  const snap = await query.count().get();
  return snap.data().count;
}

/** Overall scores of the given sessions' reports (absent when not analysed). */
export async function overallScores(uid: string, sessionIds: string[]): Promise<Map<string, number>> {
  if (!sessionIds.length) return new Map();
  // Only the score: a report also holds every zone's metrics, which would be read and decoded for nothing.
  const snaps = await firestore().getAll(...sessionIds.map((id) => reports(uid).doc(id)), { fieldMask: ["overallScore"] });
  const out = new Map<string, number>();
  for (const s of snaps) {
    const score = num(s.data()?.overallScore);
    if (s.exists && score !== null) out.set(s.id, score);
  }
  return out;
}

/** users/{uid}/sessions/{sessionId}, or null. */
export async function getSession(uid: string, sessionId: string): Promise<Session | null> {
  const snap = await sessions(uid).doc(sessionId).get();
  return snap.exists ? toSession(snap, uid) : null;
}

/**
 * Most sessions one id lookup reads. Session ids are unique per user only, and the app makes them
 * as random ids, so two users share one only when ids are made up by hand (e.g. "s1"); 50 covers
 * that many times over while bounding what one clinician's lookup of a common id can cost.
 */
export const SESSION_ID_MATCHES = 50;

/**
 * Every user's session with this id (collection-group query on the `sessionId` field; see the
 * field override in firestore.indexes.json), up to SESSION_ID_MATCHES, in path order. Only
 * documents at users/{uid}/sessions/{id} count. For a clinician's lookup of a patient's session:
 * the caller decides which of them, if any, they may read.
 */
export async function sessionsWithId(sessionId: string): Promise<Session[]> {
  const snap = await firestore().collectionGroup(SESSIONS).where("sessionId", "==", sessionId).limit(SESSION_ID_MATCHES).get();
  return snap.docs.flatMap((doc) => {
    const userDoc = doc.ref.parent.parent;
    return doc.id === sessionId && userDoc && userDoc.parent.id === USERS && !userDoc.parent.parent ? [toSession(doc, userDoc.id)] : [];
  });
}

export async function getReport(uid: string, sessionId: string): Promise<Report | null> {
  const snap = await reports(uid).doc(sessionId).get();
  return snap.exists ? toReport(snap, uid) : null;
}

/**
 * The user's analysed session immediately before `report` (by capture time, then id); null when
 * there is none, or when `report` has no capture time to compare with.
 */
export async function previousReport(report: Report): Promise<Report | null> {
  if (!report.capturedAt) return null;
  const snap = await reports(report.uid)
    .where("capturedAt", ">=", EARLIEST)
    .orderBy("capturedAt", "desc")
    .orderBy(FieldPath.documentId(), "desc")
    .startAfter(Timestamp.fromDate(new Date(report.capturedAt)), report.sessionId)
    .limit(1)
    .get();
  const doc = snap.docs[0];
  return doc ? toReport(doc, report.uid) : null;
}

export interface ReportPosition {
  /** capturedAt as stored (seconds, nanoseconds) */
  seconds: number;
  nanos: number;
  sessionId: string;
}

export interface ReportRow {
  report: Report;
  position: ReportPosition;
  /** capturedAt as ISO 8601 (always set: the reader only returns timestamped reports) */
  capturedAt: string;
}

/** Reads a user's reports in order, as many at a time as the consumer asks for. */
export interface ReportReader {
  /** Up to `n` more reports; fewer than `n` means there are no more. */
  read(n: number): Promise<ReportRow[]>;
}

/**
 * Reports oldest first (capture time, then id) within [from, to], starting at `start`
 * (inclusive). Each read asks Firestore for exactly the number requested, so a consumer with a
 * size budget reads only what can still fit.
 */
export function reportReader(uid: string, from: Date | null, to: Date | null, start: ReportPosition | null): ReportReader {
  let query = reports(uid)
    .where("capturedAt", ">=", from ? stamp(from) : EARLIEST)
    .orderBy("capturedAt", "asc")
    .orderBy(FieldPath.documentId(), "asc");
  if (to) query = query.where("capturedAt", "<=", stamp(to));
  let last: QueryDocumentSnapshot | null = null;
  let done = false;
  return {
    async read(n) {
      if (done || n < 1) return [];
      let page = query.limit(n);
      if (last) page = page.startAfter(last);
      else if (start) page = page.startAt(new Timestamp(start.seconds, start.nanos), start.sessionId);
      const snap = await page.get();
      if (snap.docs.length < n) done = true;
      last = snap.docs[snap.docs.length - 1] ?? last;
      return snap.docs.map((doc) => {
        const ts = doc.get("capturedAt") as Timestamp; // a timestamp: the range filter admits no other type
        return {
          report: toReport(doc, uid),
          position: { seconds: ts.seconds, nanos: ts.nanoseconds, sessionId: doc.id },
          capturedAt: ts.toDate().toISOString(),
        };
      });
    },
  };
}
