// One HTTPS function per domain: MCP (Streamable HTTP, stateless) at the function's root,
// /healthz, and the domain's own routes. Everything a domain shares is here: the request's scope
// (http/scope.ts), Origin/Host checks, body limits, malformed JSON-RPC, authentication, logging.
import type { Request, Response } from "express";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { bearerAuthChallengeResponse, OAuthError, OAuthErrorCode, verifyBearerToken } from "@modelcontextprotocol/server";
import type { Caller } from "../auth/caller.js";
import { protectedResourceMetadata } from "../auth/metadata.js";
import { isOpen, OPEN, type AccessPolicy } from "../auth/policy.js";
import { functionUrl, issuerUrl } from "../auth/urls.js";
import { CallerVerifier } from "../auth/verify.js";
import type { DomainDefinition } from "../mcp/define.js";
import { asToolError, INTERNAL_ERROR_TEXT } from "../core/errors.js";
import { log as rootLog } from "../core/log.js";
import { createServer, PACKAGE_VERSION } from "../mcp/server.js";
import { JSONRPC, sendJson, sendJsonRpcError } from "./jsonrpc.js";
import { corsHeaders, hostAllowed, originAllowed } from "./origin.js";
import { gateFor, sharesFor } from "./capacity.js";
import { claimShare, type PersonShares } from "./share.js";
import { manifestOf } from "../core/manifest.js";
import { DEPENDENCY_RETRY_AFTER_SECONDS, dependencyTrouble, probeTrouble, withRequestDeadline } from "../platform/deadline.js";
import { refuseDeepJson, warmUp, withinGate } from "./guards.js";
import { refuseInvalidParams } from "./initialize.js";
import type { HttpReply } from "./route.js";
import { servesMcp, type Served } from "./service.js";
import { handlerContext } from "../handler/scope.js";
import { isHealthCheck, openScope, requestPath, type RequestScope } from "./scope.js";
import { WELL_KNOWN } from "../contracts/oauth.js";
import { guardBodies, tooLargeSentence } from "./body-guard.js";

const DEFAULT_MAX_BODY = 1024 * 1024;

export type Loader = () => Promise<{ default: Served }>;

interface Loaded {
  domain: Served;
  maxBody: number;
}

/**
 * The request handler for a domain's function. The domain module is imported on first use (so a
 * function loads only its own domain), or right away when this process serves that function.
 */
export function serveDomain(name: string, load: Loader): (req: Request, res: Response) => Promise<void> {
  let loading: Promise<Loaded> | undefined;
  // A failed load is retried by the next request rather than remembered.
  const ready = () =>
    (loading ??= prepare(name, load).catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  const gate = gateFor(name);
  const shares = sharesFor(name);
  guardBodies(name, async (method, path) => bodyLimit(await ready(), method, path));
  // Cloud Run / the emulator tell a process which function it serves: warm up before traffic.
  if (process.env.FUNCTION_TARGET === name || process.env.K_SERVICE === name) {
    warmUp(gate, ready).catch((err: unknown) => rootLog.error("warm-up failed; the next request retries", { domain: name, err }));
  }

  return async (req, res) => {
    leaveFrameworkDomain();
    const scope = openScope(name, req, res);
    res.set("x-request-id", scope.requestId);
    // The path and whether this is an uptime check, read once for every step below.
    const path = requestPath(req);
    const health = isHealthCheck(req.method, path);
    const serve = async () => handle(req, res, await ready(), scope, path, health, shares);
    try {
      // An uptime check never waits in the gate: it must answer while the instance is loaded (and
      // says "ok" then: busy is not broken).
      // Every dependency call of the request is bounded by its function's timeout (platform/deadline.ts).
      const bounded = () => withRequestDeadline({ timeoutSeconds: manifestOf(name)?.serving.timeoutSeconds ?? 60, signal: scope.signal, log: scope.log }, serve);
      await (health ? serve() : withinGate(gate, name, res, scope.signal, bounded));
    } catch (err) {
      scope.log.error("request failed", { err, path: req.path });
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, `${INTERNAL_ERROR_TEXT} (request id ${scope.requestId}).`);
    }
  };
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

async function prepare(name: string, load: Loader): Promise<Loaded> {
  const { default: domain } = await load();
  // The name is the URL and the tokens' audience: a module defining another function is a bug.
  if (domain.name !== name) throw new Error(`the function ${name} loaded the definition of "${domain.name}": name it "${name}", as its manifest`);
  if (!servesMcp(domain)) return { domain, maxBody: DEFAULT_MAX_BODY };
  await domain.warmup?.();
  return { domain, maxBody: domain.maxBodyBytes ?? DEFAULT_MAX_BODY };
}

/**
 * Serves one MCP request with a server built for it, bound to its scope. The SDK's handler is
 * built per request too (cheap: closures only), so the scope reaches the server directly.
 */
async function serveMcp(req: Request, res: Response, domain: DomainDefinition, maxBody: number, scope: RequestScope, body: unknown): Promise<void> {
  await toNodeHandler(mcpHandler(domain, () => scope, maxBody), { maxRequestBodySize: maxBody })(req as never, res as never, body);
}

/** The SDK's stateless handler (both eras) for a domain: a server per request, built for `scopeOf()`. */
export function mcpHandler(domain: DomainDefinition, scopeOf: () => RequestScope, maxBody = DEFAULT_MAX_BODY): ReturnType<typeof createMcpHandler> {
  return createMcpHandler(() => createServer(domain, scopeOf()).server, {
    legacy: "stateless",
    maxRequestBodySize: maxBody,
    onerror: (err) => rootLog.warn("mcp transport error", { domain: domain.name, error: err.message }),
  });
}

/** The most bytes a request may carry: its route's limit, else the MCP endpoint's. */
function bodyLimit({ domain, maxBody }: Loaded, method: string, path: string): number {
  const routes = domain.routes?.filter((r) => r.path === path) ?? [];
  const route = routes.find((r) => r.method === method) ?? routes[0];
  return route ? (route.body?.maxBytes ?? DEFAULT_MAX_BODY) : maxBody;
}

async function handle(req: Request, res: Response, loaded: Loaded, scope: RequestScope, path: string, health: boolean, shares: PersonShares): Promise<void> {
  const { domain, maxBody } = loaded;
  const { log, requestId } = scope;
  const routes = domain.routes?.filter((r) => r.path === path) ?? [];
  const route = routes.find((r) => r.method === req.method) ?? routes[0];
  const mcp = servesMcp(domain) ? domain : undefined;
  const policy = route?.access ?? mcp?.access ?? OPEN;
  const self = functionUrl(domain.name, req.headers);

  // RFC 9728 metadata, at the path clients derive from the function's URL and the root form: a
  // public document, readable from any origin (browser-based MCP clients discover with it).
  if (mcp && !isOpen(mcp.access) && req.method === "GET" && (path === PRM_PATH || path.startsWith(`${PRM_PATH}/`)) && hostAllowed(req)) {
    return sendJson(res, 200, resourceMetadata(mcp, self, req), { "access-control-allow-origin": "*", "cache-control": "public, max-age=300" });
  }
  const publicDocument = policy.anyOrigin === true && hostAllowed(req);
  if (!publicDocument && (!hostAllowed(req) || !originAllowed(req, { allowNull: policy.allowNullOrigin, selfHost: new URL(self).hostname, cookies: policy.cookies === true }))) {
    log.warn("refused origin", { origin: req.get("origin"), host: req.get("host") });
    return sendJsonRpcError(res, 403, JSONRPC.INVALID_REQUEST, "Forbidden: this origin may not call this server.");
  }
  res.set(publicDocument ? { "access-control-allow-origin": "*" } : corsHeaders(req));
  if (req.method === "OPTIONS") {
    res.status(204).end();
    return;
  }
  if (health) {
    const status = domain.health?.() ?? { ok: true };
    const base = { domain: domain.name, version: PACKAGE_VERSION, access: describeAccess(mcp?.access ?? OPEN), mcp: !!mcp };
    if (!status.ok) return sendJson(res, 503, { status: "unavailable", reason: status.reason, ...base }, { "retry-after": "5" });
    await probeTrouble(log);
    const troubled = dependencyTrouble();
    if (troubled.length) {
      const reason = troubled.map((t) => t.reason).join("; ");
      return sendJson(res, 503, { status: "degraded", reason, dependencies: troubled, ...base }, { "retry-after": String(DEPENDENCY_RETRY_AFTER_SECONDS) });
    }
    return sendJson(res, 200, { status: "ok", ...base });
  }

  // Also refused before it is read, where the body guard runs (body-guard.ts).
  const limit = bodyLimit(loaded, req.method, path);
  const size = (req as Request & { rawBody?: Buffer }).rawBody?.length ?? Number(req.get("content-length") ?? 0);
  if (size > limit) return sendJsonRpcError(res, 413, JSONRPC.INVALID_REQUEST, tooLargeSentence(size, limit));

  // Everything that reaches a handler is authenticated under its policy: MCP POSTs and every
  // route. (GET and DELETE on the MCP endpoint are answered 405 by the SDK and touch no data.)
  if (!isOpen(policy) && (route || (path === "/" && req.method === "POST"))) {
    const outcome = await authenticate(req, policy, self);
    if (!outcome.ok) {
      log.info("refused credential", { path, status: outcome.status, reason: outcome.message });
      return sendJsonRpcError(res, outcome.status, JSONRPC.UNAUTHORIZED, outcome.message, outcome.headers);
    }
    scope.caller = outcome.caller;
    if (!claimShare(shares, domain.name, outcome.caller, res)) return;
  }

  if (route) {
    if (req.method !== route.method) {
      const allowed = routes.map((r) => r.method).join(", ");
      return sendJson(res, 405, { error: `Use ${allowed} for ${path}` }, { allow: allowed });
    }
    const body = routeBody(req, route.body?.type ?? "json");
    if (!body.ok) return sendJson(res, 400, { error: body.error });
    if (refuseDeepJson(body.value, res)) return;
    const ctx = handlerContext(scope, mcp?.backend);
    try {
      const reply = await route.handle(
        { body: body.value, rawBody: rawBodyOf(req), query: scope.query, headers: req.headers, clientIp: scope.clientIp, baseUrl: self },
        ctx,
      );
      return sendReply(res, reply);
    } catch (err) {
      const error = asToolError(err);
      if (error.kind === "internal") log.error("route failed", { path, err });
      const headers: Record<string, string> = error.extra.retryAfterSeconds ? { "retry-after": String(error.extra.retryAfterSeconds) } : {};
      return sendJson(res, error.status, { error: error.kind === "internal" ? `${INTERNAL_ERROR_TEXT} (request id ${requestId}).` : error.message }, headers);
    }
  }
  if (!mcp) return sendJson(res, 404, { error: `No such endpoint: ${path}.` });
  if (path !== "/") return sendJson(res, 404, { error: `No such endpoint: ${path}. The MCP endpoint is this function's root URL.` });

  let body: unknown = req.body;
  if (req.method === "POST") {
    const parsed = parseBody(req);
    if (!parsed.ok) return sendJsonRpcError(res, 400, JSONRPC.PARSE_ERROR, "Parse error: the request body is not valid JSON.");
    body = parsed.value;
    if (body === null || typeof body !== "object") {
      return sendJsonRpcError(res, 400, JSONRPC.INVALID_REQUEST, "Invalid Request: the body must be a JSON-RPC 2.0 request object.");
    }
    if (refuseDeepJson(body, res) || refuseInvalidParams(req, body, res)) return;
  }
  await serveMcp(req, res, mcp, maxBody, scope, body);
}

const PRM_PATH = WELL_KNOWN.protectedResource;

function resourceMetadata(domain: DomainDefinition, self: string, req: Request): unknown {
  return protectedResourceMetadata(self, issuerUrl(req.headers), domain.title, Object.keys(domain.scopes ?? {}));
}

/** Verifies the bearer token with the SDK's verifyBearerToken; failures carry the SDK's challenge. */
async function authenticate(
  req: Request,
  policy: AccessPolicy,
  self: string,
): Promise<{ ok: true; caller: Caller } | { ok: false; status: number; message: string; headers: Record<string, string> }> {
  const resourceMetadataUrl = `${self}${PRM_PATH}`;
  try {
    const verifier = new CallerVerifier(policy, issuerUrl(req.headers), self);
    await verifyBearerToken(req.get("authorization"), {
      verifier,
      expectedResource: new URL(self),
      requiredScopes: policy.scopes ?? [],
      resourceMetadataUrl,
    });
    if (!verifier.caller) throw new Error("a verified token left no caller");
    return { ok: true, caller: verifier.caller };
  } catch (err) {
    if (err instanceof OAuthError && err.code === OAuthErrorCode.TemporarilyUnavailable) {
      return { ok: false, status: 503, message: `Error: ${err.message} (503)`, headers: { "retry-after": String(DEPENDENCY_RETRY_AFTER_SECONDS) } };
    }
    // The SDK builds the status and WWW-Authenticate header; the body stays a JSON-RPC error with
    // our one-sentence text, which MCP clients show to the user (the SDK's body is OAuth JSON).
    const challenge = bearerAuthChallengeResponse(err, { requiredScopes: policy.scopes ?? [], resourceMetadataUrl });
    const headers: Record<string, string> = {};
    const www = challenge.headers.get("www-authenticate");
    // RFC 6750 §3.1: a request without credentials gets a challenge without an error code.
    if (www) headers["www-authenticate"] = req.get("authorization") ? www : www.replace(/error="[^"]*", error_description="[^"]*", /, "");
    return { ok: false, status: challenge.status, message: challengeText(err, policy, challenge.status), headers };
  }
}

function challengeText(err: unknown, policy: AccessPolicy, status: number): string {
  if (status === 403) return `Error: This token lacks the scope ${policy.scopes?.join(", ")}: reconnect and approve access (403)`;
  const reason = err instanceof Error ? err.message : "";
  if (/Missing Authorization header|Invalid Authorization header/.test(reason)) {
    return "Error: Sign-in required: connect with OAuth (this server advertises its authorization server) or send Authorization: Bearer <Firebase ID token> (401)";
  }
  if (status >= 500) return `${INTERNAL_ERROR_TEXT}.`;
  return `Error: ${reason.replace(/\.$/, "")} (401)`;
}

function describeAccess(policy: AccessPolicy): string {
  return isOpen(policy) ? "public" : "signed-in";
}

function rawBodyOf(req: Request): Buffer {
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  if (raw) return raw;
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

function routeBody(req: Request, type: "json" | "binary" | "form" | "none"): { ok: true; value: unknown } | { ok: false; error: string } {
  if (type === "none" || req.method === "GET" || req.method === "DELETE") return { ok: true, value: undefined };
  if (type === "binary") return { ok: true, value: rawBodyOf(req) };
  if (type === "form") {
    if (req.body && typeof req.body === "object" && !Buffer.isBuffer(req.body)) return { ok: true, value: req.body };
    return { ok: true, value: Object.fromEntries(new URLSearchParams(rawBodyOf(req).toString("utf8"))) };
  }
  if (rawBodyOf(req).length === 0 && (req.body === undefined || Buffer.isBuffer(req.body))) return { ok: true, value: {} };
  const parsed = parseBody(req);
  return parsed.ok ? parsed : { ok: false, error: "The request body is not valid JSON." };
}

const PAGE_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  // Pages load nothing from anywhere: inline styles only, no scripts (the home page alone allows its one same-origin script: home-page.ts), not framable.
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'none'; base-uri 'none'",
  "x-frame-options": "DENY",
  // same-origin, not no-referrer: with no-referrer a browser sends `Origin: null` on form posts.
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

function sendReply(res: Response, reply: HttpReply): void {
  if (reply.html !== undefined) {
    res.status(reply.status).set({ ...PAGE_HEADERS, ...reply.headers });
    res.send(reply.html);
    return;
  }
  if (reply.body === undefined) {
    res.status(reply.status).set(reply.headers ?? {});
    res.end();
    return;
  }
  sendJson(res, reply.status, reply.body, reply.headers);
}

// The Functions framework has parsed application/json already (and answered bad JSON itself);
// other content types arrive raw, and are parsed here so malformed input gets JSON-RPC -32700.
function parseBody(req: Request): { ok: true; value: unknown } | { ok: false } {
  if (req.body !== undefined && !Buffer.isBuffer(req.body) && typeof req.body !== "string") return { ok: true, value: req.body };
  const raw = (req as Request & { rawBody?: Buffer }).rawBody ?? (Buffer.isBuffer(req.body) ? req.body : Buffer.from(String(req.body ?? "")));
  try {
    return { ok: true, value: JSON.parse(raw.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}

