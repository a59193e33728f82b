// The bounded gate every function's instance admits requests through (guards.ts `withinGate`),
// and the local front `npm start` serves through (scripts/emulator/front.ts) reuses as Cloud Run's
// stand-in: one class, one busy sentence, so a client meets the same answer from either.
import { JSONRPC } from "./jsonrpc.js";

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

export type Admission = { admitted: true; release: () => void } | { admitted: false; reason: "queue full" | "waited too long" };

/**
 * A bound on concurrent work: at most maxInFlight at once, at most maxQueued waiting (first come,
 * first served), each waiting at most maxWaitMs. Deterministic given the order of enter/release
 * calls, so tests can drive it without timing.
 */
export class Gate {
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

/** The body, status and headers of the answer to a request the gate refused. */
export function busyAnswer(domain: string, retryAfterSeconds: number): { status: 503; headers: Record<string, string>; body: string } {
  const message = `Server busy: the ${domain} server is handling as many requests as it can right now. Retry after ${retryAfterSeconds} s.`;
  return {
    status: 503,
    headers: { "content-type": "application/json", "retry-after": String(retryAfterSeconds) },
    body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: JSONRPC.SERVER_BUSY, message } }),
  };
}
