// Fixed-window rate limiting shared by every instance: one Firestore document per client key and
// window, incremented in a transaction, so the limit holds however many instances serve traffic.
// Keys (client IPs) are hashed: document ids never carry raw addresses ("/" in IPv6 zones,
// personal data in ids). Old windows are inert; a TTL policy on `expiresAt` deletes them.
import { createHash } from "node:crypto";
import { Timestamp } from "firebase-admin/firestore";
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
  /** Seconds until the current window ends (what Retry-After says when refused). */
  retryAfterSeconds: number;
}

export const RATE_LIMIT_COLLECTION = "rateLimits";

export function rateLimitDocId(bucket: string, key: string, windowStart: number): string {
  const digest = createHash("sha256").update(`${bucket}\u0000${key}`).digest("hex").slice(0, 40);
  return `${bucket.replace(/[^A-Za-z0-9_-]/g, "_")}-${windowStart}-${digest}`;
}

/** Counts one request for `key`; says whether it is within the limit. */
export async function hitRateLimit(key: string, opts: RateLimitOptions, now = Date.now()): Promise<RateLimitDecision> {
  const windowMs = opts.windowSeconds * 1000;
  const windowStart = Math.floor(now / windowMs) * windowMs;
  const windowEnd = windowStart + windowMs;
  const retryAfterSeconds = Math.max(1, Math.ceil((windowEnd - now) / 1000));
  const db = firestore();
  const ref = db.collection(RATE_LIMIT_COLLECTION).doc(rateLimitDocId(opts.bucket, key, windowStart));
  const count = await db.runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    const current = Number(snap.get("count") ?? 0);
    if (current >= opts.limit) return current + 1;
    tx.set(ref, {
      bucket: opts.bucket,
      count: current + 1,
      windowStart: Timestamp.fromMillis(windowStart),
      expiresAt: Timestamp.fromMillis(windowEnd + windowMs),
    });
    return current + 1;
  });
  return { allowed: count <= opts.limit, limit: opts.limit, remaining: Math.max(0, opts.limit - count), retryAfterSeconds };
}
