// A domain served the way Cloud Run serves it (the Functions framework, one process, concurrent
// requests), with a real MCP client: a 2026-07-28 client that aborts its request cancels the
// handler (ctx.signal fires, a Firestore wait ends at once and frees its slot), and past the
// instance's bound a request is answered 503 + Retry-After at once. Outcomes only, no timings.
import { once, EventEmitter } from "node:events";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { http } from "@google-cloud/functions-framework";
import { getTestServer } from "@google-cloud/functions-framework/testing";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { OPEN } from "../../functions/src/auth/policy.js";
import { defineDomain, tool } from "../../functions/src/mcp/define.js";
import { serveDomain } from "../../functions/src/http/endpoint.js";
import { firestore } from "../../functions/src/platform/firebase.js";
import { waitFor, WaitCancelled } from "../../functions/src/platform/wait.js";
import { adminDb } from "../support/emulators.js";

const events = new EventEmitter();
const WAITS = "reliabilityWaits";

const waitingDomain = defineDomain({
  name: "waiting",
  title: "Waiting",
  description: "A domain whose one tool waits for a Firestore document, as fotos and figma do.",
  instructions: "",
  access: OPEN,
  tools: [
    tool(
      {
        name: "wait_for_doc",
        title: "Wait for a document",
        description: "Waits until the document's done field is true.",
        inputSchema: z.object({ doc: z.string() }),
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async ({ doc }, ctx) => {
        events.emit("started", doc);
        try {
          await waitFor(firestore().collection(WAITS).doc(doc), (s) => s.get("done") === true, {
            signal: ctx.signal,
            timeoutMs: 120_000,
            timeoutMessage: "The document was not done within 120 s; try again",
          });
          return "done";
        } catch (err) {
          if (err instanceof WaitCancelled) events.emit("cancelled", doc);
          throw err;
        }
      },
    ),
  ],
});

let server: Server;
let url: URL;
const clients: Client[] = [];

beforeAll(async () => {
  // One request at a time and no queue: the second concurrent request must be shed.
  process.env.WAITING_MAX_IN_FLIGHT = "1";
  process.env.WAITING_MAX_QUEUED = "0";
  process.env.WAITING_RETRY_AFTER_SECONDS = "3";
  http("waiting", serveDomain("waiting", async () => ({ default: waitingDomain })));
  server = getTestServer("waiting");
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  server?.close();
  server?.closeAllConnections?.();
});

async function modernClient(): Promise<Client> {
  const client = new Client({ name: "reliability-tests", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(url));
  clients.push(client);
  return client;
}

const started = (doc: string) =>
  new Promise<void>((resolve) => {
    const on = (d: string) => d === doc && (events.off("started", on), resolve());
    events.on("started", on);
  });
const cancelled = (doc: string) =>
  new Promise<void>((resolve) => {
    const on = (d: string) => d === doc && (events.off("cancelled", on), resolve());
    events.on("cancelled", on);
  });

const listTools = () =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });

describe("served as on Cloud Run", () => {
  test("a Firestore wait ends when its document is done", async () => {
    const client = await modernClient();
    const doc = `done-${Date.now()}`;
    const running = started(doc);
    const call = client.callTool({ name: "wait_for_doc", arguments: { doc } });
    await running;
    await adminDb().collection(WAITS).doc(doc).set({ done: true });
    expect(await call).toMatchObject({ content: [{ type: "text", text: "done" }] });
  });

  test("a 2026-07-28 client that aborts its request cancels the handler, and the slot is free again", async () => {
    const client = await modernClient();
    const doc = `abort-${Date.now()}`;
    const running = started(doc);
    const wasCancelled = cancelled(doc);
    const controller = new AbortController();
    const call = client.callTool({ name: "wait_for_doc", arguments: { doc } }, { signal: controller.signal }).catch((e: Error) => e);
    await running;
    controller.abort();
    await wasCancelled; // ctx.signal fired: the wait (120 s) ended now
    expect(await call).toBeInstanceOf(Error);
    // The only slot was released: the next request is served.
    expect((await listTools()).status).toBe(200);
  });

  test("past the instance's bound a request is answered 503 with Retry-After at once, and served again after", async () => {
    const client = await modernClient();
    const doc = `busy-${Date.now()}`;
    const running = started(doc);
    const call = client.callTool({ name: "wait_for_doc", arguments: { doc } });
    await running; // the one slot is taken
    const busy = await listTools();
    expect(busy.status).toBe(503);
    expect(busy.headers.get("retry-after")).toBe("3");
    expect(await busy.json()).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: -32000, message: "Server busy: the waiting server is handling as many requests as it can right now. Retry after 3 s." },
    });
    // /healthz never waits behind the gate.
    expect((await fetch(new URL("healthz", url))).status).toBe(200);
    await adminDb().collection(WAITS).doc(doc).set({ done: true });
    await call;
    expect((await listTools()).status).toBe(200);
  });
});
