// `initialize` is the 2025-era handshake. Protocol 2026-07-28 removed it: sent in a 2026-07-28
// request (the per-request `_meta` envelope), it is a method the server does not implement, which
// the spec answers with HTTP 404 and JSON-RPC -32601 (the conformance suite's
// sep-2575-http-server-method-not-found-404-initialize). A 2025-era client's handshake still works,
// and a malformed one is still told what is missing.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { createUser, type TestUser } from "../support/emulators.js";
import { connect, rawPost } from "../support/mcp.js";
import { MCP_FUNCTIONS, SIGNED_IN_FUNCTIONS } from "../../functions/src/core/manifest.js";

const DOMAINS = MCP_FUNCTIONS;
const OPEN = new Set<string>(MCP_FUNCTIONS.filter((d) => !(SIGNED_IN_FUNCTIONS as string[]).includes(d)));
const MODERN = "2026-07-28";

let user: TestUser;
const clients: Client[] = [];
beforeAll(async () => {
  user = await createUser();
});
afterAll(async () => Promise.all(clients.map((c) => c.close())));

const auth = (domain: string): Record<string, string> => (OPEN.has(domain) ? {} : { authorization: `Bearer ${user.token}` });

const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "initialize-test", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

describe.each(DOMAINS)("%s", (domain) => {
  test("initialize in a 2026-07-28 request: 404 with -32601 method not found, the request's id echoed", async () => {
    const res = await rawPost(domain, JSON.stringify({ jsonrpc: "2.0", id: 7, method: "initialize", params: { _meta: envelope } }), {
      ...auth(domain),
      "mcp-protocol-version": MODERN,
      "mcp-method": "initialize",
    });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { id: unknown; error?: { code: number; message: string } };
    expect(body.id).toBe(7);
    expect(body.error?.code).toBe(-32601);
    expect(body.error?.message).toMatch(/method not found/i);
  });

  test("initialize with the 2025-era params and the 2026-07-28 envelope: still the removed method", async () => {
    const params = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" }, _meta: envelope };
    const res = await rawPost(domain, JSON.stringify({ jsonrpc: "2.0", id: 8, method: "initialize", params }), {
      ...auth(domain),
      "mcp-protocol-version": MODERN,
      "mcp-method": "initialize",
    });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error?: { code: number } }).error?.code).toBe(-32601);
  });

  test("a 2025-era client still connects with initialize and lists tools", async () => {
    const client = await connect(domain, { era: "legacy", ...(OPEN.has(domain) ? {} : { token: user.token }) });
    clients.push(client);
    expect(client.getServerVersion()?.name).toMatch(new RegExp(`^${domain}`));
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  });

  test("a 2025-era initialize without capabilities or clientInfo is still -32602, saying what is missing", async () => {
    const res = await rawPost(domain, JSON.stringify({ jsonrpc: "2.0", id: 9, method: "initialize", params: { protocolVersion: "2025-11-25" } }), auth(domain));
    expect(res.status).toBe(400);
    const body = (await res.json()) as { id: unknown; error?: { code: number; message: string } };
    expect(body.id).toBe(9);
    expect(body.error?.code).toBe(-32602);
    expect(body.error?.message).toMatch(/params\.capabilities must be an object.*params\.clientInfo must be an object/);
  });
});
