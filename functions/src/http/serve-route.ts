// The pipeline's dispatch to a domain's HTTP route (handler/route.ts): its body read as the route
// declares it, its handler called with the request's context (the same one tools get), its reply
// or error answered.
import type { Request, Response } from "express";
import { asToolError, INTERNAL_ERROR_TEXT } from "../core/errors.js";
import { handlerContext, type RequestScope } from "../handler/scope.js";
import { parseJsonBody, rawBodyOf } from "./body.js";
import { refuseDeepJson } from "./guards.js";
import { sendJson } from "./jsonrpc.js";
import type { HttpReply, HttpRoute } from "./route.js";
import type { Target } from "./target.js";

export async function serveRoute(req: Request, res: Response, route: HttpRoute, { routes, mcp }: Target, path: string, scope: RequestScope, self: string): Promise<void> {
  if (req.method !== route.method) {
    const allowed = routes.map((r) => r.method).join(", ");
    return sendJson(res, 405, { error: `Use ${allowed} for ${path}` }, { allow: allowed });
  }
  const body = routeBody(req, route.body?.type ?? "json");
  if (!body.ok) return sendJson(res, 400, { error: body.error });
  if (refuseDeepJson(body.value, res)) return;
  try {
    const reply = await route.handle(
      { body: body.value, rawBody: rawBodyOf(req), query: scope.query, headers: req.headers, clientIp: scope.clientIp, baseUrl: self },
      handlerContext(scope, mcp?.backend),
    );
    return sendReply(res, reply);
  } catch (err) {
    const error = asToolError(err);
    if (error.kind === "internal") scope.log.error("route failed", { path, err });
    const headers: Record<string, string> = error.extra.retryAfterSeconds ? { "retry-after": String(error.extra.retryAfterSeconds) } : {};
    return sendJson(res, error.status, { error: error.kind === "internal" ? `${INTERNAL_ERROR_TEXT} (request id ${scope.requestId}).` : error.message }, headers);
  }
}

function routeBody(req: Request, type: "json" | "binary" | "form" | "none"): { ok: true; value: unknown } | { ok: false; error: string } {
  if (type === "none" || req.method === "GET" || req.method === "DELETE") return { ok: true, value: undefined };
  if (type === "binary") return { ok: true, value: rawBodyOf(req) };
  if (type === "form") {
    if (req.body && typeof req.body === "object" && !Buffer.isBuffer(req.body)) return { ok: true, value: req.body };
    return { ok: true, value: Object.fromEntries(new URLSearchParams(rawBodyOf(req).toString("utf8"))) };
  }
  if (rawBodyOf(req).length === 0 && (req.body === undefined || Buffer.isBuffer(req.body))) return { ok: true, value: {} };
  const parsed = parseJsonBody(req);
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
