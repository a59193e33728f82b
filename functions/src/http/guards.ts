// What protects an instance before a request reaches the MCP SDK: a bound on JSON nesting (the
// SDK's validators recurse and overflow the stack on ~5,000 levels: HTTP 500), a bounded gate on
// the requests an instance works on at once (past it: 503 + Retry-After at once, never a minute
// of silence). The client-gone signal is part of the request's scope (scope.ts).
import type { Response } from "express";
import { busyAnswer, type Admission, type GateOptions } from "./gate.js";
import { JSONRPC, sendJsonRpcError } from "./jsonrpc.js";

/** Deepest JSON nesting accepted anywhere in a request body (MCP arguments rarely pass 10). */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests deeper than `max` arrays/objects. Iterative: never overflows the stack. */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object" || ArrayBuffer.isView(v)) continue; // (a binary body is bytes, not JSON)
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

/** Answers 400 (JSON-RPC -32600) when the body nests too deeply; returns whether it answered. */
export function refuseDeepJson(body: unknown, res: Response): boolean {
  if (!nestsDeeperThan(body, MAX_JSON_DEPTH)) return false;
  sendJsonRpcError(
    res,
    400,
    JSONRPC.INVALID_REQUEST,
    `Invalid Request: the JSON nests more than ${MAX_JSON_DEPTH} levels deep; this server accepts at most ${MAX_JSON_DEPTH} levels of arrays and objects.`,
  );
  return true;
}

// ---- Load shedding ----------------------------------------------------------------------------

export { Gate, type Admission, type GateOptions } from "./gate.js";

/** What withinGate needs of a gate: admission with a release, and the Retry-After to give. */
export interface Admitter {
  readonly options: GateOptions;
  enter(signal?: AbortSignal): Promise<Admission>;
}

/** Loads a domain before traffic (the gate is per process: nothing to bound across processes). */
export async function warmUp(_gate: Admitter, ready: () => Promise<unknown>): Promise<void> {
  await ready();
}

/** The 503 a shed request gets: a JSON-RPC error with Retry-After, so clients back off. */
export function sendBusy(res: Response, domain: string, retryAfterSeconds: number): void {
  const busy = busyAnswer(domain, retryAfterSeconds);
  res.status(busy.status).set(busy.headers).send(busy.body);
}

/** Runs `serve` inside the gate, or answers busy (the caller decides what bypasses the gate). */
export async function withinGate(gate: Admitter, domain: string, res: Response, signal: AbortSignal, serve: () => Promise<void>): Promise<void> {
  const admission = await gate.enter(signal);
  if (!admission.admitted) {
    if (!res.headersSent && !signal.aborted) sendBusy(res, domain, gate.options.retryAfterSeconds);
    return;
  }
  try {
    await serve();
  } finally {
    admission.release();
  }
}
