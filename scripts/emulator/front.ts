// The local stand-in for Cloud Run's front end: `npm start` serves the functions through it.
// The Functions emulator has no concurrency: it starts one worker process per request in flight,
// so a burst of 50 clients became ~50 processes loading at once on a laptop's cores, answers took
// up to a minute, and a request whose process had not loaded within 30 s was dropped without any
// answer (firebase-tools logs "Failed to load function" and never responds). Like Cloud Run in
// front of an instance, this bounds the requests each function has in flight (so the emulator
// never starts more processes than that), lets the next ones wait briefly for a slot, answers the
// rest at once with 503 + Retry-After, and answers 504 when a function has not responded within
// its timeout. Everything else passes through unchanged (the Host header too: the functions build
// their own URLs, e.g. OAuth metadata, from it).
import { createServer, request, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FrontBound {
  /** Requests of the function in flight at once (= emulator worker processes it may have busy). */
  maxInFlight: number;
  /** How long a request may wait for a slot before it is answered busy. */
  maxWaitMs: number;
  retryAfterSeconds: number;
}

/**
 * Per function, sized for a laptop running everything: a few processes per function keep a burst's
 * start-up CPU bounded; waiting requests reuse the warm ones. Idle waits (plugin long-polls,
 * captures waiting for the desktop agent) cost a process but no CPU: more of those.
 */
export const FRONT_BOUNDS: Record<string, FrontBound> = {
  dermal: { maxInFlight: 4, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  knowledge: { maxInFlight: 4, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  mermaid: { maxInFlight: 2, maxWaitMs: 5_000, retryAfterSeconds: 3 },
  oauth: { maxInFlight: 4, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  figma: { maxInFlight: 24, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  fotos: { maxInFlight: 16, maxWaitMs: 10_000, retryAfterSeconds: 2 },
};
const OTHER: FrontBound = { maxInFlight: 4, maxWaitMs: 10_000, retryAfterSeconds: 2 };

export interface FrontOptions {
  /** The Functions emulator, host:port. */
  upstream: string;
  port: number;
  host?: string;
  bounds?: Record<string, FrontBound>;
  /** Each function's timeoutSeconds (index.ts); a function not listed gets defaultTimeoutSeconds. */
  timeoutSeconds?: Record<string, number>;
  defaultTimeoutSeconds?: number;
}

export interface Front {
  /** http://host:port of the front; functions are at <url>/<project>/<region>/<function>. */
  url: string;
  /** Requests in flight per function (tests). */
  inFlight(fn: string): number;
  close(): Promise<void>;
}

/** A counting semaphore with a FIFO of waiters, each with a deadline. */
class Slots {
  private used = 0;
  private waiting: Array<(admitted: boolean) => void> = [];
  constructor(readonly bound: FrontBound) {}

  get inFlight(): number {
    return this.used;
  }

  acquire(gone: AbortSignal): Promise<boolean> {
    if (this.used < this.bound.maxInFlight) {
      this.used++;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const settle = (admitted: boolean) => {
        clearTimeout(timer);
        gone.removeEventListener("abort", leave);
        this.waiting = this.waiting.filter((w) => w !== settle);
        resolve(admitted);
      };
      const leave = () => settle(false);
      const timer = setTimeout(leave, this.bound.maxWaitMs);
      gone.addEventListener("abort", leave, { once: true });
      this.waiting.push(settle);
    });
  }

  release(): void {
    const next = this.waiting[0];
    if (next) next(true); // the slot passes straight to the longest waiter
    else this.used--;
  }
}

// Hop-by-hop headers are the connection's own, never forwarded (RFC 9110 §7.6.1).
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "te", "trailer"]);
function forwardable(headers: IncomingMessage["headers"]): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k)));
}

function sendError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // The same shape the functions answer with (http/jsonrpc.ts): -32000 busy, -32603 otherwise.
  const code = status === 503 ? -32000 : -32603;
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

export async function startFront(options: FrontOptions): Promise<Front> {
  const [upstreamHost, upstreamPort] = options.upstream.split(":") as [string, string];
  const bounds = { ...FRONT_BOUNDS, ...options.bounds };
  const slots = new Map<string, Slots>();
  // Unknown names (the emulator answers them 404) share one bound: paths cannot grow this map.
  const slotsFor = (fn: string) => {
    const key = bounds[fn] ? fn : "(other)";
    return slots.get(key) ?? slots.set(key, new Slots(bounds[key] ?? OTHER)).get(key)!;
  };

  const server = createServer(async (req, res) => {
    // /<project>/<region>/<function>[/…]: the emulator's URL scheme.
    const fn = /^\/[^/?]+\/[^/?]+\/([^/?]+)/.exec(req.url ?? "")?.[1];
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    const gate = fn ? slotsFor(fn) : undefined;
    if (gate && !(await gate.acquire(gone.signal))) {
      const wait = gate.bound.retryAfterSeconds;
      if (!gone.signal.aborted) sendError(res, 503, `Server busy: the ${fn} server is handling as many requests as it can right now. Retry after ${wait} s.`, { "retry-after": String(wait) });
      req.resume();
      return;
    }
    const timeoutS = (fn && options.timeoutSeconds?.[fn]) || options.defaultTimeoutSeconds || 60;
    let released = false;
    // The slot is held until the emulator's worker is done, not until the client leaves: the
    // emulator does not pass a disconnect on, so its worker stays busy until the handler ends.
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      gate?.release();
    };
    const upstream = request({ host: upstreamHost, port: Number(upstreamPort), method: req.method, path: req.url, headers: forwardable(req.headers) }, (answer) => {
      if (!gone.signal.aborted && !res.headersSent) res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
      answer.on("data", (chunk: Buffer) => void (gone.signal.aborted || res.write(chunk)));
      answer.on("end", () => {
        release();
        if (!gone.signal.aborted) res.end();
      });
      answer.on("error", () => (release(), res.destroy()));
    });
    upstream.on("error", () => {
      release();
      sendError(res, 502, `Could not reach the Functions emulator for ${fn ?? "this path"}; is it still running? Retry in a few seconds.`);
    });
    const timer = setTimeout(() => {
      upstream.destroy();
      release();
      sendError(res, 504, `The ${fn ?? "function"} function did not answer within ${timeoutS} s (on the emulator: it may not have been able to start). Retry; the emulator's log says more.`);
    }, timeoutS * 1000);
    req.pipe(upstream);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    inFlight: (fn) => slots.get(fn)?.inFlight ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
