// The in-process tier: a domain's MCP server built by the same factory the functions use
// (http/serve-mcp.ts mcpHandler: the SDK's stateless handler around createServer, with a scope from
// handler/scope.ts newScope, as every host builds it) and
// reached by a real MCP client whose fetch calls that handler directly: no emulator, no sockets.
// Data is the Firestore emulator (`npm run test:fast` starts it alone), or the in-memory store
// given as the domain's backend (`{ ...domain, backend: memoryDermalStore() }`, test/unit).
import { Client, StreamableHTTPClientTransport, type ClientCapabilities } from "@modelcontextprotocol/client";
import type { Caller } from "../../functions/src/auth/caller.js";
import { mcpHandler } from "../../functions/src/http/serve-mcp.js";
import { newScope, type RequestScope } from "../../functions/src/handler/scope.js";
import type { DomainDefinition } from "../../functions/src/mcp/define.js";
import { firestore } from "../../functions/src/platform/firebase.js";
import type { Era } from "./mcp.js";

// The functions' Firestore client first (it applies its settings once), then the tests' own
// admin access to the same app shares it.
firestore();

export interface InProcessOptions {
  /** The signed-in caller (what the endpoint would have verified); omit for an open domain. */
  caller?: Caller;
  era?: Era;
  /** The query string of the URL the client was configured with. */
  query?: Record<string, string>;
  /** What the client announces (e.g. the views extension). */
  capabilities?: ClientCapabilities;
}

/** A caller signed in with a Firebase ID token (the user themself: every scope). */
export const idTokenCaller = (uid: string, claims: Record<string, unknown> = {}): Caller => ({ uid, claims, credential: "id-token", scopes: ["*"] });

/** Loads a domain's definition from the sources (functions/src/domains/<name>/index.ts). */
export async function loadDomain(name: string): Promise<DomainDefinition> {
  return (await import(`../../functions/src/domains/${name}/index.ts`)).default as DomainDefinition;
}

/** A real MCP client connected in-process to `domain`'s server, one server per request as in production. */
export async function connectInProcess(domain: DomainDefinition, opts: InProcessOptions = {}): Promise<Client> {
  const scope = (): RequestScope => newScope({ domain: domain.name, clientIp: "127.0.0.1", query: opts.query ?? {}, caller: opts.caller });
  const handler = mcpHandler(domain, scope);
  const era = opts.era ?? "modern";
  const client = new Client(
    { name: "mcp-suite-in-process", version: "1.0.0" },
    { ...(era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}), ...(opts.capabilities ? { capabilities: opts.capabilities } : {}) },
  );
  const transport = new StreamableHTTPClientTransport(new URL(`http://in-process.test/${domain.name}`), {
    fetch: (url, init) => handler.fetch(new Request(url, init)),
  });
  await client.connect(transport);
  return client;
}
