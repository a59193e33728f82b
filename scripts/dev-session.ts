// Runs beside the Auth, Firestore and Storage emulators for `npm start`: serves each function from
// one process behind the front (scripts/emulator/local.ts), loads the demo data meanwhile (in a
// process of its own), writes the token and ready-to-paste client configs to a file, then prints
// one screen: the URLs, how to connect, the demo accounts and where everything else is. Logs go
// to files. Keeps serving until Ctrl-C.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import { FOTOS_BUNDLE_FILE, installLinks } from "../functions/src/contracts/install-links.js";
import { DEMO_PASSWORD, DEMO_USERS } from "./demo/users.js";
import { DOMAINS } from "./domains.js";
import { serveLocally } from "./emulator/local.js";
import { FRONT_PORT, localFunctionPath } from "../functions/src/core/where.js";

const started = Date.now();
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const project = process.env.GCLOUD_PROJECT ?? "demo-mcp-suite";
const [frontHost = "127.0.0.1", frontPort = String(FRONT_PORT)] = (process.env.MCP_FRONT_HOST ?? `127.0.0.1:${FRONT_PORT}`).split(":");
/** Where npm start writes what is too long for the screen (MCP_LOCAL_DIR for tests). */
const LOCAL = process.env.MCP_LOCAL_DIR ?? `${ROOT}.local`;
const show = (file: string) => relative(process.cwd(), file) || file;
const bold = (s: string) => `\x1b[1m${s}\x1b[0m`;
const dim = (s: string) => `\x1b[2m${s}\x1b[0m`;

mkdirSync(LOCAL, { recursive: true });
const functionsLog = `${LOCAL}/functions.log`;
const log = createWriteStream(functionsLog, { flags: "w" });

// The front binds first: a taken port is reported before anything loads.
const serving = serveLocally({ host: frontHost, port: Number(frontPort), log }).catch((err: NodeJS.ErrnoException) => {
  if (err.code === "EADDRINUSE") console.error(`\nPort ${frontPort} (where npm start serves the functions) is taken. Stop what uses it, or run MCP_PORT_OFFSET=10 npm start.`);
  else console.error(`\n${(err as Error).message}\nThe functions' log: ${show(functionsLog)}`);
  process.exit(1);
});
const seeding = seedDemoData();
const phase = (what: string) => log.write(`[npm start] ${what} after ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
serving.then(() => phase("functions ready"), () => undefined);
seeding.loaded.then(() => phase("demo data loaded"), () => undefined);
// The URLs as soon as the functions are ready and alice can sign in; the rest of the demo data
// arrives meanwhile, and a last line says when.
const [local, token] = await Promise.all([serving, seeding.token]);

interface Served {
  name: string;
  url: string;
  signedIn: boolean;
}
const served: Served[] = [];
for (const name of DOMAINS) {
  const url = `${local.url}${localFunctionPath(project, name)}`;
  const res = await fetch(`${url}/healthz`).catch(() => undefined);
  if (!res?.ok) continue;
  const health = (await res.json()) as { access?: string; mcp?: boolean };
  if (health.mcp === false) continue;
  served.push({ name, url, signedIn: health.access === "signed-in" });
}
const oauth = `${local.url}${localFunctionPath(project, "oauth")}`;
const first = served.find((s) => s.signedIn) ?? served[0];

const tokenFile = `${LOCAL}/token`;
writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
const connectFile = `${LOCAL}/connect.md`;
writeFileSync(connectFile, connectGuide(), { mode: 0o600 });
writeFileSync(`${LOCAL}/session.json`, JSON.stringify({ front: local.url, project, servers: served, auth: process.env.FIREBASE_AUTH_EMULATOR_HOST, firestore: process.env.FIRESTORE_EMULATOR_HOST }, null, 2));

const lines = [
  "",
  bold("MCP servers") + dim("  (OAuth sign-in, or Authorization: Bearer <ID token>, where it says signed-in)"),
  ...served.map((s) => `  ${s.name.padEnd(10)} ${s.url}${s.signedIn ? dim("   signed-in") : dim("   open")}`),
  "",
  bold("Connect"),
  `  Claude Code   claude mcp add --transport http ${first?.name ?? "<name>"} ${first?.url ?? "<url>"}   ${dim("then /mcp → Authenticate")}`,
  `  Inspector     npx @modelcontextprotocol/inspector --cli ${first?.url} --transport http --method tools/list${first?.signedIn ? ` --header "Authorization: Bearer $(cat ${show(tokenFile)})"` : ""}`,
  `  Every client's config (Claude Code, Cursor, Claude Desktop via mcp-remote, with the token): ${bold(show(connectFile))}`,
  "",
  `${bold("Demo accounts")}  ${Object.values(DEMO_USERS).map((u) => u.email).join(", ")}  password ${DEMO_PASSWORD}`,
  `  alice has demo data in every domain. Her ID token (1 hour): ${show(tokenFile)}; a fresh one: npm run -s token -- alice`,
  `  Connected apps and paired devices: ${oauth}/apps`,
  "",
  `${dim(`Logs: ${show(functionsLog)}, ${show(`${LOCAL}/emulators.log`)}`)}`,
  `${bold("Ready")} in ${Math.round((Date.now() - started) / 1000)} s; the demo data is loading, a line below says when it is in. Ctrl-C stops everything.`,
];
console.log(lines.join("\n"));
await seeding.loaded;
console.log(dim(`Demo data loaded after ${Math.round((Date.now() - started) / 1000)} s.`));

function connectGuide(): string {
  const auth = (s: Served) => (s.signedIn ? { Authorization: `Bearer ${token}` } : undefined);
  const cursor = { mcpServers: Object.fromEntries(served.map((s) => [s.name, { url: s.url, ...(auth(s) ? { headers: auth(s) } : {}) }])) };
  const desktop = {
    mcpServers: Object.fromEntries(
      served.map((s) => [s.name, { command: "npx", args: ["-y", "mcp-remote", s.url, "--allow-http", ...(s.signedIn ? ["--header", `Authorization: Bearer ${token}`] : [])] }]),
    ),
  };
  const fence = (lang: string, text: string) => `\`\`\`${lang}\n${text}\n\`\`\`\n`;
  // The same links the oauth function's /connect page shows (contracts/install-links.ts); the
  // extension is what `npm run package` builds.
  const bundle = `${ROOT}dist/${FOTOS_BUNDLE_FILE}`;
  const links = served.map((s) => installLinks({ name: s.name, title: s.name, url: s.url }, { bundleDownload: pathToFileURL(bundle).href }));
  const oneClick = links.flatMap((l) => [
    `### ${l.name}`,
    "",
    `- [Add to Cursor](${l.cursor})`,
    `- [Add to VS Code](${l.vscode})`,
    `- Claude Code: \`${l.claudeCode}\``,
    `- claude.ai / Claude Desktop custom connector URL: ${l.connectorUrl}`,
    ...(l.desktopBundle
      ? [`- Claude Desktop extension: ${l.desktopBundle.download} (\`npm run package\` builds it${existsSync(bundle) ? "" : "; not built yet"}); enter ${l.desktopBundle.fotosUrlField} as "Fotos function URL"`]
      : []),
    "",
  ]);
  return [
    "# Connecting to `npm start`'s MCP servers",
    "",
    `Written by npm start; the ID token below is alice's (${DEMO_USERS.alice.email}, password ${DEMO_PASSWORD}) and is valid for one hour: \`npm run -s token -- alice\` prints a fresh one (bob, carol, dave too).`,
    "",
    `## One click (also on ${oauth}/connect)`,
    "",
    ...oneClick,
    "## Claude Code, signing in with OAuth (run, then /mcp → Authenticate)",
    fence("sh", served.map((s) => `claude mcp add --transport http ${s.name} ${s.url}`).join("\n")),
    "## Claude Code with a token instead of OAuth",
    fence("sh", served.map((s) => `claude mcp add --transport http ${s.name} ${s.url}${s.signedIn ? ` --header "Authorization: Bearer $(npm run -s token -- alice)"` : ""}`).join("\n")),
    "## Cursor (.cursor/mcp.json) and other clients that speak Streamable HTTP",
    fence("json", JSON.stringify(cursor, null, 2)),
    "## Claude Desktop (claude_desktop_config.json; bridges stdio to HTTP with mcp-remote)",
    fence("json", JSON.stringify(desktop, null, 2)),
    "## MCP Inspector",
    fence("sh", `npx @modelcontextprotocol/inspector --cli ${first?.url} --transport http --method tools/list${first?.signedIn ? ` --header "Authorization: Bearer $(npm run -s token -- alice)"` : ""}\nnpx @modelcontextprotocol/inspector   # web UI: Transport "Streamable HTTP", a URL above, header Authorization`),
    `claude.ai and Claude Desktop's "Add custom connector" take the same URLs once they are reachable from the internet (deployed: docs/deploy.md).`,
    "",
    "## ID token",
    fence("", token),
  ].join("\n");
}

/** Resolves once the emulators started beside this session say they are ready (start.sh), at once without that log. */
async function emulatorsReady(): Promise<void> {
  const file = process.env.MCP_EMULATORS_LOG;
  if (!file) return;
  while (!(existsSync(file) && readFileSync(file, "utf8").includes("All emulators ready"))) await new Promise((r) => setTimeout(r, 200));
}

/** Runs scripts/emulator/seed.ts once the emulators are up; its lines go to the log. */
function seedDemoData(): { token: Promise<string>; loaded: Promise<void> } {
  let gotToken: (token: string) => void = () => undefined;
  const token = new Promise<string>((resolve) => (gotToken = resolve));
  const loaded = (async () => {
    await emulatorsReady();
    phase("emulators ready");
    const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(new URL("./emulator/seed.ts", import.meta.url))], { cwd: ROOT, env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    let done = false;
    let tail = "";
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => {
        if (line.startsWith("token ")) gotToken(line.slice(6));
        else if (line === "done") done = true;
        else {
          tail = `${tail}${line}\n`.slice(-2000);
          log.write(`[demo data] ${line}\n`);
        }
      });
    }
    const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
    if (code !== 0 || !done) {
      console.error(`\nLoading the demo data failed:\n${tail}`);
      process.exit(1);
    }
  })();
  return { token, loaded };
}

// Keep running until Ctrl-C (or the emulators stop, which signals this process).
const keepAlive = setInterval(() => undefined, 1 << 30);
await new Promise<void>((resolve) => {
  process.once("SIGINT", resolve);
  process.once("SIGTERM", resolve);
});
clearInterval(keepAlive);
await local.close();
log.end();
