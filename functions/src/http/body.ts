// A request's body as the framework left it: the Functions framework has parsed application/json
// already (and answered bad JSON itself); other content types arrive raw, and are parsed here, so
// malformed input gets our own answer (JSON-RPC -32700 at the MCP endpoint, a 400 at a route).
import type { Request } from "express";

export function rawBodyOf(req: Request): Buffer {
  const raw = (req as Request & { rawBody?: Buffer }).rawBody;
  if (raw) return raw;
  return Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
}

export function parseJsonBody(req: Request): { ok: true; value: unknown } | { ok: false } {
  if (req.body !== undefined && !Buffer.isBuffer(req.body) && typeof req.body !== "string") return { ok: true, value: req.body };
  const raw = (req as Request & { rawBody?: Buffer }).rawBody ?? (Buffer.isBuffer(req.body) ? req.body : Buffer.from(String(req.body ?? "")));
  try {
    return { ok: true, value: JSON.parse(raw.toString("utf8")) };
  } catch {
    return { ok: false };
  }
}
