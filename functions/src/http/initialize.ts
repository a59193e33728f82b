// The params of the core methods, checked before the SDK sees them: the SDK answers a malformed
// `initialize` (no capabilities or clientInfo) with -32603 and zod's raw issue list; the spec's
// answer is -32602 invalid params, with a sentence saying what is missing.
// `initialize` is not checked in a request the SDK serves as 2026-07-28 (one carrying the
// per-request `_meta` envelope): there it is a method that revision removed, and the SDK answers it
// as the spec says, HTTP 404 with -32601 method not found. The SDK's own classifier decides the
// era, so this check and the SDK's routing cannot disagree.
import type { Request, Response } from "express";
import { classifyInboundRequest } from "@modelcontextprotocol/server";
import { JSONRPC, sendJsonRpcError } from "./jsonrpc.js";

type Check = (params: Record<string, unknown>) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const needsString = (params: Record<string, unknown>, name: string, what: string) =>
  typeof params[name] === "string" && params[name] ? undefined : `params.${name} must be ${what}`;

const CHECKS: Record<string, Check> = {
  initialize: (p) => {
    const missing: string[] = [];
    if (typeof p.protocolVersion !== "string" || !p.protocolVersion) missing.push('params.protocolVersion must be a string, e.g. "2025-11-25"');
    if (!isObject(p.capabilities)) missing.push("params.capabilities must be an object (may be empty: {})");
    const info = p.clientInfo;
    if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string") {
      missing.push('params.clientInfo must be an object with name and version strings, e.g. {"name": "my-client", "version": "1.0.0"}');
    }
    return missing.length ? missing.join("; ") : undefined;
  },
  "tools/call": (p) =>
    needsString(p, "name", "the name of a tool from tools/list") ??
    (p.arguments === undefined || isObject(p.arguments) ? undefined : "params.arguments must be an object of the tool's arguments"),
  "resources/read": (p) => needsString(p, "uri", "the URI of a resource"),
  "prompts/get": (p) =>
    needsString(p, "name", "the name of a prompt from prompts/list") ??
    (p.arguments === undefined || isObject(p.arguments) ? undefined : "params.arguments must be an object of string arguments"),
};

/** Answers 400 with JSON-RPC -32602 when a core method's params are malformed; returns whether it answered. */
export function refuseInvalidParams(req: Request, body: unknown, res: Response): boolean {
  if (!isObject(body) || typeof body.method !== "string") return false;
  const check = CHECKS[body.method];
  if (!check) return false;
  if (body.method === "initialize" && routedAsModern(req, body)) return false;
  if (body.params !== undefined && !isObject(body.params)) return invalid(res, body, "params must be an object");
  const problem = check((body.params as Record<string, unknown> | undefined) ?? {});
  return problem ? invalid(res, body, problem) : false;
}

function invalid(res: Response, body: Record<string, unknown>, problem: string): true {
  const id = typeof body.id === "string" || typeof body.id === "number" ? body.id : null;
  sendJsonRpcError(res, 400, JSONRPC.INVALID_PARAMS, `Invalid params for ${String(body.method)}: ${problem}.`, {}, id);
  return true;
}

/** Whether the SDK serves this request as protocol 2026-07-28 (it carries the `_meta` envelope). */
function routedAsModern(req: Request, body: Record<string, unknown>): boolean {
  const route = classifyInboundRequest({
    httpMethod: req.method,
    protocolVersionHeader: req.get("mcp-protocol-version"),
    mcpMethodHeader: req.get("mcp-method"),
    mcpNameHeader: req.get("mcp-name"),
    body,
  });
  return route.kind === "modern";
}
