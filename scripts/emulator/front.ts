// The local stand-in for Cloud Run's front end: `npm start` serves the functions through it.
// The Functions emulator has no concurrency: it starts one worker process per request in flight,
// so a burst of 50 clients became ~50 processes loading at once on a laptop's cores, answers took
// up to a minute, and a request whose process had not loaded within 30 s was dropped without any
// answer (firebase-tools logs "Failed to load function" and never responds). Like Cloud Run in
// front of an instance, this bounds the requests each function has in flight (so the emulator
// never starts more processes than that), lets the next ones wait briefly for a slot, answers the
// rest at once with 503 + Retry-After, and answers 504 when a function has not responded within
// its timeout. Health checks and CORS preflights are never held. Everything else passes through
// unchanged (the Host header too: the functions build their own URLs, e.g. OAuth metadata, from
// it), with the caller's address appended to X-Forwarded-For as Cloud Run's front end does.
import { createServer, request, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface FrontBound {
  /** Requests of the function in flight at once (= emulator worker processes it may have busy). */
  maxInFlight: number;
  /** Requests that may wait for a slot; past that, busy at once. */
  maxQueued: number;
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
  dermal: { maxInFlight: 4, maxQueued: 16, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  knowledge: { maxInFlight: 4, maxQueued: 16, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  mermaid: { maxInFlight: 2, maxQueued: 4, maxWaitMs: 5_000, retryAfterSeconds: 3 },
  oauth: { maxInFlight: 4, maxQueued: 16, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  figma: { maxInFlight: 24, maxQueued: 8, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  fotos: { maxInFlight: 16, maxQueued: 8, maxWaitMs: 10_000, retryAfterSeconds: 2 },
};
const OTHER: FrontBound = { maxInFlight: 4, maxQueued: 8, maxWaitMs: 10_000, retryAfterSeconds: 2 };

export interface FrontOptions {
  /** The Functions emulator, host:port. */
  upstream: string;
  port: number;
  host?: string;
  bounds?: Record<string, FrontBound>;
  /** Each function's timeoutSeconds (index.ts); a function not listed gets defaultTimeoutSeconds. */
  timeoutSeconds?: Record<string, number>;
  defaultTimeoutSeconds?: number;
  /**
   * After a 504 the emulator's worker may still be running (it is not told): its slot is kept
   * until it answers, at most this long (default 30 s).
   */
  lingerSeconds?: number;
}

export interface Front {
  /** http://host:port of the front; functions are at <url>/<project>/<region>/<function>. */
  url: string;
  /** Requests in flight per function (tests). */
  inFlight(fn: string): number;
  /** Requests waiting for a slot per function (tests). */
  waiting(fn: string): number;
  close(): Promise<void>;
}

/** A counting semaphore with a bounded FIFO of waiters, each with a deadline. */
class Slots {
  private used = 0;
  readonly queue = new Set<(admitted: boolean) => void>(); // insertion order = arrival order
  constructor(readonly bound: FrontBound) {}

  get inFlight(): number {
    return this.used;
  }

  acquire(gone: AbortSignal): Promise<boolean> {
    if (this.used < this.bound.maxInFlight) {
      this.used++;
      return Promise.resolve(true);
    }
    if (this.queue.size >= this.bound.maxQueued) return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (admitted: boolean) => {
        clearTimeout(timer);
        gone.removeEventListener("abort", leave);
        this.queue.delete(settle);
        resolve(admitted);
      };
      const leave = () => settle(false);
      const timer = setTimeout(leave, this.bound.maxWaitMs);
      gone.addEventListener("abort", leave, { once: true });
      this.queue.add(settle);
    });
  }

  release(): void {
    const next = this.queue.values().next();
    if (!next.done) next.value(true); // the slot passes straight to the longest waiter
    else this.used--;
  }
}

// Hop-by-hop headers belong to one connection, never forwarded (RFC 9110 §7.6.1), nor the ones
// a Connection header names.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "transfer-encoding", "upgrade", "te", "trailer"]);
function forwardable(headers: IncomingMessage["headers"]): OutgoingHttpHeaders {
  const named = new Set(String(headers.connection ?? "").toLowerCase().split(",").map((h) => h.trim()));
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !HOP_BY_HOP.has(k) && !named.has(k)));
}

/** What the functions add for a browser (http/origin.ts), so a browser client can read the front's own errors. */
function corsFor(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return origin ? { "access-control-allow-origin": origin, "access-control-expose-headers": "retry-after, x-request-id", vary: "Origin" } : {};
}

function sendError(req: IncomingMessage, res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // The same shape the functions answer with (http/jsonrpc.ts): -32000 busy, -32603 otherwise.
  const code = status === 503 ? -32000 : -32603;
  res.writeHead(status, { "content-type": "application/json", ...corsFor(req), ...headers });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }));
}

export async function startFront(options: FrontOptions): Promise<Front> {
  const [upstreamHost, upstreamPort] = options.upstream.split(":") as [string, string];
  const bounds = new Map(Object.entries({ ...FRONT_BOUNDS, ...options.bounds }));
  const slots = new Map<string, Slots>();
  // Unknown names (the emulator answers them 404) share one bound: paths cannot grow this map.
  const slotsFor = (fn: string) => {
    const key = bounds.has(fn) ? fn : "(other)";
    return slots.get(key) ?? slots.set(key, new Slots(bounds.get(key) ?? OTHER)).get(key)!;
  };
  const lingerMs = (options.lingerSeconds ?? 30) * 1000;

  const server = createServer(async (req, res) => {
    // /<project>/<region>/<function>[/…]: the emulator's URL scheme.
    const match = /^\/[^/?]+\/[^/?]+\/([^/?]+)(\/[^?]*)?/.exec(req.url ?? "");
    const fn = match?.[1];
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    // Health checks and CORS preflights answer at once in the functions: they never queue here.
    const unbounded = req.method === "OPTIONS" || match?.[2]?.replace(/\/+$/, "") === "/healthz";
    const gate = fn && !unbounded ? slotsFor(fn) : undefined;
    if (gate && !(await gate.acquire(gone.signal))) {
      const wait = gate.bound.retryAfterSeconds;
      if (!gone.signal.aborted) sendError(req, res, 503, `Server busy: the ${fn} server is handling as many requests as it can right now. Retry after ${wait} s.`, { "retry-after": String(wait) });
      req.resume();
      return;
    }
    const timeoutS = (fn && options.timeoutSeconds?.[fn]) || options.defaultTimeoutSeconds || 60;
    let released = false;
    let timedOut = false;
    // The slot is held until the emulator's worker is done, not until the client leaves: the
    // emulator does not pass a disconnect on, so its worker stays busy until the handler ends.
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      clearTimeout(linger);
      gate?.release();
    };
    const headers = forwardable(req.headers);
    // As Google's front end does: the address the request came from is the last entry.
    const from = req.socket.remoteAddress ?? "";
    headers["x-forwarded-for"] = req.headers["x-forwarded-for"] ? `${req.headers["x-forwarded-for"]}, ${from}` : from;
    // A chunked body without a length: say so again (Node frames GET/DELETE/OPTIONS bodies only then).
    if (req.headers["transfer-encoding"] && req.headers["content-length"] === undefined) headers["transfer-encoding"] = "chunked";
    const upstream = request({ host: upstreamHost, port: Number(upstreamPort), method: req.method, path: req.url, headers }, (answer) => {
      answer.on("end", release);
      answer.on("close", release);
      answer.on("error", () => res.destroy());
      if (gone.signal.aborted || timedOut) {
        answer.resume(); // nobody to answer: read it to its end so the slot frees then
        return;
      }
      res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
      answer.pipe(res); // with backpressure; SSE and other streams pass chunk by chunk
      gone.signal.addEventListener("abort", () => (answer.unpipe(res), answer.resume()), { once: true });
    });
    upstream.on("error", () => {
      release();
      if (!timedOut) sendError(req, res, 502, `Could not reach the Functions emulator for ${fn ?? "this path"}; is it still running? Retry in a few seconds.`);
    });
    // The client left before its body was complete: the request can never be answered.
    req.on("close", () => {
      if (!req.complete) {
        upstream.destroy();
        release();
      }
    });
    let linger: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      sendError(req, res, 504, `The ${fn ?? "function"} function did not answer within ${timeoutS} s (on the emulator: it may not have been able to start). Retry; the emulator's log says more.`);
      linger = setTimeout(() => (upstream.destroy(), release()), lingerMs);
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
    waiting: (fn) => slots.get(fn)?.queue.size ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
