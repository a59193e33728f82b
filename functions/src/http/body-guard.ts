// Request bodies over their limit are refused before they are read. The Functions framework
// (Cloud Run's Node runtime and `npm start`'s instances) and the emulator's runtime parse every
// body, up to their own far larger limits, before any handler runs; so this guard sits at the
// Node HTTP server, ahead of them: a request declaring a Content-Length over its limit is
// answered 413 at once, and a chunked body is counted as it arrives and cut off past the limit.
// Each function's limits are its own (routes' `body.maxBytes`, else the MCP endpoint's): the
// process's function registers them (endpoint.ts), the guard asks for the request's path.
// This is the one place a body's size is enforced: the pipeline's size step (`refuseOversized`)
// measures only a request the guard did not see (a host that serves the handler on a server of
// its own), and the MCP SDK is handed the parsed body, so it reads (and bounds) nothing.
import { Server, type IncomingMessage, type ServerResponse } from "node:http";
import { JSONRPC, sendJsonRpcError } from "./jsonrpc.js";
import type { Response } from "express";
import { servedFunction } from "../core/where.js";

/** What a function finds for a request's method and path (once it is loaded): at least the most bytes it may carry. */
export type BodyLimit<T extends Sized = Sized> = (method: string, path: string) => Promise<T>;
export interface Sized {
  maxBytes: number;
}

/** What the guard found for a request it checked (whose body is therefore within its limit). */
export interface Guarded<T extends Sized> {
  path: string;
  found: T;
}

/**
 * After the answer, the rest of a refused body is read and dropped for at most this long or this
 * many bytes (then the connection is closed): closing at once, with bytes unread, resets the
 * connection, and the client could lose the answer (the emulator's hub, which forwards bodies it
 * has read whole, restarts the function's process then). Dropped bytes cost no memory; Cloud Run
 * sends no request over 32 MiB.
 */
const LINGER_MS = 5_000;
const LINGER_BYTES = 32 * 1024 * 1024;

const limits = new Map<string, BodyLimit>();

/** The requests whose size the guard checked, with the path it read and what the function found for it. */
const checked = new WeakMap<IncomingMessage, Guarded<Sized>>();

/**
 * Registers function `name`'s limits; the guard uses them in the process that serves `name`.
 * Returns how the function reads what the guard found for a request (nothing for a request the
 * guard did not check), so the path and its lookup are done once.
 */
export function guardBodies<T extends Sized>(name: string, limit: BodyLimit<T>): (req: IncomingMessage) => Guarded<T> | undefined {
  limits.set(name, limit);
  return (req) => checked.get(req) as Guarded<T> | undefined;
}

/** The sentence of a 413. */
export function tooLargeSentence(size: number | undefined, limit: number): string {
  const was = size === undefined ? `more than ${formatBytes(limit)}` : formatBytes(size);
  return `Request body too large: ${was}; this server accepts at most ${formatBytes(limit)} per request.`;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(n / 1024)} KB`;
}

let installed = false;

/**
 * Installs the guard on every HTTP server of this process, for the function it serves (the
 * framework's FUNCTION_TARGET, Cloud Run's K_SERVICE); a process serving none is left alone.
 */
export function installBodyGuard(env: NodeJS.ProcessEnv = process.env): void {
  const served = servedFunction(env);
  if (installed || !served) return;
  installed = true;
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    const pass = () => emit.apply(this, [event, ...args] as Parameters<typeof emit>);
    const limit = limits.get(served);
    if (event !== "request" || !limit) return pass();
    const [req, res] = args as [IncomingMessage, ServerResponse];
    if (!hasBody(req)) return pass();
    const path = requestPath(req);
    // The request is held (its bytes wait in the socket) until the function knows its limit.
    limit(req.method ?? "GET", path).then(
      (found) => {
        const max = found.maxBytes;
        const declared = req.headers["content-length"] === undefined ? undefined : Number(req.headers["content-length"]);
        if (declared !== undefined && declared > max) return refuse(req, res, declared, max);
        if (declared === undefined) countAsItArrives(req, res, max);
        checked.set(req, { path, found });
        pass();
      },
      // A function that fails to load answers the request itself (endpoint.ts).
      () => pass(),
    );
    return true;
  } as typeof Server.prototype.emit;
}

const hasBody = (req: IncomingMessage): boolean => req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined;

/** The request's path relative to the function, without the query or trailing slashes ("/" for the root). */
export function requestPath(req: Pick<IncomingMessage, "url">): string {
  const url = req.url ?? "/";
  // Origin form ("/path?query"), as clients send it; the absolute form ("http://host/path") parsed.
  const path = url.startsWith("/") ? url.split("?")[0]! : new URL(url, "http://function").pathname;
  return path.replace(/\/+$/, "") || "/";
}

/**
 * The pipeline's size step, for a request the guard did not check (a host serving the handler on
 * a server of its own, without FUNCTION_TARGET): its body is already read, and measured here.
 * Answers 413 and returns true when it is over `limit`.
 */
export function refuseOversized(req: IncomingMessage & { rawBody?: Buffer }, res: Response, limit: number): boolean {
  const size = req.rawBody?.length ?? Number(req.headers["content-length"] ?? 0);
  if (size <= limit) return false;
  sendJsonRpcError(res, 413, JSONRPC.INVALID_REQUEST, tooLargeSentence(size, limit));
  return true;
}

/** Answers 413 without reading the body, then drops what still arrives, within the linger bounds. */
function refuse(req: IncomingMessage, res: ServerResponse, size: number, max: number): void {
  answerTooLarge(res, size, max);
  linger(req);
}

function answerTooLarge(res: ServerResponse, size: number | undefined, max: number): void {
  if (res.headersSent) return;
  const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: JSONRPC.INVALID_REQUEST, message: tooLargeSentence(size, max) } });
  res.writeHead(413, { "content-type": "application/json", "content-length": Buffer.byteLength(body) }).end(body);
}

function linger(req: IncomingMessage): void {
  const socket = req.socket;
  const close = () => socket.destroy();
  const timer = setTimeout(close, LINGER_MS).unref();
  socket.once("close", () => clearTimeout(timer));
  // All of it came within the bounds: the connection stays open for the client's next request.
  req.once("end", () => clearTimeout(timer));
  let dropped = 0;
  req.on("data", (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) close();
  });
  req.on("error", () => {});
  req.resume();
}

/**
 * A body without a declared length: its bytes are counted as the parser hands them on; past the
 * limit the rest is dropped (the framework never sees the body end), the request is answered 413,
 * and the connection is closed once the client stops sending or the linger bounds are reached.
 */
function countAsItArrives(req: IncomingMessage, res: ServerResponse, max: number): void {
  const push = req.push.bind(req);
  let seen = 0;
  let cut = false;
  let dropped = 0;
  req.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (!cut && chunk !== null) {
      seen += (chunk as Buffer).length;
      if (seen > max) {
        cut = true;
        const socket = req.socket;
        const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
        socket.once("close", () => clearTimeout(timer));
        answerTooLarge(res, undefined, max);
      }
    }
    if (!cut) return push(chunk, encoding);
    dropped += chunk === null ? 0 : (chunk as Buffer).length;
    // The client finished sending (or sent too much more): the answer is out, close.
    if (chunk === null || dropped > LINGER_BYTES) {
      if (res.writableFinished) req.socket.destroy();
      else res.once("finish", () => req.socket.destroy());
    }
    return true;
  };
}
