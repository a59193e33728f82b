// Per-address (and per-account) limits on the endpoints anyone can call without signing in, so
// that guessing passwords, sending sign-in emails or filling Firestore costs an attacker time.
// OAUTH_IP_LIMIT_SCALE multiplies the per-address limits (the test suite signs in hundreds of
// users from one address); per-account limits are never scaled.
import type { HttpRequest } from "../../http/route.js";
import { envNumber } from "../../core/env.js";
import { hitRateLimit } from "../../platform/rate-limit.js";

const IP_SCALE = envNumber("OAUTH_IP_LIMIT_SCALE", 1, { min: 1 });

/** Seconds to wait when over the limit, undefined when allowed (or the limiter is unreachable). */
export async function limited(req: HttpRequest, bucket: string, limit: number, windowSeconds: number, account?: string): Promise<number | undefined> {
  const key = account ?? req.clientIp;
  const max = account === undefined ? limit * IP_SCALE : limit;
  const decision = await hitRateLimit(key, { bucket: `oauth-${bucket}`, limit: max, windowSeconds }).catch(() => undefined);
  return decision && !decision.allowed ? decision.retryAfterSeconds : undefined;
}
