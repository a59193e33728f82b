// The local stand-in for Cloud Run's front end: `npm start` serves the functions through it.
// It routes /<project>/<region>/<function>[/…] to that function's instance (one process per
// function, scripts/emulator/instances.ts), with the path the function sees on Cloud Run. Like
// Cloud Run in front of an instance, it sends each function at most its declared concurrency at
// once, lets the next ones wait briefly (Cloud Run would start another instance; here there is
// one), and answers the rest with the same gate and busy answer as the instance itself
// (functions/src/http/gate.ts: 503 + Retry-After, JSON-RPC -32000). It answers 504 when a
// function has not responded within its timeoutSeconds. A client that leaves is passed on: the
// function's request is closed, so its handler is cancelled, as on Cloud Run. Health checks and
// CORS preflights are never held. Everything else passes through unchanged (the Host header too:
// the functions build their own URLs, e.g. OAuth metadata, from it), with the caller's address
// appended to X-Forwarded-For as Cloud Run's front end does.
import { createServer, request, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { busyAnswer, Gate, type GateOptions } from "../../functions/src/http/gate.js";
import type { ServingProfile } from "../../functions/src/http/capacity.js";
import { REGION } from "../../functions/src/core/where.js";

/** How long a request past one instance's concurrency may wait for it before the busy answer. */
const FRONT_WAIT_MS = 10_000;
/** What a call is told while a function's instance is down (Retry-After). */
const RESTART_RETRY_SECONDS = 2;

/** The front's bound for a function: what Cloud Run sends one instance, and as many waiting. */
export function frontBound(profile: ServingProfile): GateOptions {
  return { maxInFlight: profile.concurrency, maxQueued: profile.concurrency, maxWaitMs: FRONT_WAIT_MS, retryAfterSeconds: profile.gate.retryAfterSeconds };
}

export interface FrontOptions {
  /** Each function's instance, host:port. Other names are answered 404. */
  upstreams: Record<string, string>;
  port: number;
  host?: string;
  /** Each function's bound (frontBound of its profile). */
  bounds: Record<string, GateOptions>;
  /** Each function's timeoutSeconds (index.ts); a function not listed gets 60. */
  timeoutSeconds?: Record<string, number>;
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

function send(req: IncomingMessage, res: ServerResponse, answer: { status: number; headers: Record<string, string>; body: string }): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(answer.status, { ...answer.headers, ...corsFor(req) });
  res.end(answer.body);
}

/** The shape the functions answer other errors with (http/jsonrpc.ts): JSON-RPC -32603. */
function failure(status: number, message: string) {
  return { status, headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message } }) };
}

export async function startFront(options: FrontOptions): Promise<Front> {
  const gates = new Map<string, Gate>();
  // Only served functions get a gate (paths cannot grow this map); Cloud Run's default concurrency without a bound.
  const gateOf = (fn: string) => gates.get(fn) ?? gates.set(fn, new Gate(options.bounds[fn] ?? { maxInFlight: 80, maxQueued: 0, maxWaitMs: 0, retryAfterSeconds: 2 })).get(fn)!;

  const server = createServer(async (req, res) => {
    // /<project>/<region>/<function>[/…]: the emulator's URL scheme, kept for the printed URLs.
    const match = /^\/[^/?]+\/[^/?]+\/([^/?]+)(\/[^?]*)?(\?.*)?$/.exec(req.url ?? "");
    const fn = match?.[1];
    const upstream = fn && Object.hasOwn(options.upstreams, fn) ? options.upstreams[fn] : undefined;
    if (!match || !upstream) {
      req.resume();
      const names = Object.keys(options.upstreams).sort().join(", ");
      return send(req, res, failure(404, `No function at ${(req.url ?? "").split("?")[0]}: this server has ${names}, at /<project>/${REGION}/<function>.`));
    }
    const gate = gateOf(fn!);
    const path = `${match[2] ?? ""}${match[3] ?? ""}`;
    const gone = new AbortController();
    res.on("close", () => gone.abort());
    // Health checks and CORS preflights answer at once in the functions: they never queue here.
    const unbounded = req.method === "OPTIONS" || match[2]?.replace(/\/+$/, "") === "/healthz";
    const admission = unbounded ? undefined : await gate.enter(gone.signal);
    if (admission && !admission.admitted) {
      if (!gone.signal.aborted) send(req, res, busyAnswer(fn!, gate.options.retryAfterSeconds));
      req.resume();
      return;
    }
    const timeoutS = options.timeoutSeconds?.[fn!] ?? 60;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      admission?.release();
    };
    const headers = forwardable(req.headers);
    // As Google's front end does: the address the request came from is the last entry.
    const from = req.socket.remoteAddress ?? "";
    headers["x-forwarded-for"] = req.headers["x-forwarded-for"] ? `${req.headers["x-forwarded-for"]}, ${from}` : from;
    // A chunked body without a length: say so again (Node frames GET/DELETE/OPTIONS bodies only then).
    if (req.headers["transfer-encoding"] && req.headers["content-length"] === undefined) headers["transfer-encoding"] = "chunked";
    const [host, port] = upstream.split(":") as [string, string];
    const forward = request({ host, port: Number(port), method: req.method, path: path.startsWith("/") ? path : `/${path}`, headers }, (answer) => {
      answer.on("end", finish);
      answer.on("close", finish);
      answer.on("error", () => res.destroy());
      res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
      answer.pipe(res); // with backpressure; SSE and other streams pass chunk by chunk
    });
    forward.on("error", () => {
      const answered = done;
      finish();
      // Its process is being started again (instances.ts), as Cloud Run replaces an instance.
      const down = failure(503, `The ${fn} function's local instance is not answering (it stopped and is being started again; its log says why). Retry after ${RESTART_RETRY_SECONDS} s.`);
      if (!answered && !gone.signal.aborted) send(req, res, { ...down, headers: { ...down.headers, "retry-after": String(RESTART_RETRY_SECONDS) } });
    });
    // The client left (before or after its body): the function's request is closed too.
    gone.signal.addEventListener("abort", () => {
      if (res.writableFinished) return;
      finish();
      forward.destroy();
    });
    const timer = setTimeout(() => {
      send(req, res, failure(504, `The ${fn} function did not answer within ${timeoutS} s. Retry; its log (npm start: .local/functions.log) says more.`));
      finish();
      forward.destroy();
    }, timeoutS * 1000);
    req.pipe(forward);
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port, options.host ?? "127.0.0.1", () => resolve());
  });
  const { address, port } = server.address() as AddressInfo;
  return {
    url: `http://${address}:${port}`,
    inFlight: (fn) => gates.get(fn)?.load.inFlight ?? 0,
    waiting: (fn) => gates.get(fn)?.load.queued ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
