// Every route of the authorization server is open (it is where credentials come from); each
// checks what it needs itself. Token-style endpoints also accept `Origin: null` (the Figma
// plugin's iframe pairs through them).
import { OPEN, type RequestContext } from "../../../mcp/define.js";
import { type HttpReply, type HttpRequest, type HttpRoute } from "../../../http/route.js";
import { ToolError } from "../../../core/errors.js";
import { errorPage } from "../pages.js";

export function route(
  method: HttpRoute["method"],
  path: string,
  handle: (req: HttpRequest, ctx: RequestContext) => Promise<HttpReply>,
  opts: { body?: "json" | "form" | "none"; allowNullOrigin?: boolean; anyOrigin?: boolean; maxBytes?: number } = {},
): HttpRoute {
  // Pages and forms carry the session cookie; token-style endpoints (null origin allowed) and
  // public documents do not.
  const cookies = !opts.allowNullOrigin && !opts.anyOrigin && opts.body !== "json";
  const access = { ...OPEN, allowNullOrigin: opts.allowNullOrigin ?? false, anyOrigin: opts.anyOrigin ?? false, cookies };
  return { method, path, access, body: { type: opts.body ?? "form", maxBytes: opts.maxBytes ?? 64 * 1024 }, handle: answeringUnavailable(handle, cookies ? "page" : "oauth") };
}

/**
 * A temporary failure (a dependency that did not answer in time, a limiter that cannot count) in
 * the shape the caller reads: a page for a browser, an OAuth error (`temporarily_unavailable`) for
 * a client; 503 with Retry-After and the sentence either way.
 */
function answeringUnavailable(handle: (req: HttpRequest, ctx: RequestContext) => Promise<HttpReply>, as: "page" | "oauth"): (req: HttpRequest, ctx: RequestContext) => Promise<HttpReply> {
  return async (req, ctx) => {
    try {
      return await handle(req, ctx);
    } catch (err) {
      if (!(err instanceof ToolError) || err.kind !== "unavailable") throw err;
      const reply = as === "page" ? errorPage("Temporarily unavailable", err.message, 503) : oauthError(503, "temporarily_unavailable", err.message);
      return err.extra.retryAfterSeconds ? { ...reply, headers: { ...reply.headers, "retry-after": String(err.extra.retryAfterSeconds) } } : reply;
    }
  };
}

export const redirect = (location: string, headers: Record<string, string | string[]> = {}): HttpReply => ({ status: 303, headers: { location, ...headers } });

/** Form fields or JSON members as strings (anything else is ignored). */
export function fields(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (body && typeof body === "object") for (const [k, v] of Object.entries(body)) if (typeof v === "string") out[k] = v;
  return out;
}

/** An OAuth error answer (RFC 6749 §5.2), JSON, never cached. */
export const oauthError = (status: number, error: string, description: string): HttpReply => ({
  status,
  body: { error, error_description: description },
  headers: { "cache-control": "no-store", pragma: "no-cache" },
});

export const noStore = { "cache-control": "no-store", pragma: "no-cache" };
