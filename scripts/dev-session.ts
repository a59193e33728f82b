// Runs inside `firebase emulators:exec` for `npm start`: serves the functions through the front
// (Cloud Run's stand-in, scripts/emulator/front.ts), loads the demo data, prints each domain's MCP
// URL with ready-to-paste client configs, then keeps the emulators up until Ctrl-C.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { initializeApp } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import { firestore } from "../functions/src/platform/firebase.js";
import type { DemoContext } from "./demo/context.js";
import { demoIdToken, ensureDemoUsers } from "./demo/auth.js";
import { DEMO_USERS } from "./demo/users.js";
import { DOMAINS } from "./domains.js";
import { declaredTimeouts } from "./emulator/endpoints.js";
import { startFront } from "./emulator/front.js";

const project = process.env.GCLOUD_PROJECT ?? "demo-mcp-suite";
const emulatorHost = process.env.FUNCTIONS_EMULATOR_HOST ?? "127.0.0.1:5002";
const [frontHost = "127.0.0.1", frontPort = "5001"] = (process.env.MCP_FRONT_HOST ?? "127.0.0.1:5001").split(":");
const bold = (s: string) => `\x1b[1m${s}\x1b[0m`;
const dim = (s: string) => `\x1b[2m${s}\x1b[0m`;

const app = initializeApp({ projectId: project });
const ctx: DemoContext = {
  // The platform's handle on the same app: seeders may call domain code, which uses it too.
  db: firestore(),
  auth: getAuth(app),
  users: DEMO_USERS,
  log: (message) => console.log(dim(`  ${message}`)),
};

const front = await startFront({
  upstream: emulatorHost,
  host: frontHost,
  port: Number(frontPort),
  timeoutSeconds: await declaredTimeouts(),
}).catch((err: NodeJS.ErrnoException) => {
  if (err.code !== "EADDRINUSE") throw err;
  console.error(`\nPort ${frontPort} (where npm start serves the functions) is taken. Stop what uses it, or run MCP_PORT_OFFSET=10 npm start.`);
  process.exit(1);
});

console.log(bold("\nLoading demo data"));
await ensureDemoUsers(ctx.auth);
ctx.log(`users: ${Object.values(DEMO_USERS).map((u) => `${u.email} (${u.uid})`).join(", ")}; password "${DEMO_USERS.alice.password}"`);
for (const domain of DOMAINS) {
  const file = fileURLToPath(new URL(`./demo/${domain}.ts`, import.meta.url));
  if (!existsSync(file)) continue;
  const started = Date.now();
  const { seed } = (await import(file)) as { seed(ctx: DemoContext): Promise<void> };
  await seed(ctx);
  ctx.log(`${domain}: ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

interface Served {
  name: string;
  url: string;
  signedIn: boolean;
}
const served: Served[] = [];
for (const name of DOMAINS) {
  const url = `${front.url}/${project}/us-central1/${name}`;
  const res = await fetch(`${url}/healthz`).catch(() => undefined);
  if (!res?.ok) continue;
  const health = (await res.json()) as { access?: string; mcp?: boolean };
  if (health.mcp === false) continue;
  served.push({ name, url, signedIn: health.access === "signed-in" });
}
const token = await demoIdToken(DEMO_USERS.alice);
const auth = (s: Served) => (s.signedIn ? { Authorization: `Bearer ${token}` } : undefined);

console.log(bold("\nMCP servers"));
for (const s of served) console.log(`  ${s.name.padEnd(10)} ${s.url}${s.signedIn ? dim("   (sign in with OAuth, or send a Bearer ID token)") : ""}`);

const oauth = `${front.url}/${project}/us-central1/oauth`;
console.log(bold("\nClaude: paste one URL, sign in in your browser (OAuth)"));
console.log(`  ${dim("Claude Code signs in through its browser flow: run the command, then /mcp → Authenticate.")}`);
for (const s of served.filter((x) => x.signedIn)) console.log(`  claude mcp add --transport http ${s.name} ${s.url}`);
console.log(`  ${dim(`claude.ai / Claude Desktop "Add custom connector" take the same URL once it is reachable from the internet (deployed: see README "Deploy").`)}`);
console.log(`  Sign in as ${DEMO_USERS.alice.email} / ${DEMO_USERS.alice.password}. Connected apps and paired devices: ${oauth}/apps`);

console.log(bold("\nSigned in as alice@example.com — ID token (valid 1 hour; refresh with `npm run token -- alice`, or bob / dave / carol):"));
console.log(`  ${token}`);

console.log(bold("\nClaude Code with a token instead of OAuth"));
for (const s of served) {
  console.log(`  claude mcp add --transport http ${s.name} ${s.url}${s.signedIn ? ` --header "Authorization: Bearer $(npm run -s token -- alice)"` : ""}`);
}

console.log(bold("\nCursor (.cursor/mcp.json) and other clients that speak Streamable HTTP"));
const cursor = { mcpServers: Object.fromEntries(served.map((s) => [s.name, { url: s.url, ...(auth(s) ? { headers: auth(s) } : {}) }])) };
console.log(indent(JSON.stringify(cursor, null, 2)));

console.log(bold("\nClaude Desktop (claude_desktop_config.json; bridges stdio to HTTP with mcp-remote)"));
const desktop = {
  mcpServers: Object.fromEntries(
    served.map((s) => [
      s.name,
      { command: "npx", args: ["-y", "mcp-remote", s.url, "--allow-http", ...(s.signedIn ? ["--header", `Authorization: Bearer ${token}`] : [])] },
    ]),
  ),
};
console.log(indent(JSON.stringify(desktop, null, 2)));

console.log(bold("\nMCP Inspector"));
const first = served.find((s) => s.signedIn) ?? served[0];
if (first) {
  console.log(`  npx @modelcontextprotocol/inspector --cli ${first.url} --transport http --method tools/list${first.signedIn ? ` --header "Authorization: Bearer $(npm run -s token -- alice)"` : ""}`);
  console.log(`  npx @modelcontextprotocol/inspector   ${dim("(web UI: Transport 'Streamable HTTP', URL above, header Authorization)")}`);
}
console.log(bold("\nReady.") + " Ctrl-C stops the emulators.\n");

function indent(text: string): string {
  return text.replace(/^/gm, "  ");
}

// Keep running until the emulators are stopped (Ctrl-C reaches this process first).
const keepAlive = setInterval(() => undefined, 1 << 30);
await new Promise<void>((resolve) => {
  process.once("SIGINT", resolve);
  process.once("SIGTERM", resolve);
});
clearInterval(keepAlive);
await front.close();
