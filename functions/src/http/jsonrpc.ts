// Answers the shared layer gives before a request reaches the MCP SDK.
import type { Response } from "express";

export const JSONRPC = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  INVALID_PARAMS: -32602,
  UNAUTHORIZED: -32001,
  /** Implementation-defined server error: too busy right now, retry after the Retry-After header. */
  SERVER_BUSY: -32000,
} as const;

export function sendJsonRpcError(
  res: Response,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
  id: string | number | null = null,
): void {
  res.status(status).set({ "content-type": "application/json", ...headers });
  res.send(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }));
}

export function sendJson(res: Response, status: number, body: unknown, headers: Record<string, string | string[]> = {}): void {
  res.status(status).set({ "content-type": "application/json", ...headers });
  res.send(JSON.stringify(body));
}
