// DNS-rebinding and cross-site protection with the MCP SDK's validators. Browsers always send
// Origin on cross-origin POSTs, so a page on another site cannot drive a user's MCP endpoint; MCP
// clients outside a browser send none. A route may also accept `Origin: null` (sandboxed iframes
// such as Figma's plugin UI), which the SDK's validator refuses by design.
import type { Request, Response } from "express";
import { localhostAllowedHostnames, validateHostHeader, validateOriginHeader } from "@modelcontextprotocol/server";
import type { AccessPolicy } from "../auth/policy.js";
import { isEmulator } from "../auth/urls.js";
import type { Logger } from "../core/log.js";
import { JSONRPC, sendJsonRpcError } from "./jsonrpc.js";

/**
 * The pipeline's origin step: a request from an origin or Host the policy does not allow is
 * answered 403; an allowed one gets its CORS headers, and a preflight (OPTIONS) its 204 here.
 * Returns whether it answered.
 */
export function refuseOrigin(req: Request, res: Response, policy: AccessPolicy, self: string, log: Logger): boolean {
  const publicDocument = policy.anyOrigin === true && hostAllowed(req);
  if (!publicDocument && (!hostAllowed(req) || !originAllowed(req, { allowNull: policy.allowNullOrigin, selfHost: new URL(self).hostname, cookies: policy.cookies === true }))) {
    log.warn("refused origin", { origin: req.get("origin"), host: req.get("host") });
    sendJsonRpcError(res, 403, JSONRPC.INVALID_REQUEST, "Forbidden: this origin may not call this server.");
    return true;
  }
  res.set(publicDocument ? { "access-control-allow-origin": "*" } : corsHeaders(req));
  if (req.method !== "OPTIONS") return false;
  res.status(204).end();
  return true;
}

/**
 * Hostnames allowed in Origin: ALLOWED_ORIGINS (comma-separated hostnames), plus localhost, except
 * on cookie-bearing pages outside the emulator (see AccessPolicy.cookies).
 */
function allowedOriginHosts(cookies: boolean): string[] {
  const extra = (process.env.ALLOWED_ORIGINS ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  return cookies && !isEmulator() ? extra : [...localhostAllowedHostnames(), ...extra];
}

export function originAllowed(req: Pick<Request, "get">, { allowNull = false, selfHost, cookies = false }: { allowNull?: boolean; selfHost?: string; cookies?: boolean } = {}): boolean {
  const origin = req.get("origin");
  if (allowNull && origin === "null") return true;
  const hosts = allowedOriginHosts(cookies);
  return validateOriginHeader(origin, selfHost ? [...hosts, selfHost] : hosts).ok;
}

/** On the emulator (bound to loopback) the Host header must be a loopback name too. */
export function hostAllowed(req: Request): boolean {
  if (!isEmulator()) return true;
  return validateHostHeader(req.get("host"), localhostAllowedHostnames()).ok;
}

/** CORS headers for an allowed browser origin (e.g. the MCP Inspector's web UI on localhost). */
export function corsHeaders(req: Request): Record<string, string> {
  const origin = req.get("origin");
  if (!origin) return {};
  return {
    "access-control-allow-origin": origin,
    vary: "Origin",
    "access-control-allow-methods": "GET, POST, PUT, DELETE, OPTIONS",
    "access-control-allow-headers": "authorization, content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id",
    "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate, x-request-id, retry-after",
    "access-control-max-age": "600",
  };
}
