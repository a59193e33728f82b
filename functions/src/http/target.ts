// What one request is for, looked up once from its method and path: one of the function's routes
// or its MCP endpoint, the policy it is served under and the most bytes it may carry. The body
// guard (body-guard.ts) and the pipeline (endpoint.ts) both ask here.
import type { AccessPolicy } from "../auth/policy.js";
import { OPEN } from "../auth/policy.js";
import type { DomainDefinition } from "../mcp/define.js";
import type { HttpRoute } from "./route.js";
import { servesMcp, type Served } from "./service.js";

/** A request body's limit where neither its route nor its domain states one. */
export const DEFAULT_MAX_BODY = 1024 * 1024;

export type Loader = () => Promise<{ default: Served }>;

/** A function's definition, loaded: its routes, and its MCP domain when it serves one. */
export interface Loaded {
  served: Served;
  mcp: DomainDefinition | undefined;
}

export interface Target {
  /** The route at this path and method (or at this path, for the 405 naming the right method). */
  route: HttpRoute | undefined;
  /** Every route at this path. */
  routes: HttpRoute[];
  /** The function's MCP domain, if it serves one. */
  mcp: DomainDefinition | undefined;
  /** The route's policy, else the MCP endpoint's. */
  policy: AccessPolicy;
  /** The most bytes the request may carry: its route's limit, else the MCP endpoint's. */
  maxBytes: number;
}

/** Imports function `name`'s definition and warms it (its renderer, its models) once. */
export async function prepare(name: string, load: Loader): Promise<Loaded> {
  const { default: served } = await load();
  // The name is the URL and the tokens' audience: a module defining another function is a bug.
  if (served.name !== name) throw new Error(`the function ${name} loaded the definition of "${served.name}": name it "${name}", as its manifest`);
  const mcp = servesMcp(served) ? served : undefined;
  await mcp?.warmup?.();
  return { served, mcp };
}

/** The body guard's question (body-guard.ts), answered from the function's definition once it is loaded. */
export const targetsOf =
  (ready: () => Promise<Loaded>) =>
  async (method: string, path: string): Promise<Target> =>
    targetOf(await ready(), method, path);

export function targetOf({ served, mcp }: Loaded, method: string, path: string): Target {
  const routes = served.routes?.filter((r) => r.path === path) ?? [];
  const route = routes.find((r) => r.method === method) ?? routes[0];
  return {
    route,
    routes,
    mcp,
    policy: route?.access ?? mcp?.access ?? OPEN,
    maxBytes: route ? (route.body?.maxBytes ?? DEFAULT_MAX_BODY) : (mcp?.maxBodyBytes ?? DEFAULT_MAX_BODY),
  };
}
