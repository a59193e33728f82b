// Bodies over their limit are refused before they are read: functions served as Cloud Run serves
// them (the Functions framework, one process per function, as `npm start` runs them) are sent a
// request declaring 200 MB, trickled, and must answer 413 while the client still has almost all
// of it to write; a chunked body with no declared length is cut off once it passes the limit.
// Requests within a limit (the MCP endpoint's 1 MB, a route's own larger one) are served as before.
// Each client stops writing after a few MB and waits: without the guard no answer would come.
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startInstances, type Instances } from "../../scripts/emulator/instances.js";
import { startFront, type Front } from "../../scripts/emulator/front.js";
import { localFunctionPath } from "../../functions/src/core/where.js";

const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, "x");
/** What a client sends before it stops and waits, well past the 1 MB limit of mermaid's MCP endpoint. */
const SENT_AT_MOST = 4 * MB;

let served: Instances;
let front: Front;

beforeAll(async () => {
  served = await startInstances(["mermaid", "fotos"], { log: process.stderr });
  front = await startFront({ upstreams: served.hosts, port: 0, bounds: {} });
}, 600_000);

afterAll(async () => {
  await front?.close();
  await served?.close();
});

interface Outcome {
  status: number;
  text: string;
  /** Body bytes the client had written when the answer came. */
  sentBeforeAnswer: number;
  /** The server closed the connection. */
  closed: Promise<void>;
}

/**
 * Writes `head`, then the body in 64 KB chunks on a timer (chunked framing when `chunked`) until
 * the answer's first bytes arrive or SENT_AT_MOST is written; resolves with the answer.
 */
function trickle(host: string, head: string, chunked: boolean): Promise<Outcome> {
  const [hostname, port] = host.split(":");
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(port), hostname!);
    let sent = 0;
    let answeredAt: number | undefined;
    let answer = "";
    const closed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.on("error", () => {}); // writes after the server closed fail: expected
    const timer = setInterval(() => {
      if (answeredAt !== undefined || sent >= SENT_AT_MOST || socket.destroyed) return clearInterval(timer);
      socket.write(chunked ? Buffer.concat([Buffer.from(`${CHUNK.length.toString(16)}\r\n`), CHUNK, Buffer.from("\r\n")]) : CHUNK);
      sent += CHUNK.length;
    }, 10);
    socket.on("data", (data) => {
      answeredAt ??= sent;
      answer += data.toString("utf8");
      const end = answer.indexOf("\r\n\r\n");
      const length = /content-length: (\d+)/i.exec(answer)?.[1];
      if (end >= 0 && length && answer.length >= end + 4 + Number(length)) {
        clearInterval(timer);
        resolve({ status: Number(answer.split(" ")[1]), text: answer.slice(end + 4), sentBeforeAnswer: answeredAt, closed });
      }
    });
    socket.once("close", () => {
      clearInterval(timer);
      reject(new Error(`closed without a full answer after ${sent} bytes: ${answer.slice(0, 200)}`));
    });
    socket.write(head);
  });
}

const mcpHead = (host: string, path: string, length: string) =>
  `POST ${path} HTTP/1.1\r\nHost: ${host}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\n${length}\r\n`;
const DECLARED = 200 * MB;

describe.each([
  ["the function's instance (Cloud Run's framework)", () => served.hosts.mermaid!, "/"],
  ["npm start's front", () => front.url.replace(/^http:\/\//, ""), localFunctionPath("demo-mcp-suite", "mermaid")],
])("through %s", (_, hostOf, root) => {
  test("a body declared at 200 MB is answered 413 before it is sent, and the connection is closed", async () => {
    const host = hostOf();
    const outcome = await trickle(host, mcpHead(host, root, `content-length: ${DECLARED}\r\n`), false);
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.text).error.message).toMatch(/Request body too large: 200\.0 MB; this server accepts at most 1\.0 MB per request\./);
    expect(outcome.sentBeforeAnswer).toBeLessThanOrEqual(SENT_AT_MOST);
    await outcome.closed; // the server ends the connection; the client never sends the rest
  });

  test("a chunked body is cut off past the limit with 413", async () => {
    const host = hostOf();
    const outcome = await trickle(host, mcpHead(host, root, "transfer-encoding: chunked\r\n"), true);
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.text).error.message).toMatch(/Request body too large: more than 1\.0 MB; this server accepts at most 1\.0 MB per request\./);
    expect(outcome.sentBeforeAnswer).toBeLessThanOrEqual(SENT_AT_MOST);
    await outcome.closed;
  });
});

describe("requests within their limit are served as before", () => {
  const list = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };

  test("an MCP call with a declared length", async () => {
    const res = await fetch(`http://${served.hosts.mermaid}/`, { method: "POST", headers, body: list });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"verify"');
  });

  test("an MCP call sent chunked", async () => {
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(list));
        c.close();
      },
    });
    const res = await fetch(`http://${served.hosts.mermaid}/`, { method: "POST", headers, body, duplex: "half" } as RequestInit);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('"verify"');
  });

  test("a route with a larger limit takes a body over the MCP endpoint's 1 MB (fotos' upload, 25 MB)", async () => {
    const res = await fetch(`http://${served.hosts.fotos}/screenshots`, { method: "POST", headers: { "content-type": "image/png" }, body: Buffer.alloc(2 * MB) });
    // Past the size check: refused for its missing credential, not its size.
    expect(res.status).toBe(401);
  });

  test("the same route refuses a body over its own limit before it is read", async () => {
    const host = served.hosts.fotos!;
    const outcome = await trickle(host, `POST /screenshots HTTP/1.1\r\nHost: ${host}\r\ncontent-type: image/png\r\ncontent-length: ${DECLARED}\r\n\r\n`, false);
    expect(outcome.status).toBe(413);
    expect(JSON.parse(outcome.text).error.message).toMatch(/at most 25\.0 MB per request/);
  });
});
