// A fair share per person (http/share.ts), served the way Cloud Run serves a function (the Functions
// framework, one process, concurrent requests), with real MCP clients signed in as two people: one
// account holding its whole share of held requests (waits, as fotos captures and figma polls are)
// does not stop another person's calls from being answered, and its own requests past the share
// are refused at once with a sentence, not queued. Outcomes only, no timings.
import { once, EventEmitter } from "node:events";
import type { AddressInfo } from "node:net";
import type { Server } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import { z } from "zod";
import { http } from "@google-cloud/functions-framework";
import { getTestServer } from "@google-cloud/functions-framework/testing";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { SIGNED_IN } from "../../functions/src/auth/policy.js";
import { defineDomain, tool } from "../../functions/src/mcp/define.js";
import { createUser, type TestUser } from "../support/emulators.js";

const events = new EventEmitter();

const sharingDomain = defineDomain({
  name: "sharing",
  title: "Sharing",
  description: "A signed-in domain whose one tool holds its request until the test releases it.",
  instructions: "",
  access: SIGNED_IN,
  tools: [
    tool(
      {
        name: "hold",
        title: "Hold",
        description: "Holds the request until released.",
        inputSchema: z.object({ doc: z.string() }),
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      async ({ doc }, ctx) => {
        // Held until the test releases it (or the client leaves): no timer, no outside service.
        const released = new Promise<void>((resolve) => {
          const on = (d: string) => d === doc && (events.off("release", on), resolve());
          events.on("release", on);
          ctx.signal.addEventListener("abort", () => (events.off("release", on), resolve()), { once: true });
        });
        events.emit("started", doc);
        await released;
        return "done";
      },
    ),
    tool({ name: "ping", title: "Ping", description: "Answers at once.", inputSchema: z.object({}), annotations: { readOnlyHint: true, openWorldHint: false } }, async () => "pong"),
  ],
});

let server: Server;
let url: URL;
let alice: TestUser;
let bob: TestUser;
const clients: Client[] = [];

beforeAll(async () => {
  // The people sign in with Firebase ID tokens, which a function accepts only where the deployment
  // says so (read when the verifier loads: the endpoint is imported after this).
  process.env.ACCEPT_ID_TOKENS = "on";
  const { serveDomain } = await import("../../functions/src/http/endpoint.js");
  // Four requests at once on this instance, no queue; each person at most two of them.
  process.env.SHARING_MAX_IN_FLIGHT = "4";
  process.env.SHARING_MAX_QUEUED = "0";
  process.env.SHARING_MAX_PER_PERSON = "2";
  process.env.SHARING_RETRY_AFTER_SECONDS = "3";
  http("sharing", serveDomain("sharing", async () => ({ default: sharingDomain })));
  server = getTestServer("sharing");
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
  [alice, bob] = await Promise.all([createUser(), createUser()]);
});

afterAll(async () => {
  delete process.env.ACCEPT_ID_TOKENS;
  await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
  server?.close();
  server?.closeAllConnections?.();
});

async function clientOf(user: TestUser): Promise<Client> {
  const client = new Client({ name: "fair-share-tests", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${user.token}` } } }));
  clients.push(client);
  return client;
}

const startedCount = (n: number, prefix: string) =>
  new Promise<string[]>((resolve) => {
    const seen: string[] = [];
    const on = (d: string) => {
      if (!d.startsWith(prefix)) return;
      seen.push(d);
      if (seen.length === n) events.off("started", on), resolve(seen);
    };
    events.on("started", on);
  });

test("one account holding its whole share: its next calls are refused with a sentence, while another person's calls are answered", async () => {
  const a = await clientOf(alice);
  const b = await clientOf(bob);
  const run = `held-${Date.now()}-`;
  const twoHeld = startedCount(2, run);
  // Alice asks for the whole instance (four held requests): two are held, two refused at once.
  const calls = [0, 1, 2, 3].map((i) => a.callTool({ name: "hold", arguments: { doc: `${run}${i}` } }).then((r) => ({ ok: r }), (err: Error) => ({ err })));
  const held = await twoHeld;
  const refused = await Promise.all(calls.filter((_, i) => !held.includes(`${run}${i}`)));
  expect(refused).toHaveLength(2);
  for (const r of refused) {
    expect("err" in r && r.err.message).toMatch(/Too many requests at once: You have 2 requests in progress on the sharing server, the most one person may have at once\. Wait for one to finish, or retry after 3 s\./);
  }
  // Bob is answered, more than once, while Alice's two are still held.
  for (let i = 0; i < 3; i++) expect(await b.callTool({ name: "ping", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "pong" }] });
  // A raw request from Alice past her share: 429 with Retry-After.
  const raw = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${alice.token}`, "mcp-protocol-version": "2026-07-28" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });
  expect(raw.status).toBe(429);
  expect(raw.headers.get("retry-after")).toBe("3");
  // Her held requests finish; her share is free again.
  for (const doc of held) events.emit("release", doc);
  const done = await Promise.all(calls.filter((_, i) => held.includes(`${run}${i}`)));
  for (const r of done) expect(r).toMatchObject({ ok: { content: [{ type: "text", text: "done" }] } });
  expect(await a.callTool({ name: "ping", arguments: {} })).toMatchObject({ content: [{ type: "text", text: "pong" }] });
}, 120_000);
