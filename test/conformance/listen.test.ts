// subscriptions/listen (2026-07-28): a client opens it right after connecting and keeps it open.
// Our lists never change while a server runs (and a per-request server could not announce a change),
// so no listChanged is declared and the stream is acknowledged and completed at once: it never holds
// one of the function's request slots, or an instance, for as long as the client stays connected.
import { beforeAll, describe, expect, test } from "vitest";
import { createUser, type TestUser } from "../support/emulators.js";
import { rawPost } from "../support/mcp.js";
import { MCP_FUNCTIONS, SIGNED_IN_FUNCTIONS } from "../../functions/src/core/manifest.js";

const DOMAINS = MCP_FUNCTIONS;
const signedIn = (domain: string) => (SIGNED_IN_FUNCTIONS as string[]).includes(domain);
const MODERN = "2026-07-28";
const envelope = {
  "io.modelcontextprotocol/protocolVersion": MODERN,
  "io.modelcontextprotocol/clientInfo": { name: "listen-test", version: "1.0.0" },
  "io.modelcontextprotocol/clientCapabilities": {},
};

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
});

describe.each(DOMAINS)("%s", (domain) => {
  test("declares no listChanged, and a listen stream ends with its acknowledgement and result", async () => {
    const headers = { ...(!signedIn(domain) ? {} : { authorization: `Bearer ${user.token}` }), "mcp-protocol-version": MODERN, accept: "application/json, text/event-stream" };
    const discover = await rawPost(domain, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: envelope } }), { ...headers, "mcp-method": "server/discover" });
    const text = await discover.text();
    const capabilities = JSON.parse(text.includes("data:") ? text.split("data: ").pop()! : text).result.capabilities as Record<string, { listChanged?: boolean }>;
    for (const kind of ["tools", "resources", "prompts"]) expect(capabilities[kind]?.listChanged ?? false, kind).toBe(false);

    const listen = await rawPost(
      domain,
      JSON.stringify({ jsonrpc: "2.0", id: 2, method: "subscriptions/listen", params: { notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true }, _meta: envelope } }),
      { ...headers, "mcp-method": "subscriptions/listen" },
    );
    expect(listen.status).toBe(200);
    // Reading the whole body returns only because the server ends the stream; an open stream
    // would hold this read until the test's timeout.
    const stream = await listen.text();
    expect(stream).toContain('"method":"notifications/subscriptions/acknowledged"');
    expect(stream).toContain('"notifications":{}');
    expect(stream).toContain('"resultType":"complete"');
  }, 60_000);
});
