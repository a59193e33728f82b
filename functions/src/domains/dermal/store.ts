// DermalVision data access (Firestore, Admin SDK). Layout (docs/dermal.md):
//   users/{uid}                          profile
//   users/{uid}/sessions/{sessionId}     monitoring session (field sessionId == document id)
//   users/{uid}/reports/{sessionId}      AI analysis report of that session
// Every read here is unchecked: callers go through access.ts first.
import { FieldPath, Timestamp, type DocumentData, type DocumentSnapshot, type QueryDocumentSnapshot } from "firebase-admin/firestore";
import { firestore } from "../../platform/firebase.js";
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
    capturedAt: iso(d.capturedAt) ?? new Date(0).toISOString(),
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
    capturedAt: iso(d.capturedAt) ?? new Date(0).toISOString(),
    analyzedAt: iso(d.analyzedAt),
    modelVersion: str(d.modelVersion) ?? "unknown",
    overallScore: num(d.overallScore) ?? 0,
    zones,
    images,
  };
}

export async function getProfile(uid: string): Promise<Profile | null> {
  const snap = await users().doc(uid).get();
  return snap.exists ? toProfile(snap) : null;
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
  const snaps = await firestore().getAll(...sessionIds.map((id) => reports(uid).doc(id)));
  const out = new Map<string, number>();
  for (const s of snaps) {
    const score = num(s.data()?.overallScore);
    if (s.exists && score !== null) out.set(s.id, score);
  }
  return out;
}

/**
 * Finds a session by id alone (collection-group query on the `sessionId` field; see the field
 * override in firestore.indexes.json). Only documents at users/{uid}/sessions/{id} count.
 */
export async function findSession(sessionId: string): Promise<Session | null> {
  const snap = await firestore().collectionGroup(SESSIONS).where("sessionId", "==", sessionId).limit(5).get();
  for (const doc of snap.docs) {
    const userDoc = doc.ref.parent.parent;
    if (doc.id === sessionId && userDoc && userDoc.parent.id === USERS && !userDoc.parent.parent) return toSession(doc, userDoc.id);
  }
  return null;
}

export async function getReport(uid: string, sessionId: string): Promise<Report | null> {
  const snap = await reports(uid).doc(sessionId).get();
  return snap.exists ? toReport(snap, uid) : null;
}

/** The user's analysed session immediately before `report` (by capture time, then id). */
export async function previousReport(report: Report): Promise<Report | null> {
  const snap = await reports(report.uid)
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
}

/**
 * Reports oldest first within [from, to], in batches, starting at `start` (inclusive). Yields
 * until the consumer stops.
 */
export async function* reportsInRange(uid: string, from: Date | null, to: Date | null, start: ReportPosition | null, batch = 100): AsyncGenerator<ReportRow> {
  let query = reports(uid).orderBy("capturedAt", "asc").orderBy(FieldPath.documentId(), "asc");
  if (from) query = query.where("capturedAt", ">=", Timestamp.fromDate(from));
  if (to) query = query.where("capturedAt", "<=", Timestamp.fromDate(to));
  let last: QueryDocumentSnapshot | null = null;
  for (;;) {
    let page = query.limit(batch);
    if (last) page = page.startAfter(last);
    else if (start) page = page.startAt(new Timestamp(start.seconds, start.nanos), start.sessionId);
    const snap = await page.get();
    for (const doc of snap.docs) {
      const at = doc.get("capturedAt");
      const ts = at instanceof Timestamp ? at : Timestamp.fromMillis(0);
      yield { report: toReport(doc, uid), position: { seconds: ts.seconds, nanos: ts.nanoseconds, sessionId: doc.id } };
    }
    if (snap.docs.length < batch) return;
    last = snap.docs[snap.docs.length - 1] ?? null;
  }
}
