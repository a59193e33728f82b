// One request's scope (handler/scope.ts), built once when the request arrives (ids, log, client
// address, the client-gone signal, the query) and completed with the caller once the credential is
// verified. The same scope reaches MCP tools, resources and prompts and the domain's HTTP routes.
import type { Request, Response } from "express";
import { newScope, type RequestScope } from "../handler/scope.js";

export { newScope, withCaller, type RequestContext, type RequestScope, type SignedInContext } from "../handler/scope.js";

/** The scope of a request that has just arrived (no caller yet). */
export function openScope(domain: string, req: Request, res: Response): RequestScope {
  // Cloud Run's trace id when it is one (32 hex digits); the header is client-settable otherwise.
  const trace = (req.get("x-cloud-trace-context") ?? "").split("/")[0] ?? "";
  return newScope({ domain, ...(/^[0-9a-f]{32}$/.test(trace) ? { requestId: trace } : {}), clientIp: clientIp(req), signal: clientGone(req, res), query: queryOf(req) });
}

/**
 * An AbortSignal that fires when the client goes away before the response is complete. The SDK's
 * own signal does not see this in a stateless handler, so MCP handlers get both.
 */
function clientGone(req: Request, res: Response): AbortSignal {
  const controller = new AbortController();
  const abort = () => {
    if (!res.writableFinished && !controller.signal.aborted) controller.abort(new Error("the client closed the request"));
  };
  res.once("close", abort);
  req.once("aborted", abort);
  return controller.signal;
}

function queryOf(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.query ?? {})) if (typeof v === "string") out[k] = v;
  return out;
}

// Google's front end appends the address it received the request from as the last X-Forwarded-For
// entry; entries before it are whatever the client sent and cannot be trusted. Behind another proxy
// of ours (Firebase Hosting, a load balancer), TRUSTED_PROXY_HOPS=1 skips that proxy's address.
function clientIp(req: Request): string {
  const entries = (req.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const hops = Math.max(0, Number(process.env.TRUSTED_PROXY_HOPS ?? 0) || 0);
  return entries[entries.length - 1 - hops] ?? entries[0] ?? req.socket.remoteAddress ?? "unknown";
}
