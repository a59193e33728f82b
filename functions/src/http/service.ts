// A function that serves HTTP routes only, no MCP: the OAuth authorization server. It is not a
// domain without tools: it has no MCP endpoint, no access policy of its own and no
// protected-resource metadata; each of its routes states its own policy.
import type { DomainDefinition } from "../mcp/define.js";
import type { HttpRoute } from "./route.js";

export interface RouteService {
  kind: "routes";
  /** The function's name, e.g. "oauth". */
  name: string;
  title: string;
  description: string;
  routes: HttpRoute[];
  /** Whether this instance can serve right now; `/healthz` answers 503 with the reason when not. */
  health?(): { ok: true } | { ok: false; reason: string };
}

export const defineService = (service: Omit<RouteService, "kind">): RouteService => ({ kind: "routes", ...service });

/** What one function serves: an MCP domain (with its routes), or routes only. */
export type Served = DomainDefinition | RouteService;

export const servesMcp = (served: Served): served is DomainDefinition => !("kind" in served && served.kind === "routes");
