// One HTTPS function: MCP (Streamable HTTP, stateless) at its root, /healthz, and the domain's
// own routes. `serveDomain` is the request pipeline, read top to bottom: each step is done once,
// in this order, by a small function in its own file.
import type { Request, Response } from "express";
import { functionUrl } from "../auth/urls.js";
import { INTERNAL_ERROR_TEXT } from "../core/errors.js";
import { log as rootLog } from "../core/log.js";
import { manifestOf } from "../core/manifest.js";
import { servedFunction } from "../core/where.js";
import { withRequestDeadline } from "../platform/deadline.js";
import { answerResourceMetadata, authenticate, needsCredential } from "./authenticate.js";
import { guardBodies, refuseOversized, requestPath } from "./body-guard.js";
import { gateFor, sharesFor } from "./capacity.js";
import { warmUp, withinGate } from "./guards.js";
import { answerHealth, isHealthCheck } from "./health.js";
import { sendJson, sendJsonRpcError } from "./jsonrpc.js";
import { refuseOrigin } from "./origin.js";
import { openScope } from "./scope.js";
import { serveMcp } from "./serve-mcp.js";
import { serveRoute } from "./serve-route.js";
import { claimShare } from "./share.js";
import { prepare, targetOf, targetsOf, type Loaded, type Loader } from "./target.js";

export type { Loader } from "./target.js";

/**
 * The request handler of function `name`. Its definition is imported on first use (so a function
 * loads only its own domain), or right away when this process serves that function.
 */
export function serveDomain(name: string, load: Loader): (req: Request, res: Response) => Promise<void> {
  const ready = loadOnce(name, load);
  const gate = gateFor(name);
  const shares = sharesFor(name);
  const timeoutSeconds = manifestOf(name)?.serving.timeoutSeconds ?? 60;
  // Bodies over their limit are refused before they are read (body-guard.ts), with this function's limits.
  const guarded = guardBodies(name, targetsOf(ready));
  // Cloud Run / the emulator tell a process which function it serves: warm up before traffic.
  if (servedFunction() === name) {
    warmUp(gate, ready).catch((err: unknown) => rootLog.error("warm-up failed; the next request retries", { domain: name, err }));
  }

  return async (req, res) => {
    leaveFrameworkDomain();
    // The request's scope (id, log, client address, client-gone signal, query), built once.
    const scope = openScope(name, req, res);
    res.set("x-request-id", scope.requestId);
    try {
      // 1. Path, and what it is for (a route or the MCP endpoint, its policy and body limit): found
      //    once, by the body guard for a request with a body, else here.
      const seen = guarded(req);
      const path = seen?.path ?? requestPath(req);
      const loaded = await ready();
      const target = seen?.found ?? targetOf(loaded, req.method, path);
      // 2. Size: settled by the body guard before the body was read; measured here only where no guard ran.
      if (!seen && refuseOversized(req, res, target.maxBytes)) return;
      // 3. Origin: the public metadata document first, then Origin/Host, CORS and preflights.
      const self = functionUrl(name, req.headers);
      if (answerResourceMetadata(req, res, target, path, self)) return;
      if (refuseOrigin(req, res, target.policy, self, scope.log)) return;
      // 4. Health: never waits in the gate; it must answer while the instance is busy.
      if (isHealthCheck(req, path)) return await answerHealth(res, loaded, scope.log);
      // 5. Gate: a bounded number in flight, every dependency call bounded by the function's timeout.
      await withinGate(gate, name, res, scope.signal, () =>
        withRequestDeadline({ timeoutSeconds, signal: scope.signal, log: scope.log }, async () => {
          // 6. Credential (the caller into the scope), then the caller's fair share of the gate.
          if (needsCredential(req, target, path)) {
            if (!(await authenticate(req, res, target.policy, self, scope, path))) return;
            if (!claimShare(shares, name, scope.caller!, res)) return;
          }
          // 7. Dispatch: the route, else MCP at the root.
          if (target.route) return serveRoute(req, res, target.route, target, path, scope, self);
          if (!target.mcp) return sendJson(res, 404, { error: `No such endpoint: ${path}.` });
          return serveMcp(req, res, target.mcp, path, scope);
        }),
      );
    } catch (err) {
      scope.log.error("request failed", { err, path: req.path });
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, `${INTERNAL_ERROR_TEXT} (request id ${scope.requestId}).`);
    }
  };
}

/** The function's definition, loaded once; a failed load is retried by the next request rather than remembered. */
function loadOnce(name: string, load: Loader): () => Promise<Loaded> {
  let loading: Promise<Loaded> | undefined;
  return () =>
    (loading ??= prepare(name, load).catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}

/**
 * The functions framework (Cloud Run's Node runtime; 5.0.5 here) runs each request inside a
 * `node:domain`, the deprecated way to catch a request's uncaught errors. While a domain is active
 * Node tags every promise and callback with it and enters and leaves it around each one, a large
 * share of a short call's CPU (bench/load.ts shows CPU per call; docs/reliability.md).
 * This handler catches its own errors (a 500 with the request id) and promise rejections are
 * caught as before, so it leaves the domain first. The price: an exception thrown outside any
 * promise (a bug in a timer or event callback) is no longer confined to its request; it reaches
 * the framework's process-wide handler, which exits, cutting off the instance's requests in
 * flight, and Cloud Run starts a new instance. Node's advice after an uncaught exception is that
 * restart. (No domain on the Functions emulator; a framework without one makes this a no-op.)
 */
function leaveFrameworkDomain(): void {
  (process as { domain?: { exit(): void } | null }).domain?.exit();
}
