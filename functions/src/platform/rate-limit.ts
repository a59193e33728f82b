// Rate limiting shared by every instance, kept in Firestore, over a sliding window: all requests of
// the current fixed window plus the overlapping share of the previous one (so a client cannot get
// twice the limit across a window edge).
//
// Exact under parallel requests without a transaction on one hot document (those queue on its lock
// and time out): each request writes a ticket stamped with its commit time, and its position in
// the window is the number of tickets ordered before it by (commit time, id) — Firestore reads are
// strongly consistent, so every earlier commit is counted. A counter per window, incremented in the same batch, gives the previous window's
// total and lets a flood far over the limit be refused without writing anything.
//
// Keys (client addresses) are hashed: document ids never carry raw addresses. IPv6 clients are
// counted per /64, the block one subscriber usually gets, so rotating addresses does not help.
// A TTL policy on `expiresAt` (firestore.indexes.json) deletes old windows and tickets.
import { createHash } from "node:crypto";
import { isIPv6 } from "node:net";
import { FieldPath, FieldValue, Timestamp } from "firebase-admin/firestore";
import { firestore } from "./firebase.js";

export interface RateLimitOptions {
  /** Namespace of the limit, e.g. "mermaid-api". */
  bucket: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until one more request would be allowed (Retry-After when refused). */
  retryAfterSeconds: number;
}

export const RATE_LIMIT_COLLECTION = "rateLimits";
/** Subcollection of a window's counter holding one ticket per counted request. */
export const TICKETS = "rateLimitTickets";

/** The unit a limit applies to: an IPv4 address, or the /64 of an IPv6 address. */
export function clientKey(address: string): string {
  const ip = address.trim().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip.toLowerCase();
  const [head = "", tail = ""] = ip.toLowerCase().split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = ip.includes("::") ? [...left, ...Array(8 - left.length - right.length).fill("0"), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":")}::/64`;
}

export function rateLimitDocId(bucket: string, key: string, windowStart: number): string {
  const digest = createHash("sha256").update(`${bucket}\u0000${clientKey(key)}`).digest("hex").slice(0, 40);
  return `${bucket.replace(/[^A-Za-z0-9_-]/g, "_")}-${windowStart}-${digest}`;
}

/** Counts one request for `key` and says whether it is within the limit. */
export async function hitRateLimit(key: string, opts: RateLimitOptions, now = Date.now()): Promise<RateLimitDecision> {
  const windowMs = opts.windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const elapsed = (now - windowStart) / windowMs;
  const db = firestore();
  const collection = db.collection(RATE_LIMIT_COLLECTION);
  const current = collection.doc(rateLimitDocId(opts.bucket, key, windowStart));
  const previous = collection.doc(rateLimitDocId(opts.bucket, key, windowStart - windowMs));

  const [cur, prev] = await db.getAll(current, previous);
  const counts = { current: Number(cur?.get("count") ?? 0), previous: Number(prev?.get("count") ?? 0) };
  const decide = (position: number): RateLimitDecision => {
    const used = estimate({ ...counts, current: position }, elapsed);
    const allowed = used <= opts.limit;
    return {
      allowed,
      limit: opts.limit,
      remaining: Math.max(0, Math.floor(opts.limit - used)),
      retryAfterSeconds: allowed ? 0 : secondsUntilAllowed({ ...counts, current: position }, now - windowStart, windowMs, opts.limit),
    };
  };
  // Far over the limit already: refuse without adding to the flood's cost.
  if (estimate(counts, elapsed) >= 2 * opts.limit) return decide(counts.current + 1);

  const expiresAt = Timestamp.fromMillis(windowStart + 2 * windowMs);
  const tickets = current.collection(TICKETS);
  const ticket = tickets.doc();
  const batch = db.batch();
  batch.set(ticket, { at: FieldValue.serverTimestamp(), expiresAt });
  batch.set(current, { bucket: opts.bucket, count: FieldValue.increment(1), windowStart: Timestamp.fromMillis(windowStart), expiresAt }, { merge: true });
  const [written] = await batch.commit();
  // Position = tickets committed before mine, plus those committed at the same instant whose id
  // sorts first (many parallel commits can share a timestamp): a strict order, so no request is
  // refused because of a tie.
  const at = written!.writeTime;
  const [before, tied] = await Promise.all([
    tickets.where("at", "<", at).count().get(),
    tickets.where("at", "==", at).where(FieldPath.documentId(), "<=", ticket).count().get(),
  ]);
  return decide(before.data().count + tied.data().count);
}

/** Requests in the last full window's length: all of this window, the overlapping part of the last. */
function estimate(counts: { current: number; previous: number }, elapsed: number): number {
  return counts.previous * (1 - elapsed) + counts.current;
}

// When will one more request fit, if no other arrives? Within this window the previous window's
// share shrinks; after it, this window's count becomes the shrinking "previous" one.
function secondsUntilAllowed(counts: { current: number; previous: number }, elapsedMs: number, windowMs: number, limit: number): number {
  const room = limit - 1; // the estimate must drop to this for one more request to fit
  let waitMs: number;
  if (counts.current <= room && counts.previous > 0) {
    // previous·(1 − t/W) + current ≤ room  ⇔  t ≥ W·(1 − (room − current)/previous)
    waitMs = windowMs * (1 - (room - counts.current) / counts.previous) - elapsedMs;
  } else {
    // Next window: current·(1 − t/W) ≤ room  ⇔  t ≥ W·(1 − room/current)
    waitMs = windowMs - elapsedMs + windowMs * Math.max(0, 1 - room / counts.current);
  }
  return Math.max(1, Math.ceil(waitMs / 1000));
}

/** Whether a failure means Firestore could not be reached (as opposed to a bug or a refusal). */
export function firestoreUnreachable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === GRPC_DEADLINE_EXCEEDED || code === GRPC_UNAVAILABLE;
}
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;
