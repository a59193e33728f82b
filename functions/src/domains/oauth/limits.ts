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
import { hitRateLimit, peekRateLimit, type RateLimitDecision } from "../../platform/rate-limit.js";

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

async function decide(run: () => Promise<RateLimitDecision>): Promise<number | undefined> {
  let decision: RateLimitDecision;
  try {
    // Firestore's deadline (platform/deadline.ts) bounds the whole decision, not each of its reads.
    decision = await callDependency(BUDGETS.firestore, run);
  } catch {
    throw new ToolError("unavailable", `Sign-in is briefly unavailable: try again in ${RETRY_SECONDS} seconds`, { retryAfterSeconds: RETRY_SECONDS });
  }
  return decision.allowed ? undefined : decision.retryAfterSeconds;
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

/** Without counting: the seconds to wait when any limit is already used up, else undefined. */
export async function exhausted(req: HttpRequest, ...limits: Limit[]): Promise<number | undefined> {
  const waits = await Promise.all(limits.map((l) => {
    const { key, opts } = options(req, l);
    return decide(() => peekRateLimit(key, opts));
  }));
  return waits.find((w) => w !== undefined);
}

/** Counts one failure against every limit (wrong codes, wrong passwords). */
export async function countFailure(req: HttpRequest, ...limits: Limit[]): Promise<void> {
  await Promise.all(limits.map((l) => {
    const { key, opts } = options(req, l);
    return decide(() => hitRateLimit(key, opts));
  }));
}

/** "45 seconds", "3 minutes", "2 hours": when to try again, in a sentence. */
export function waitText(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? "" : "s"}`;
  if (seconds < 90 * 60) return `${Math.ceil(seconds / 60)} minutes`;
  return `${Math.ceil(seconds / 3600)} hours`;
}
