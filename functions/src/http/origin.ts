// DNS-rebinding and cross-site protection. Browsers always send Origin on cross-origin POSTs, so a
// page on another site cannot drive a user's MCP endpoint; MCP clients outside a browser send none.
import type { Request } from "express";

const LOCAL_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

/** Hostnames allowed in Origin: localhost plus ALLOWED_ORIGINS (comma-separated hostnames). */
function allowedOriginHosts(): string[] {
  const extra = (process.env.ALLOWED_ORIGINS ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  return [...LOCAL_HOSTS, ...extra];
}

export function originAllowed(req: Request): boolean {
  const origin = req.get("origin");
  if (!origin) return true;
  try {
    return allowedOriginHosts().includes(new URL(origin).hostname.toLowerCase());
  } catch {
    return false;
  }
}

/** On the emulator (bound to loopback) the Host header must be a loopback name too. */
export function hostAllowed(req: Request): boolean {
  if (process.env.FUNCTIONS_EMULATOR !== "true") return true;
  const host = (req.get("host") ?? "").toLowerCase().replace(/:\d+$/, "");
  return LOCAL_HOSTS.includes(host);
}

/** CORS headers for an allowed browser origin (e.g. the MCP Inspector's web UI on localhost). */
export function corsHeaders(req: Request): Record<string, string> {
  const origin = req.get("origin");
  if (!origin) return {};
  return {
    "access-control-allow-origin": origin,
    vary: "Origin",
    "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
    "access-control-allow-headers": "authorization, content-type, accept, mcp-protocol-version, mcp-session-id, mcp-method, mcp-name, last-event-id",
    "access-control-expose-headers": "mcp-session-id, mcp-protocol-version, www-authenticate, x-request-id",
    "access-control-max-age": "600",
  };
}
