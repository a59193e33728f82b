// The front `npm start` serves the functions through (scripts/emulator/front.ts), against a stand-in
// for a function's instance that holds each request until the test lets it go: what is tested is
// the front's routing, bound, wait, busy answer, timeout and cancellation, and that it passes
// everything else through. (start.test.ts connects real MCP clients through it to the real instances.)
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, test } from "vitest";
import { startFront, type Front } from "../../scripts/emulator/front.js";
import { localFunctionPath, REGION } from "../../functions/src/core/where.js";

interface Held {
  req: IncomingMessage;
  res: ServerResponse;
  body: string;
}

/** The emulator's stand-in: records each request and holds it until answered by the test. */
async function holdingUpstream(): Promise<{ host: string; held: Held[]; server: Server; arrived(n: number): Promise<void> }> {
  const held: Held[] = [];
  const waiters: Array<() => void> = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      held.push({ req, res, body });
      waiters.splice(0).forEach((w) => w());
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const arrived = async (n: number) => {
    while (held.length < n) await new Promise<void>((r) => waiters.push(r));
  };
  return { host: `127.0.0.1:${(server.address() as AddressInfo).port}`, held, server, arrived };
}

const cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function setup(bound: { maxInFlight: number; maxWaitMs: number; maxQueued?: number }, timeoutSeconds = 60) {
  const upstream = await holdingUpstream();
  cleanup.push(() => new Promise<void>((r) => (upstream.server.closeAllConnections(), upstream.server.close(() => r()))));
  const front: Front = await startFront({ upstreams: { dermal: upstream.host }, port: 0, bounds: { dermal: { maxQueued: 100, ...bound, retryAfterSeconds: 3 } }, timeoutSeconds: { dermal: timeoutSeconds } });
  cleanup.push(() => front.close());
  const url = `${front.url}${localFunctionPath("demo-mcp-suite", "dermal")}`;
  return { upstream, front, url };
}

const post = (url: string, body: string, signal?: AbortSignal, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", "x-test": "kept", ...headers }, body, signal });

async function until(check: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 20_000; !check(); await new Promise((r) => setTimeout(r, 10))) if (Date.now() > end) throw new Error(`gave up waiting for: ${what}`);
}

test("requests pass through unchanged to the function's instance: method, path under the function, query, headers, Host, body, status and answer", async () => {
  const { upstream, front, url } = await setup({ maxInFlight: 2, maxWaitMs: 1_000 });
  const answer = post(`${url}/some/route?x=1`, '{"jsonrpc":"2.0","id":1,"method":"ping"}');
  await upstream.arrived(1);
  const { req, res, body } = upstream.held[0]!;
  expect(req.method).toBe("POST");
  // The path the function sees on Cloud Run: under its own URL.
  expect(req.url).toBe("/some/route?x=1");
  expect(req.headers["x-test"]).toBe("kept");
  // The functions build their own URLs (OAuth metadata, the figma plugin's) from the Host header.
  expect(req.headers.host).toBe(new URL(front.url).host);
  expect(body).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  // The caller's address is appended, as Google's front end does (the functions read the last).
  expect(req.headers["x-forwarded-for"]).toBe("127.0.0.1");
  res.writeHead(201, { "content-type": "application/json", "x-request-id": "abc" });
  res.end('{"ok":true}');
  const got = await answer;
  expect(got.status).toBe(201);
  expect(got.headers.get("x-request-id")).toBe("abc");
  expect(await got.text()).toBe('{"ok":true}');
});

test("past the bound a request waits for a slot; past its wait it is answered busy with Retry-After (the instance's own busy answer), and the instance never sees more than the bound", async () => {
  const { upstream, front, url } = await setup({ maxInFlight: 2, maxWaitMs: 300 });
  const first = [post(url, "1"), post(url, "2")];
  await upstream.arrived(2);
  const refused = await Promise.all([post(url, "3"), post(url, "4"), post(url, "5")]);
  for (const r of refused) {
    expect(r.status).toBe(503);
    expect(r.headers.get("retry-after")).toBe("3");
    expect(await r.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "Server busy: the dermal server is handling as many requests as it can right now. Retry after 3 s." },
    });
  }
  expect(upstream.held).toHaveLength(2);
  expect(front.inFlight("dermal")).toBe(2);
  for (const h of upstream.held) h.res.end("done");
  for (const r of await Promise.all(first)) expect(r.status).toBe(200);
  expect(front.inFlight("dermal")).toBe(0);
});

test("a waiting request gets the slot as soon as one frees, in arrival order", async () => {
  const { upstream, front, url } = await setup({ maxInFlight: 1, maxWaitMs: 60_000 });
  const a = post(url, "a");
  await upstream.arrived(1);
  const b = post(url, "b");
  await until(() => front.waiting("dermal") === 1, "b waiting");
  const c = post(url, "c");
  await until(() => front.waiting("dermal") === 2, "c waiting");
  expect(upstream.held.map((h) => h.body)).toEqual(["a"]);
  upstream.held[0]!.res.end("A");
  await upstream.arrived(2);
  expect(upstream.held.map((h) => h.body)).toEqual(["a", "b"]);
  upstream.held[1]!.res.end("B");
  await upstream.arrived(3);
  upstream.held[2]!.res.end("C");
  expect(await Promise.all([a, b, c].map(async (r) => (await r).text()))).toEqual(["A", "B", "C"]);
});

test("a function that does not answer within its timeout gets a 504 sentence; its request is closed and its slot free again", async () => {
  const { upstream, front, url } = await setup({ maxInFlight: 1, maxWaitMs: 60_000 }, 1);
  const res = await post(url, "slow");
  expect(res.status).toBe(504);
  expect((await res.json()) as unknown).toMatchObject({ error: { code: -32603, message: "The dermal function did not answer within 1 s. Retry; its log (npm start: .local/functions.log) says more." } });
  // The function's request is closed (its handler sees the client gone) and the slot is free.
  await until(() => upstream.held[0]!.res.destroyed || upstream.held[0]!.req.destroyed, "the function's request closed");
  expect(front.inFlight("dermal")).toBe(0);
  const next = post(url, "next");
  await upstream.arrived(2);
  upstream.held[1]!.res.end("ok");
  expect(await (await next).text()).toBe("ok");
});

test("past the queue bound a request is answered busy at once, without waiting", async () => {
  const { upstream, front, url } = await setup({ maxInFlight: 1, maxWaitMs: 600_000, maxQueued: 1 });
  const first = post(url, "1");
  await upstream.arrived(1);
  const queued = post(url, "2");
  await until(() => front.waiting("dermal") === 1, "one waiting");
  // The wait is ten minutes: only the queue bound can answer this one now.
  const refused = await post(url, "3", undefined, { origin: "https://inspector.example" });
  expect(refused.status).toBe(503);
  expect(refused.headers.get("retry-after")).toBe("3");
  // A browser client can read the front's own answers.
  expect(refused.headers.get("access-control-allow-origin")).toBe("https://inspector.example");
  expect(refused.headers.get("access-control-expose-headers")).toContain("retry-after");
  upstream.held[0]!.res.end("1");
  await upstream.arrived(2);
  upstream.held[1]!.res.end("2");
  expect(await Promise.all([first, queued].map(async (r) => (await r).text()))).toEqual(["1", "2"]);
});

test("health checks never wait behind the bound", async () => {
  const { upstream, url } = await setup({ maxInFlight: 1, maxWaitMs: 600_000, maxQueued: 0 });
  const busy = post(url, "busy");
  await upstream.arrived(1);
  const health = fetch(`${url}/healthz`);
  await upstream.arrived(2);
  expect(upstream.held[1]!.req.url).toBe("/healthz");
  upstream.held[1]!.res.end("ok");
  expect((await health).status).toBe(200);
  upstream.held[0]!.res.end("done");
  await busy;
});

test("a chunked body on any method arrives whole; headers the Connection header names are dropped", async () => {
  const { upstream, url } = await setup({ maxInFlight: 2, maxWaitMs: 1_000 });
  const { request } = await import("node:http");
  const target = new URL(url);
  const sent = new Promise<number>((resolve, reject) => {
    const r = request({ host: target.hostname, port: target.port, path: target.pathname, method: "DELETE", headers: { connection: "keep-alive, x-hop", "x-hop": "secret", "transfer-encoding": "chunked" } }, (res) => (res.resume(), resolve(res.statusCode!)));
    r.on("error", reject);
    r.write("part one, ");
    r.end("part two");
  });
  await upstream.arrived(1);
  expect(upstream.held[0]!.body).toBe("part one, part two");
  expect(upstream.held[0]!.req.headers["x-hop"]).toBeUndefined();
  upstream.held[0]!.res.end();
  expect(await sent).toBe(200);
});

test("a client that leaves in the middle of its upload frees its slot at once", async () => {
  const { upstream, front, url } = await setup({ maxInFlight: 1, maxWaitMs: 60_000 });
  const { request } = await import("node:http");
  const target = new URL(url);
  const r = request({ host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers: { "content-length": "1000000" } });
  r.on("error", () => undefined);
  r.write("x".repeat(1000));
  await until(() => front.inFlight("dermal") === 1, "the upload admitted");
  r.destroy();
  await until(() => front.inFlight("dermal") === 0, "the slot freed");
  expect(upstream.held).toHaveLength(0); // the instance never got a whole request to work on
});

test("a client that leaves is passed on: the function's request is closed (its handler is cancelled) and the slot is free at once", async () => {
  const { upstream, front, url } = await setup({ maxInFlight: 1, maxWaitMs: 60_000 });
  const leaving = new AbortController();
  const gone = post(url, "x", leaving.signal).catch(() => undefined);
  await upstream.arrived(1);
  const closed = new Promise<void>((r) => upstream.held[0]!.res.once("close", () => r()));
  leaving.abort();
  await gone;
  await closed;
  await until(() => front.inFlight("dermal") === 0, "the slot freed");
  const next = post(url, "next");
  await upstream.arrived(2);
  upstream.held[1]!.res.end("ok");
  expect((await next).status).toBe(200);
});

test("a path that names no served function gets a 404 sentence listing the functions", async () => {
  const { front, upstream } = await setup({ maxInFlight: 1, maxWaitMs: 1_000 });
  for (const path of [localFunctionPath("demo-mcp-suite", "nosuch"), localFunctionPath("demo-mcp-suite", "__proto__"), "/favicon.ico"]) {
    const res = await fetch(`${front.url}${path}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(`No function at ${path}: this server has dermal, at /<project>/${REGION}/<function>.`);
  }
  expect(upstream.held).toHaveLength(0);
});

test("the instance gone (being started again): 503 with Retry-After and what happened, no stack", async () => {
  const { upstream, url } = await setup({ maxInFlight: 1, maxWaitMs: 1_000 });
  await new Promise<void>((r) => upstream.server.close(() => r()));
  const res = await post(url, "x");
  expect(res.status).toBe(503);
  expect(res.headers.get("retry-after")).toBe("2");
  expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
    "The dermal function's local instance is not answering (it stopped and is being started again; its log says why). Retry after 2 s.",
  );
});
