// What protects an instance before a request reaches the MCP SDK: a bound on JSON nesting (the
// SDK's validators recurse and overflow the stack on ~5,000 levels: HTTP 500), a bounded gate on
// the requests an instance works on at once (past it: 503 + Retry-After at once, never a minute
// of silence). The client-gone signal is part of the request's scope (scope.ts).
import type { Response } from "express";
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

export interface GateOptions {
  /** Requests worked on at once; more wait in the queue. */
  maxInFlight: number;
  /** Requests allowed to wait; past that, "busy" at once. */
  maxQueued: number;
  /** Longest wait in the queue before "busy" (so a client never waits a minute for nothing). */
  maxWaitMs: number;
  /** Seconds a busy answer tells the client to wait (Retry-After). */
  retryAfterSeconds: number;
}

/** What withinGate needs of a gate: admission with a release, and the Retry-After to give. */
export interface Admitter {
  readonly options: GateOptions;
  enter(signal?: AbortSignal): Promise<Admission>;
  /** A slot now or never (no waiting); only gates shared across processes have it. */
  tryEnter?(): (() => void) | undefined;
}

/**
 * Loads a domain before traffic. Where the gate is shared across processes (the emulator starts
 * one per concurrent request), only as many processes as the bound allows warm up at once; the
 * others load on their first admitted request, so a burst never means 50 renderers warming at once.
 */
export async function warmUp(gate: Admitter, ready: () => Promise<unknown>): Promise<void> {
  if (!gate.tryEnter) return void (await ready());
  const release = gate.tryEnter();
  if (!release) return;
  try {
    await ready();
  } finally {
    release();
  }
}

export type Admission = { admitted: true; release: () => void } | { admitted: false; reason: "queue full" | "waited too long" };

/**
 * A per-instance bound on concurrent work: at most maxInFlight at once, at most maxQueued waiting
 * (first come, first served), each waiting at most maxWaitMs. Deterministic given the order of
 * enter/release calls, so tests can drive it without timing.
 */
export class Gate implements Admitter {
  private inFlight = 0;
  private readonly queue: { admit: () => void; timer: NodeJS.Timeout | undefined }[] = [];
  constructor(readonly options: GateOptions) {}

  get load(): { inFlight: number; queued: number } {
    return { inFlight: this.inFlight, queued: this.queue.length };
  }

  enter(signal?: AbortSignal): Promise<Admission> {
    if (this.inFlight < this.options.maxInFlight && !this.queue.length) {
      this.inFlight++;
      return Promise.resolve({ admitted: true, release: this.releaser() });
    }
    if (this.queue.length >= this.options.maxQueued) return Promise.resolve({ admitted: false, reason: "queue full" });
    return new Promise((resolve) => {
      const waiter = {
        admit: () => resolve({ admitted: true, release: this.releaser() }),
        timer: undefined as NodeJS.Timeout | undefined,
      };
      const leave = (reason: "waited too long") => {
        const i = this.queue.indexOf(waiter);
        if (i < 0) return;
        this.queue.splice(i, 1);
        clearTimeout(waiter.timer);
        resolve({ admitted: false, reason });
      };
      waiter.timer = setTimeout(() => leave("waited too long"), this.options.maxWaitMs);
      waiter.timer.unref?.();
      signal?.addEventListener("abort", () => leave("waited too long"), { once: true });
      this.queue.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) {
        clearTimeout(next.timer);
        next.admit(); // the slot passes straight to the next in line
      } else this.inFlight--;
    };
  }
}

/** The 503 a shed request gets: a JSON-RPC error with Retry-After, so clients back off. */
export function sendBusy(res: Response, domain: string, retryAfterSeconds: number): void {
  sendJsonRpcError(
    res,
    503,
    JSONRPC.SERVER_BUSY,
    `Server busy: the ${domain} server is handling as many requests as it can right now. Retry after ${retryAfterSeconds} s.`,
    { "retry-after": String(retryAfterSeconds) },
  );
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
