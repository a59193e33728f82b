// The pipeline's dispatch to MCP, at the function's root: the JSON-RPC body parsed and checked
// (nesting, core params), then the SDK's stateless handler with a server built for this request's
// scope (mcp/server.ts `createServer`). The SDK is handed the parsed body, so it reads none: the
// body's size was settled by the size step (body-guard.ts).
import type { Request, Response } from "express";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { log as rootLog } from "../core/log.js";
import type { RequestScope } from "../handler/scope.js";
import type { DomainDefinition } from "../mcp/define.js";
import { createServer } from "../mcp/server.js";
import { parseJsonBody } from "./body.js";
import { refuseDeepJson } from "./guards.js";
import { refuseInvalidParams } from "./initialize.js";
import { JSONRPC, sendJson, sendJsonRpcError } from "./jsonrpc.js";

export async function serveMcp(req: Request, res: Response, domain: DomainDefinition, path: string, scope: RequestScope): Promise<void> {
  if (path !== "/") return sendJson(res, 404, { error: `No such endpoint: ${path}. The MCP endpoint is this function's root URL.` });
  let body: unknown = req.body;
  if (req.method === "POST") {
    const parsed = parseJsonBody(req);
    if (!parsed.ok) return sendJsonRpcError(res, 400, JSONRPC.PARSE_ERROR, "Parse error: the request body is not valid JSON.");
    body = parsed.value;
    if (body === null || typeof body !== "object") {
      return sendJsonRpcError(res, 400, JSONRPC.INVALID_REQUEST, "Invalid Request: the body must be a JSON-RPC 2.0 request object.");
    }
    if (refuseDeepJson(body, res) || refuseInvalidParams(req, body, res)) return;
  }
  // The SDK's handler is built per request too (cheap: closures only), so the scope reaches the server directly.
  await toNodeHandler(mcpHandler(domain, () => scope))(req as never, res as never, body);
}

/** The SDK's stateless handler (both eras) for a domain: a server per request, built for `scopeOf()`; also the in-process tests' host. */
export function mcpHandler(domain: DomainDefinition, scopeOf: () => RequestScope): ReturnType<typeof createMcpHandler> {
  return createMcpHandler(() => createServer(domain, scopeOf()).server, {
    legacy: "stateless",
    onerror: (err) => rootLog.warn("mcp transport error", { domain: domain.name, error: err.message }),
  });
}
