// Rate limiting shared by every instance, kept in Firestore, over a sliding window: the requests
// served in the current fixed window plus the overlapping share of the previous one (so a client
// cannot get twice the limit across a window edge).
//
// Exact under any burst, whatever the clock or the load: a served request is one claimed slot.
// Slots are documents numbered 1…limit under the window's counter, claimed with create() (which
// fails if the slot exists), so two requests can never hold the same slot, and a request is
// refused only after it has seen every slot it may use taken. No transaction on a hot document
// (those queue on its lock and time out), and no ordering by timestamps (the emulator stamps
// server timestamps at arrival, not at commit, which made an earlier design refuse well below the
// limit under contention). The counter (incremented with each claim) gives the window's total
// and lets a full window refuse with one read and no write.
//
// Keys (client addresses) are hashed: document ids never carry raw addresses. IPv6 clients are
// counted per /64, the block one subscriber usually gets, so rotating addresses does not help.
// A TTL policy on `expiresAt` (firestore.indexes.json) deletes old windows and slots.
//
// Each instance remembers its refusals until the moment they end: a client over its limit is
// refused again at once, without Firestore (rememberedRefusal lets a caller skip work up front).
// Exact against the counting, not an estimate: until then no request can fit whatever else
// arrives, since more requests only push that moment later. (Deleting a window's documents by hand
// to lift a block takes effect on an instance once its remembered refusal ends.)
import { createHash } from "node:crypto";
import { isIPv6 } from "node:net";
import { FieldValue, Timestamp } from "firebase-admin/firestore";
import { DependencyUnavailable } from "./deadline.js";
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
  /** The slot an allowed request holds, for releaseRateLimit. */
  ticket?: RateLimitTicket;
}

/** Where an allowed request's slot is: its window's counter and the slot's number. */
export interface RateLimitTicket {
  window: string;
  slot: number;
}

export const RATE_LIMIT_COLLECTION = "rateLimits";
/** Subcollection of a window's counter holding one slot per served request (ids s1…s<limit>). */
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

/** Refusals this instance has seen, by bucket, limit and client: until when they hold (epoch ms). */
const refusedUntil = new Map<string, number>();
const REMEMBERED_MAX = 10_000;
const memoKey = (key: string, opts: RateLimitOptions) => `${opts.bucket}\u0000${opts.limit}/${opts.windowSeconds}\u0000${clientKey(key)}`;

/** The refusal `key` is known to get now (no Firestore read), or undefined: ask hitRateLimit. */
export function rememberedRefusal(key: string, opts: RateLimitOptions, now = Date.now()): RateLimitDecision | undefined {
  const id = memoKey(key, opts);
  const until = refusedUntil.get(id);
  if (until === undefined) return undefined;
  if (until <= now) {
    refusedUntil.delete(id);
    return undefined;
  }
  return { allowed: false, limit: opts.limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)) };
}

function remember(id: string, until: number, now: number): void {
  if (refusedUntil.size >= REMEMBERED_MAX) {
    for (const [k, t] of refusedUntil) if (t <= now) refusedUntil.delete(k);
    // Still full: the oldest entries go (forgetting only costs a Firestore read).
    for (const k of refusedUntil.keys()) {
      if (refusedUntil.size < REMEMBERED_MAX) break;
      refusedUntil.delete(k);
    }
  }
  refusedUntil.delete(id); // re-inserted last: the map's order is the age of its entries
  refusedUntil.set(id, until);
}

/** Counts one request for `key` and says whether it is within the limit. */
export async function hitRateLimit(key: string, opts: RateLimitOptions, now = Date.now()): Promise<RateLimitDecision> {
  const known = rememberedRefusal(key, opts, now);
  if (known) return known;
  const windowMs = opts.windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const elapsed = (now - windowStart) / windowMs;
  const db = firestore();
  const collection = db.collection(RATE_LIMIT_COLLECTION);
  const current = collection.doc(rateLimitDocId(opts.bucket, key, windowStart));
  const previous = collection.doc(rateLimitDocId(opts.bucket, key, windowStart - windowMs));
  const slots = current.collection(TICKETS);

  const [cur, prev] = await db.getAll(current, previous);
  const previousCount = Number(prev?.get("count") ?? 0);
  // Slots usable now: the previous window's overlapping share takes the rest.
  const capacity = Math.max(0, Math.min(opts.limit, Math.floor(opts.limit - previousCount * (1 - elapsed) + 1e-9)));
  const refuse = (served: number): RateLimitDecision => {
    const waitMs = msUntilAllowed({ current: served, previous: previousCount }, now - windowStart, windowMs, opts.limit);
    remember(memoKey(key, opts), now + waitMs, now);
    return { allowed: false, limit: opts.limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  };
  /** `used`: the slots known taken, this request's included. */
  const allow = (used: number, slot: number): RateLimitDecision => ({
    allowed: true,
    limit: opts.limit,
    remaining: Math.max(0, capacity - used),
    retryAfterSeconds: 0,
    ticket: { window: current.path, slot },
  });

  const served = Number(cur?.get("count") ?? 0);
  if (served >= capacity) return refuse(served);

  const expiresAt = Timestamp.fromMillis(windowStart + 2 * windowMs);
  const claim = async (slot: number): Promise<boolean> => {
    const batch = db.batch();
    batch.create(slots.doc(`s${slot}`), { expiresAt });
    batch.set(current, { bucket: opts.bucket, count: FieldValue.increment(1), windowStart: Timestamp.fromMillis(windowStart), expiresAt }, { merge: true });
    try {
      await batch.commit();
      return true;
    } catch (err) {
      if ((err as { code?: unknown }).code === GRPC_ALREADY_EXISTS) return false;
      throw err;
    }
  };

  // Sequential traffic: the next slot is free, one write.
  if (await claim(served + 1)) return allow(served + 1, served + 1);
  // A burst: others read the same count and took that slot. Claim a random slot above the count
  // (where the free ones usually are), re-reading only the counter between tries; every fourth
  // miss, list the taken slots (a crowded window). Parallel requests rarely collide, and a hot
  // client costs a few small reads per request, not a listing of the whole window. Slots are
  // never freed within a window, so a failed claim means that slot is taken for good: this ends
  // with a slot, or refused once the exact counter is full or every usable slot was seen taken.
  const taken = new Set([served + 1]);
  let count = served;
  for (let misses = 0; ; misses++) {
    if (misses % 4 === 3) for (const d of (await slots.select().get()).docs) taken.add(Number(d.id.slice(1)));
    else if (misses > 0) count = Number((await current.get()).get("count") ?? 0);
    if (count >= capacity) return refuse(count);
    const free = range(capacity).filter((n) => !taken.has(n));
    if (!free.length) return refuse(capacity);
    const above = free.filter((n) => n > count);
    const candidates = above.length ? above : free;
    const slot = candidates[Math.floor(Math.random() * candidates.length)]!;
    if (await claim(slot)) return allow(Math.max(count, taken.size) + 1, slot);
    taken.add(slot);
  }
}

/**
 * Hands a counted request's slot back: for limits that count only failures, each attempt is counted
 * before it is made (so a burst cannot get more tries than the limit) and released when it
 * succeeds. A released slot can be claimed again by exactly one request (create() still decides);
 * a request that saw it taken a moment earlier may refuse, never over-admit.
 */
export async function releaseRateLimit(ticket: RateLimitTicket): Promise<void> {
  const db = firestore();
  const current = db.doc(ticket.window);
  const batch = db.batch();
  batch.delete(current.collection(TICKETS).doc(`s${ticket.slot}`));
  batch.update(current, { count: FieldValue.increment(-1) });
  await batch.commit();
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);
const GRPC_ALREADY_EXISTS = 6;

// When will one more request fit, if no other arrives? Within this window the previous window's
// share shrinks; after it, this window's count becomes the shrinking "previous" one.
function msUntilAllowed(counts: { current: number; previous: number }, elapsedMs: number, windowMs: number, limit: number): number {
  const room = limit - 1; // the estimate must drop to this for one more request to fit
  let waitMs: number;
  if (counts.current <= room && counts.previous > 0) {
    // previous·(1 − t/W) + current ≤ room  ⇔  t ≥ W·(1 − (room − current)/previous)
    waitMs = windowMs * (1 - (room - counts.current) / counts.previous) - elapsedMs;
  } else {
    // Next window: current·(1 − t/W) ≤ room  ⇔  t ≥ W·(1 − room/current)
    waitMs = windowMs - elapsedMs + windowMs * Math.max(0, 1 - room / counts.current);
  }
  return Math.max(0, waitMs);
}

/** Whether a failure means Firestore could not be reached or did not answer in time (as opposed to a bug or a refusal). */
export function firestoreUnreachable(err: unknown): boolean {
  if (err instanceof DependencyUnavailable) return err.dependency === "firestore";
  const code = (err as { code?: unknown } | null)?.code;
  return code === GRPC_DEADLINE_EXCEEDED || code === GRPC_UNAVAILABLE;
}
const GRPC_DEADLINE_EXCEEDED = 4;
const GRPC_UNAVAILABLE = 14;
