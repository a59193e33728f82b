// `npm run views`: the view host against `npm start` (read from its .local/session.json), for looking
// at any tool's view in a browser: pick a domain and a tool, give the arguments, call. Signed-in
// domains are called as the demo user `npm start` signed in (its .local/token, valid for an hour).
import { readFileSync } from "node:fs";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startViewHost, VIEW_CAPABILITIES } from "./host.js";

const local = process.env.MCP_LOCAL_DIR ?? new URL("../../.local", import.meta.url).pathname;
let session: { servers: { name: string; url: string; signedIn: boolean }[] };
try {
  session = JSON.parse(readFileSync(`${local}/session.json`, "utf8"));
} catch {
  console.error("No running `npm start` found (.local/session.json): start it first, then run `npm run views` again.");
  process.exit(1);
}
const token = (() => {
  try {
    return readFileSync(`${local}/token`, "utf8").trim();
  } catch {
    return undefined;
  }
})();

const clients = new Map<string, Promise<Client>>();
async function connect(domain: string): Promise<Client> {
  const server = session.servers.find((s) => s.name === domain);
  if (!server) throw new Error(`npm start serves no ${domain}`);
  // 2026-07-28: each request carries the capabilities, so the stateless functions see the extension.
  const client = new Client({ name: "view-host", version: "1.0.0" }, { capabilities: VIEW_CAPABILITIES, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  const headers: Record<string, string> = server.signedIn && token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers } }));
  return client;
}
const host = await startViewHost(
  (domain) => {
    let client = clients.get(domain);
    if (!client) {
      client = connect(domain);
      client.catch(() => clients.delete(domain)); // try again on the next call
      clients.set(domain, client);
    }
    return client;
  },
  session.servers.map((s) => s.name),
);
console.log(`Views of the tools served by npm start: ${host.url}/  (Ctrl-C to stop)`);
