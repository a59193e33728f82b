// One HTTPS function per domain: MCP (Streamable HTTP, stateless) at the function's root,
// /healthz, and the domain's own routes. Everything a domain shares is here: request ids,
// Origin/Host checks, body limits, malformed JSON-RPC, authentication, logging.
import { randomUUID } from "node:crypto";
import type { Request, Response } from "express";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { verifyBearer, type Caller } from "../auth/caller.js";
import type { DomainDefinition, RequestContext } from "../mcp/define.js";
import { asToolError, INTERNAL_ERROR_TEXT, ToolError } from "../mcp/errors.js";
import { log as rootLog } from "../mcp/log.js";
import { buildServer, PACKAGE_VERSION } from "../mcp/server.js";
import { JSONRPC, sendJson, sendJsonRpcError } from "./jsonrpc.js";
import { corsHeaders, hostAllowed, originAllowed } from "./origin.js";
import { gateFor } from "./capacity.js";
import { clientGone, refuseDeepJson, warmUp, withinGate } from "./guards.js";
import { refuseInvalidParams } from "./initialize.js";

const DEFAULT_MAX_BODY = 1024 * 1024;

type Loader = () => Promise<{ default: DomainDefinition }>;

interface Loaded {
  domain: DomainDefinition;
  mcp: ReturnType<typeof toNodeHandler>;
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
    (loading ??= prepare(load).catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
  const gate = gateFor(name);
  // Cloud Run / the emulator tell a process which function it serves: warm up before traffic.
  if (process.env.FUNCTION_TARGET === name || process.env.K_SERVICE === name) {
    warmUp(gate, ready).catch((err: unknown) => rootLog.error("warm-up failed; the next request retries", { domain: name, err }));
  }

  return async (req, res) => {
    // Cloud Run's trace id when it is one (32 hex digits); the header is client-settable otherwise.
    const trace = (req.get("x-cloud-trace-context") ?? "").split("/")[0] ?? "";
    const requestId = /^[0-9a-f]{32}$/.test(trace) ? trace : randomUUID();
    const log = rootLog.child({ domain: name, requestId });
    res.set("x-request-id", requestId);
    const signal = clientGone(req, res);
    try {
      await withinGate(gate, name, req, res, signal, async () => handle(req, res, await ready(), requestId, log, signal));
    } catch (err) {
      log.error("request failed", { err, path: req.path });
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, `${INTERNAL_ERROR_TEXT} (request id ${requestId}).`);
    }
  };
}

async function prepare(load: Loader): Promise<Loaded> {
  const { default: domain } = await load();
  await domain.warmup?.();
  const maxBody = domain.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const handler = createMcpHandler(
    ({ authInfo }) => {
      // handle() always passes these; a server is never built without them.
      const { caller, requestId, signal } = authInfo!.extra as { caller?: Caller; requestId: string; signal?: AbortSignal };
      return buildServer(domain, { caller, requestId, signal, log: rootLog.child({ domain: domain.name, requestId }) });
    },
    {
      legacy: "stateless",
      maxRequestBodySize: maxBody,
      onerror: (err) => rootLog.warn("mcp transport error", { domain: domain.name, error: err.message }),
    },
  );
  return { domain, mcp: toNodeHandler(handler, { maxRequestBodySize: maxBody }), maxBody };
}

async function handle(req: Request, res: Response, { domain, mcp, maxBody }: Loaded, requestId: string, log: typeof rootLog, signal: AbortSignal): Promise<void> {
  const path = req.path.replace(/\/+$/, "") || "/";
  const cors = corsHeaders(req);

  if (!hostAllowed(req) || !originAllowed(req)) {
    log.warn("refused origin", { origin: req.get("origin"), host: req.get("host") });
    return sendJsonRpcError(res, 403, JSONRPC.INVALID_REQUEST, "Forbidden: this origin may not call this server.");
  }
  res.set(cors);
  if (req.method === "OPTIONS") {
    res.status(204).end();
    return;
  }
  if (path === "/healthz" && req.method === "GET") {
    const health = domain.health?.() ?? { ok: true };
    const base = { domain: domain.name, version: PACKAGE_VERSION, access: domain.access };
    if (!health.ok) return sendJson(res, 503, { status: "unavailable", reason: health.reason, ...base }, { "retry-after": "5" });
    return sendJson(res, 200, { status: "ok", ...base });
  }

  const size = (req as Request & { rawBody?: Buffer }).rawBody?.length ?? Number(req.get("content-length") ?? 0);
  if (size > maxBody) {
    return sendJsonRpcError(
      res,
      413,
      JSONRPC.INVALID_REQUEST,
      `Request body too large: ${formatBytes(size)}; this server accepts at most ${formatBytes(maxBody)} per request.`,
    );
  }

  // Signed-in domains authenticate everything that reaches a handler: MCP POSTs and every route.
  // (GET and DELETE on the MCP endpoint are answered 405 by the SDK and touch no data.)
  const route = domain.routes?.find((r) => r.path === path);
  let caller: Caller | undefined;
  if (domain.access === "signed-in" && (route || (path === "/" && req.method === "POST"))) {
    try {
      caller = await verifyBearer(req.get("authorization"));
    } catch (err) {
      const error = err instanceof ToolError ? err : asToolError(err);
      // RFC 6750: no error code when no token was sent; invalid_token when one was and failed.
      // The OAuth work for Claude's connectors adds resource_metadata="…" here.
      const challenge = req.get("authorization")
        ? `Bearer realm="${domain.name}", error="invalid_token", error_description="${error.message.replace(/"/g, "'")}"`
        : `Bearer realm="${domain.name}"`;
      return sendJsonRpcError(res, 401, JSONRPC.UNAUTHORIZED, error.toText(), { "www-authenticate": challenge });
    }
  }

  if (route) {
    if (req.method !== route.method) return sendJson(res, 405, { error: `Use ${route.method} for ${path}` }, { allow: route.method });
    const ctx: RequestContext = {
      caller,
      requestId,
      log,
      signal,
      progress: async () => undefined,
    };
    if (refuseDeepJson(req.body, res)) return;
    try {
      const reply = await route.handle({ body: req.body, headers: req.headers, clientIp: clientIp(req) }, ctx);
      return sendJson(res, reply.status, reply.body, reply.headers);
    } catch (err) {
      const error = asToolError(err);
      if (error.kind === "internal") log.error("route failed", { path, err });
      const headers: Record<string, string> = error.extra.retryAfterSeconds ? { "retry-after": String(error.extra.retryAfterSeconds) } : {};
      return sendJson(res, error.status, { error: error.kind === "internal" ? `${INTERNAL_ERROR_TEXT} (request id ${requestId}).` : error.message }, headers);
    }
  }
  if (path !== "/") return sendJson(res, 404, { error: `No such endpoint: ${path}. The MCP endpoint is this function's root URL.` });

  let body: unknown = req.body;
  if (req.method === "POST") {
    const parsed = parseBody(req);
    if (!parsed.ok) return sendJsonRpcError(res, 400, JSONRPC.PARSE_ERROR, "Parse error: the request body is not valid JSON.");
    body = parsed.value;
    if (body === null || typeof body !== "object") {
      return sendJsonRpcError(res, 400, JSONRPC.INVALID_REQUEST, "Invalid Request: the body must be a JSON-RPC 2.0 request object.");
    }
    if (refuseDeepJson(body, res) || refuseInvalidParams(body, res)) return;
  }
  (req as Request & { auth?: unknown }).auth = {
    token: "",
    clientId: caller?.uid ?? "anonymous",
    scopes: [],
    extra: { caller, requestId, signal },
  };
  await mcp(req as never, res as never, body);
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

// Google's front end appends the address it received the request from as the last X-Forwarded-For
// entry; entries before it are whatever the client sent and cannot be trusted. Behind another proxy
// of ours (Firebase Hosting, a load balancer), TRUSTED_PROXY_HOPS=1 skips that proxy's address.
function clientIp(req: Request): string {
  const entries = (req.get("x-forwarded-for") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const hops = Math.max(0, Number(process.env.TRUSTED_PROXY_HOPS ?? 0) || 0);
  return entries[entries.length - 1 - hops] ?? entries[0] ?? req.socket.remoteAddress ?? "unknown";
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
}
