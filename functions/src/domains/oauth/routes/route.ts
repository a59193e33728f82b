// Every route of the authorization server is open (it is where credentials come from); each
// checks what it needs itself. Token-style endpoints also accept `Origin: null` (the Figma
// plugin's iframe pairs through them).
import { OPEN, type RequestContext } from "../../../mcp/define.js";
import { type HttpReply, type HttpRequest, type HttpRoute } from "../../../http/route.js";

export function route(
  method: HttpRoute["method"],
  path: string,
  handle: (req: HttpRequest, ctx: RequestContext) => Promise<HttpReply>,
  opts: { body?: "json" | "form" | "none"; allowNullOrigin?: boolean; anyOrigin?: boolean } = {},
): HttpRoute {
  // Pages and forms carry the session cookie; token-style endpoints (null origin allowed) and
  // public documents do not.
  const cookies = !opts.allowNullOrigin && !opts.anyOrigin && opts.body !== "json";
  const access = { ...OPEN, allowNullOrigin: opts.allowNullOrigin ?? false, anyOrigin: opts.anyOrigin ?? false, cookies };
  return { method, path, access, body: { type: opts.body ?? "form", maxBytes: 64 * 1024 }, handle };
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
