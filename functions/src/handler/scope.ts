// The handler contract: what every handler (a tool, resource, prompt or HTTP route) receives besides
// its input. Built once per request by http/scope.ts and completed with the caller by the
// credential check; the same scope reaches MCP handlers (mcp/server.ts) and routes. Below mcp/ and
// http/, so both stand on it and neither reaches up to the other for it.
import type { Caller } from "../auth/caller.js";
import { randomUUID } from "node:crypto";
import { log as rootLog, type Logger } from "../core/log.js";

export interface RequestScope {
  /** Cloud Run's trace id when the request carries one, a fresh UUID otherwise; sent back as x-request-id. */
  requestId: string;
  /** The logger of this request (domain and request id on every line). */
  log: Logger;
  /** The client's address as rate limits count it (X-Forwarded-For per TRUSTED_PROXY_HOPS). */
  clientIp: string;
  /** Aborted when the client goes away before the answer is complete (a 2026-07-28 client cancels by aborting). */
  signal: AbortSignal;
  /** The query string of the request URL (for MCP: the URL the client was configured with). */
  query: Record<string, string>;
  /** The authenticated caller; set before any handler runs where the policy requires a credential. */
  caller: Caller | undefined;
}

/** What every handler receives besides its input: the request's scope, and progress reports. */
export interface RequestContext extends RequestScope {
  /** Reports progress to clients that asked for it (no-op otherwise, and for HTTP routes). */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /**
   * What the host gave the domain to run against (its `backend`: fotos' store and capture source),
   * read through the domain's own typed accessor; undefined for a domain that needs none.
   */
  backend?: unknown;
}

/**
 * A request's scope, for every host: the function (http/scope.ts, from the HTTP request), a stdio
 * server (one scope for its process) and the tests. What is not given is the host-less default.
 */
export function newScope(fields: { domain: string } & Partial<Omit<RequestScope, "log">>): RequestScope {
  const { domain, requestId = randomUUID(), ...rest } = fields;
  return {
    requestId,
    log: rootLog.child({ domain, requestId }),
    clientIp: rest.clientIp ?? "local",
    signal: rest.signal ?? new AbortController().signal,
    query: rest.query ?? {},
    caller: rest.caller,
  };
}

/** The context of a handler: the scope, the domain's backend, and how to report progress (none for routes). */
export function handlerContext(scope: RequestScope, backend: unknown, progress: RequestContext["progress"] = async () => undefined, signal = scope.signal): RequestContext {
  return { ...scope, signal, backend, progress };
}

/** The context of a handler behind a policy that requires a credential: the caller is known. */
export type SignedInContext = RequestContext & { caller: Caller };

/** The context as a handler behind a credential-requiring policy sees it; no caller there is a bug of ours (an internal error). */
export function withCaller<C extends RequestContext>(ctx: C): C & { caller: Caller } {
  if (!ctx.caller) throw new Error("a handler for signed-in callers ran without a caller");
  return ctx as C & { caller: Caller };
}
