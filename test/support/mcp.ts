// A real MCP client (SDK v2) over Streamable HTTP against a served function, in either era:
// "modern" = protocol 2026-07-28 (server/discover, no initialize), "legacy" = 2025-11-25 handshake.
import { Client, StreamableHTTPClientTransport, type CallToolResult, type ClientCapabilities } from "@modelcontextprotocol/client";
import { functionUrl } from "./emulators.js";

export type Era = "modern" | "legacy";

export interface ConnectOptions {
  token?: string;
  era?: Era;
  headers?: Record<string, string>;
  /** Another URL for the domain than the emulator's (e.g. the one `npm start` printed). */
  url?: string;
  /** What the client announces (e.g. the views extension). */
  capabilities?: ClientCapabilities;
}

export async function connect(domain: string, opts: ConnectOptions = {}): Promise<Client> {
  const era = opts.era ?? "modern";
  const client = new Client(
    { name: "mcp-suite-tests", version: "1.0.0" },
    { ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}), ...(opts.capabilities ? { capabilities: opts.capabilities } : {}) },
  );
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const transport = new StreamableHTTPClientTransport(new URL(opts.url ?? functionUrl(domain)), { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

/** Calls a tool and returns its result (errors come back as isError results, not throws). */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** The text of a result's first text block. */
export function textOf(result: CallToolResult): string {
  const block = result.content.find((c) => c.type === "text");
  return block && block.type === "text" ? block.text : "";
}

/** POST a raw body to a function (for robustness tests that a client library would never send). */
export async function rawPost(domain: string, body: string, headers: Record<string, string> = {}, path = ""): Promise<Response> {
  return fetch(functionUrl(domain, path), {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body,
  });
}
