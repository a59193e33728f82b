// Test data for the dermal domain, written straight to the Firestore emulator (Admin SDK) in the
// layout of docs/dermal.md. Every test file makes its own users, so files never share records.
import { Timestamp } from "firebase-admin/firestore";
import { batchedWriter } from "../../functions/src/platform/firebase.js";
import { adminDb } from "../support/emulators.js";

export const ZONES = ["forehead", "nose", "left_cheek", "right_cheek", "chin", "periorbital"] as const;
export const METRICS = ["acne", "wrinkle_depth", "pigmentation", "redness", "hydration", "pores"] as const;
export type Zone = (typeof ZONES)[number];
export type Metric = (typeof METRICS)[number];

export const DAY = 24 * 60 * 60 * 1000;

/** The score a fixture session i has for a zone/metric: easy to predict, changes by 1 per session. */
export const score = (i: number, zone: Zone, metric: Metric): number =>
  10 + i + ZONES.indexOf(zone) * 2 + METRICS.indexOf(metric) * 3 + (metric === "hydration" ? 0.5 : 0);
export const overall = (i: number): number => 50 + i;

export interface SessionSpec {
  /** when: a Date, or days before now */
  at: Date | number;
  zones?: readonly Zone[];
  status?: "completed" | "processing" | "failed";
  /** document id; default sessionId(uid, i) */
  id?: string;
}

export interface ProfileSpec {
  tier?: string;
  skinType?: string;
  displayName?: string;
  sharedWith?: string[];
  createdAt?: Date;
  lastActiveAt?: Date;
}

export const sessionId = (uid: string, i: number) => `${uid}-s${String(i).padStart(4, "0")}`;

/** Writes a profile (unless `profile` is null) and sessions 0..n-1 (ids sessionId(uid, i) unless given). */
export async function seedUser(uid: string, profile: ProfileSpec | null, sessions: SessionSpec[]): Promise<void> {
  const db = adminDb();
  const user = db.collection("users").doc(uid);
  const writer = batchedWriter(db);
  const put = writer.write;
  if (profile) {
    put((b) =>
      b.set(user, {
        displayName: profile.displayName ?? `Test ${uid}`,
        tier: profile.tier ?? "free",
        skinType: profile.skinType ?? "normal",
        createdAt: Timestamp.fromDate(profile.createdAt ?? new Date(Date.now() - 400 * DAY)),
        lastActiveAt: Timestamp.fromDate(profile.lastActiveAt ?? new Date()),
        sharedWith: profile.sharedWith ?? [],
      }),
    );
  }
  sessions.forEach((s, i) => {
    const id = s.id ?? sessionId(uid, i);
    const at = s.at instanceof Date ? s.at : new Date(Date.now() - s.at * DAY);
    const zones = s.zones ?? ZONES;
    const status = s.status ?? "completed";
    put((b) => b.set(user.collection("sessions").doc(id), { sessionId: id, uid, capturedAt: Timestamp.fromDate(at), zones, status }));
    if (status !== "completed") return;
    const zoneScores = Object.fromEntries(zones.map((z) => [z, Object.fromEntries(METRICS.map((m) => [m, score(i, z, m)]))]));
    put((b) =>
      b.set(user.collection("reports").doc(id), {
        sessionId: id,
        uid,
        capturedAt: Timestamp.fromDate(at),
        analyzedAt: Timestamp.fromDate(new Date(at.getTime() + 60_000)),
        modelVersion: "dermalnet-test-1",
        overallScore: overall(i),
        zones: zoneScores,
        images: [{ view: "front", uri: `gs://test-bucket/users/${uid}/sessions/${id}/front.jpg` }],
      }),
    );
  });
  await writer.commit();
}

/** RFC 4180 parser (quoted fields, doubled quotes, CRLF or LF); throws on malformed input. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        if (i < text.length && !",\r\n".includes(text[i]!)) throw new Error(`malformed CSV at ${i}`);
        continue;
      }
      field += c;
      i++;
      continue;
    }
    if (c === '"') {
      if (field !== "") throw new Error(`stray quote at ${i}`);
      quoted = true;
      i++;
    } else if (c === ",") {
      row.push(field);
      field = "";
      i++;
    } else if (c === "\r" || c === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i += c === "\r" && text[i + 1] === "\n" ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (quoted) throw new Error("unterminated quote");
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  const width = rows[0]?.length ?? 0;
  rows.forEach((r, n) => {
    if (r.length !== width) throw new Error(`row ${n} has ${r.length} fields, header has ${width}`);
  });
  return rows;
}
