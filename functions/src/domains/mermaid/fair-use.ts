// Fair use of the open MCP endpoint: generous, per client, across instances. The same Firestore
// limiter as the HTTP API (platform/rate-limit.ts), in its own bucket: MERMAID_MCP_LIMIT tool
// calls (default 1,000) per hour per client address. Counted while the diagram is drawn, so an
// allowed call waits for nothing; a refused one has its render cancelled and gets an explicit
// error with the wait. If Firestore cannot be reached, or does not answer within the fair-use
// budget (platform/deadline.ts, well under a second), the call is allowed (logged): the limiter
// protects capacity and must not take the renderer down with it. A call the renderer refuses at
// once (busy) is answered before anything is counted: it costs the caller nothing and costs no
// Firestore round trip when the instance can least afford one. A client this instance already
// refused is refused again before anything is drawn or read, until its wait is over.
import type { RequestContext } from "../../mcp/define.js";
import { envNumber } from "../../core/env.js";
import { rateLimited } from "../../core/errors.js";
import { BUDGETS, callDependency } from "../../platform/deadline.js";
import { firestoreUnreachable, hitRateLimit, rememberedRefusal, type RateLimitDecision } from "../../platform/rate-limit.js";
import { rendererRefusal } from "./core/service.js";

export const MCP_LIMIT = Math.floor(envNumber("MERMAID_MCP_LIMIT", 1_000, { min: 1 }));
const LIMIT = { bucket: "mermaid-mcp", limit: MCP_LIMIT, windowSeconds: 3600 };

const overLimit = (decision: RateLimitDecision) =>
  rateLimited(
    `Fair-use limit reached: at most ${MCP_LIMIT.toLocaleString("en-US")} diagram calls per hour per client on this open server. Try again in ${decision.retryAfterSeconds} seconds`,
    decision.retryAfterSeconds,
  );

async function check(ctx: RequestContext): Promise<void> {
  if (!ctx.clientIp) return;
  let decision;
  try {
    decision = await callDependency(BUDGETS.fairUse, () => hitRateLimit(ctx.clientIp, LIMIT));
  } catch (err) {
    if (!firestoreUnreachable(err)) throw err;
    ctx.log.warn("rate limiter unavailable; MCP call allowed", { err });
    return;
  }
  if (!decision.allowed) throw overLimit(decision);
}

/**
 * Runs `work` (given a signal that also fires if the caller is over the limit) beside the fair-use
 * check; answers with the work's result only once the check has passed.
 */
export async function withFairUse<T>(ctx: RequestContext, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const known = ctx.clientIp ? rememberedRefusal(ctx.clientIp, LIMIT) : undefined;
  if (known) throw overLimit(known);
  const refusal = rendererRefusal();
  if (refusal) throw refusal;
  const refused = new AbortController();
  const signal = AbortSignal.any([ctx.signal, refused.signal]);
  const allowed = check(ctx).catch((err: unknown) => {
    refused.abort();
    throw err;
  });
  const result = work(signal);
  // If the check fails, its error is the answer (the work was cancelled and its rejection is moot).
  result.catch(() => undefined);
  await allowed;
  return result;
}
