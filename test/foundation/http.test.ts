// The shared HTTP layer, as a client that misbehaves would meet it: raw requests, no SDK.
import { afterAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { z } from "zod";
import { createUser, functionUrl } from "../support/emulators.js";
import { connect, rawPost } from "../support/mcp.js";

const MCP_HEADERS = { accept: "application/json, text/event-stream" };
const listTools = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" });
const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close())));

/** Reads a JSON-RPC message from a JSON or single-event SSE response. */
async function jsonRpc(res: Response): Promise<{ error?: { code: number; message: string }; result?: unknown }> {
  const text = await res.text();
  const data = text.startsWith("{") ? text : /^data: (.*)$/m.exec(text)?.[1];
  return JSON.parse(data ?? "null");
}

const stillServes = async () => {
  const res = await rawPost("mermaid", listTools, MCP_HEADERS);
  expect(res.status).toBe(200);
  expect(JSON.stringify(await jsonRpc(res))).toContain('"verify"');
};

describe("malformed requests", () => {
  test("invalid JSON is answered 400 and the function keeps serving", async () => {
    const res = await rawPost("mermaid", '{"jsonrpc": "2.0", "id": 1, "method": ', MCP_HEADERS);
    expect(res.status).toBe(400);
    await stillServes();
  });

  test("invalid JSON under a non-JSON content type gets JSON-RPC -32700", async () => {
    const res = await rawPost("mermaid", "{not json", { ...MCP_HEADERS, "content-type": "text/plain" });
    expect(res.status).toBe(400);
    expect((await jsonRpc(res)).error).toEqual({ code: -32700, message: "Parse error: the request body is not valid JSON." });
  });

  test("a JSON value that is not a request object gets -32600", async () => {
    const res = await rawPost("mermaid", '"hello"', { ...MCP_HEADERS, "content-type": "text/plain" });
    expect(res.status).toBe(400);
    expect((await jsonRpc(res)).error?.code).toBe(-32600);
  });

  test("an unknown method gets -32601 (2025 era, raw)", async () => {
    const res = await rawPost("mermaid", JSON.stringify({ jsonrpc: "2.0", id: 7, method: "no/such/method" }), MCP_HEADERS);
    expect((await jsonRpc(res)).error).toMatchObject({ code: -32601 });
  });

  test("an unknown method gets -32601 (2026-07-28 client)", async () => {
    const client = await connect("mermaid", { era: "modern" });
    clients.push(client);
    // The 2026-07-28 transport answers it with a non-200 HTTP status and the JSON-RPC error as body.
    const error = await client.request({ method: "no/such/method" }, z.object({})).catch((e: Error) => e);
    expect(String((error as Error).message)).toMatch(/"code":\s*-32601/);
  });

  test("a body over the limit is refused with 413 and a sentence saying the limit", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { pad: "x".repeat(1_200_000) } });
    const res = await rawPost("mermaid", big, MCP_HEADERS);
    expect(res.status).toBe(413);
    expect((await jsonRpc(res)).error?.message).toMatch(/^Request body too large: 1\.\d MB; this server accepts at most 1\.0 MB per request\.$/);
    await stillServes();
  });
});

describe("origins and methods", () => {
  test("a foreign Origin is refused with 403; localhost origins are allowed with CORS headers", async () => {
    const evil = await rawPost("mermaid", listTools, { ...MCP_HEADERS, origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    const local = await rawPost("mermaid", listTools, { ...MCP_HEADERS, origin: "http://localhost:6274" });
    expect(local.status).toBe(200);
    expect(local.headers.get("access-control-allow-origin")).toBe("http://localhost:6274");
  });

  test("GET and DELETE on a stateless server are 405", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(functionUrl("mermaid"), { method, headers: { accept: "text/event-stream" } });
      expect(res.status, method).toBe(405);
    }
  });

  test("/healthz answers for uptime checks; unknown paths are 404 with a hint", async () => {
    const health = await fetch(functionUrl("mermaid", "/healthz"));
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", domain: "mermaid", access: "public" });
    const missing = await fetch(functionUrl("mermaid", "/nope"), { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("function's root URL");
  });

  test("every response carries a request id", async () => {
    const res = await rawPost("mermaid", listTools, MCP_HEADERS);
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{16,}$/);
  });
});

describe("who is calling", () => {
  test("a protected domain without a token answers 401 with a WWW-Authenticate challenge", async () => {
    const res = await rawPost("dermal", listTools, MCP_HEADERS);
    expect(res.status).toBe(401);
    // The challenge points OAuth clients (Claude's connectors) at this function's RFC 9728 metadata.
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(res.headers.get("www-authenticate")).not.toContain("error="); // RFC 6750 §3.1: none without credentials
    expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${functionUrl("dermal")}/.well-known/oauth-protected-resource"`);
    expect((await jsonRpc(res)).error?.message).toBe(
      "Error: Sign-in required: connect with OAuth (this server advertises its authorization server) or send Authorization: Bearer <Firebase ID token> (401)",
    );
  });

  test("an invalid token is refused with invalid_token, without internals", async () => {
    const res = await rawPost("dermal", listTools, { ...MCP_HEADERS, authorization: "Bearer not-a-jwt" });
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const text = JSON.stringify(await jsonRpc(res));
    expect(text).toContain("invalid or expired");
    expect(text).not.toMatch(/\bat \w|\/work\/|node_modules|stack/i);
  });

  test("a real ID token from the Auth emulator is accepted by an MCP client in both eras", async () => {
    const user = await createUser();
    for (const era of ["modern", "legacy"] as const) {
      const client = await connect("dermal", { token: user.token, era });
      clients.push(client);
      await expect(client.listTools()).resolves.toHaveProperty("tools");
    }
  });
});

describe("DNS rebinding", () => {
  test("on the emulator, a Host header that is not a loopback name is refused", async () => {
    const { request } = await import("node:http");
    const url = new URL(functionUrl("mermaid"));
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        { host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { host: "evil.example", "content-type": "application/json", accept: MCP_HEADERS.accept } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(listTools);
    });
    expect(status).toBe(403);
  });
});
