// Per-address (and per-account) limits on the endpoints anyone can call without signing in, so
// that guessing passwords, sending sign-in emails or filling Firestore costs an attacker time.
import type { HttpRequest } from "../../mcp/define.js";
import { hitRateLimit } from "../../platform/rate-limit.js";

/** Seconds to wait when over the limit, undefined when allowed (or the limiter is unreachable). */
export async function limited(req: HttpRequest, bucket: string, limit: number, windowSeconds: number, key = req.clientIp): Promise<number | undefined> {
  const decision = await hitRateLimit(key, { bucket: `oauth-${bucket}`, limit, windowSeconds }).catch(() => undefined);
  return decision && !decision.allowed ? decision.retryAfterSeconds : undefined;
}
