// Per-address and per-account limits on the endpoints anyone can call without signing in, so
// that guessing passwords or device codes, sending sign-in emails or filling Firestore costs an
// attacker time. They fail closed: when the limiter cannot be reached the request is refused with
// 503 and Retry-After, never let through uncounted.
// OAUTH_IP_LIMIT_SCALE multiplies the per-address request limits (the test suite signs in hundreds
// of users from one address); per-account limits and failure limits are never scaled.
import type { HttpRequest } from "../../http/route.js";
import { envNumber } from "../../core/env.js";
import { ToolError } from "../../core/errors.js";
import { BUDGETS, callDependency } from "../../platform/deadline.js";
import { clientKey, hitRateLimit, releaseRateLimit, type RateLimitDecision, type RateLimitTicket } from "../../platform/rate-limit.js";

const IP_SCALE = envNumber("OAUTH_IP_LIMIT_SCALE", 1, { min: 1 });
const RETRY_SECONDS = 30;

export interface Limit {
  bucket: string;
  limit: number;
  windowSeconds: number;
  /** What is counted: the client's address (default) or another key (an account, a person). */
  key?: string;
  /** Per-address limits are scaled by OAUTH_IP_LIMIT_SCALE unless false. */
  scaled?: boolean;
}

const options = (req: HttpRequest, l: Limit) => ({
  key: l.key ?? req.clientIp,
  opts: { bucket: `oauth-${l.bucket}`, limit: l.key === undefined && l.scaled !== false ? l.limit * IP_SCALE : l.limit, windowSeconds: l.windowSeconds },
});

/** The unit per-address limits count, for keys that combine it with something else: IPv6 by /64. */
export const addressOf = (req: HttpRequest): string => clientKey(req.clientIp);

async function decision(run: () => Promise<RateLimitDecision>): Promise<RateLimitDecision> {
  try {
    // Firestore's deadline (platform/deadline.ts) bounds the whole decision, not each of its reads.
    return await callDependency(BUDGETS.firestore, run);
  } catch {
    throw new ToolError("unavailable", `Sign-in is briefly unavailable: try again in ${RETRY_SECONDS} seconds`, { retryAfterSeconds: RETRY_SECONDS });
  }
}

async function decide(run: () => Promise<RateLimitDecision>): Promise<number | undefined> {
  const d = await decision(run);
  return d.allowed ? undefined : d.retryAfterSeconds;
}

/** Counts one request; the seconds to wait when over a limit (the first limit that refuses), else undefined. */
export async function limited(req: HttpRequest, ...limits: Limit[]): Promise<number | undefined> {
  for (const l of limits) {
    const { key, opts } = options(req, l);
    const wait = await decide(() => hitRateLimit(key, opts));
    if (wait) return wait;
  }
  return undefined;
}

/** An attempt counted against limits of failures: `succeeded()` hands its count back. */
export type Attempt = { wait: number } | { succeeded: () => Promise<void> };

/**
 * Counts an attempt against limits that count only failures (wrong passwords, wrong codes) before
 * it is made, so a burst of parallel attempts gets no more tries than the limit; a success gives
 * its count back. Over a limit: the seconds to wait, and nothing stays counted.
 */
export async function attempt(req: HttpRequest, ...limits: Limit[]): Promise<Attempt> {
  const tickets: RateLimitTicket[] = [];
  const release = () => Promise.all(tickets.map((t) => releaseRateLimit(t))).then(() => undefined, () => undefined);
  for (const l of limits) {
    const { key, opts } = options(req, l);
    let d: RateLimitDecision;
    try {
      d = await decision(() => hitRateLimit(key, opts));
    } catch (err) {
      await release();
      throw err;
    }
    if (!d.allowed) {
      await release();
      return { wait: d.retryAfterSeconds };
    }
    if (d.ticket) tickets.push(d.ticket);
  }
  return { succeeded: release };
}

/** "45 seconds", "3 minutes", "2 hours": when to try again, in a sentence. */
export function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  if (seconds < 90 * 60) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}
