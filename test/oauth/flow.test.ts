// The whole sign-in flow of a remote MCP client, driven by the MCP SDK v2 client's
// OAuthClientProvider against the emulator suite: 401 → discovery → authorize → sign-in and
// consent → token → tools/call → refresh → revoke → 401. Once as a metadata-document client
// (what Claude uses) and once dynamically registered (older clients).
import { afterAll, describe, expect, test } from "vitest";
import type { Server } from "node:http";
import { createUser, functionUrl } from "../support/emulators.js";
import { callTool, textOf } from "../support/mcp.js";
import { oauthUrl } from "../support/devices.js";
import { connectWithOAuth, connectWithTokens, MemoryOAuthProvider, REDIRECT_URI, serveDocument } from "../support/oauth.js";

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

async function metadataClient(name = "Claude (test)") {
  const doc = await serveDocument((url) => ({ body: JSON.stringify({ client_id: url, client_name: name, redirect_uris: [REDIRECT_URI] }) }));
  servers.push(doc.server);
  return doc.url;
}

const revoke = (token: string, clientId: string) =>
  fetch(oauthUrl("/revoke"), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token, client_id: clientId }).toString() });

describe.each([
  ["a metadata-document client", true],
  ["a dynamically registered client", false],
])("%s", (_label, cimd) => {
  test("signs in, calls tools, refreshes with rotation, and loses access when it revokes", async () => {
    const user = await createUser();
    const clientId = cimd ? await metadataClient() : undefined;
    const provider = new MemoryOAuthProvider(clientId ? { clientId } : {});
    const client = await connectWithOAuth("dermal", user, provider);
    // The caller is the signed-in user: dermal answers for their own uid (no profile yet → 404 text).
    const own = await callTool(client, "get_user_status", { uid: user.uid });
    expect(textOf(own)).toMatch(/not found/i);
    const other = await callTool(client, "get_user_status", { uid: "demo-alice" });
    expect(textOf(other)).toMatch(/403|not found/i);
    await client.close();
    const issued = provider.tokens()!;
    expect(issued.refresh_token).toMatch(/^mcprt_/);
    expect(issued.scope).toBe("dermal");
    const info = provider.clientInformation()!;
    if (cimd) expect(info.client_id).toBe(clientId);
    else expect(info.client_id).toMatch(/^mcpclient_/);

    // Expired access token: the SDK refreshes, and the refresh token rotates.
    provider.spoilAccessToken();
    const again = await connectWithTokens("dermal", provider);
    expect((await again.listTools()).tools.map((t) => t.name)).toContain("list_sessions");
    await again.close();
    expect(provider.tokens()!.refresh_token).not.toBe(issued.refresh_token);

    // Revoked: the next request is refused and a new sign-in would be needed.
    expect((await revoke(provider.tokens()!.refresh_token!, info.client_id)).status).toBe(200);
    const res = await fetch(functionUrl("dermal"), {
      method: "POST",
      headers: { authorization: `Bearer ${provider.tokens()!.access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain("resource_metadata=");
    expect(JSON.stringify(await res.json())).toContain("revoked");
  });
});
