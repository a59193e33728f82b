// Builds what Figma loads: dist/code.js (main thread) and dist/ui.html (the window, script inlined),
// and keeps manifest.json's network access to exactly the hosts the build talks to.
//   FIGMA_MCP_URL   the figma function's URL (default: the local emulator's)
//   FIRESTORE_EMULATOR_HOST, FIREBASE_AUTH_EMULATOR_HOST  the emulators a local build's window
//                   listens through (default: firebase.json's ports, shifted by MCP_PORT_OFFSET)
//   FIGMA_OAUTH_URL the oauth function's URL (default: FIGMA_MCP_URL with /figma → /oauth)
//   FIGMA_PLUGIN_OUT where to write dist/ and manifest.json (default: this folder)
import { build } from "esbuild";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const functionUrl = (process.env.FIGMA_MCP_URL ?? "http://127.0.0.1:5001/demo-mcp-suite/us-central1/figma").replace(/\/+$/, "");
const oauthUrl = (process.env.FIGMA_OAUTH_URL ?? functionUrl.replace(/\/figma$/, "/oauth")).replace(/\/+$/, "");
for (const url of [functionUrl, oauthUrl]) {
  if (!/^https?:\/\/[^/]+/.test(url)) throw new Error(`Not a URL: ${url}`);
}

const out = process.env.FIGMA_PLUGIN_OUT ?? here;
const common = { bundle: true, minify: true, target: "es2017", logLevel: "warning", legalComments: "none", metafile: true };

// What the plugin shares with the function (contracts/) is paths and types: a package reached by a
// value import (zod through a schema file) fails the build. The one exception is the window's
// Firebase JS SDK (app, auth, firestore and what they bundle), for listening in Firestore; the
// main thread stays package-free.
const FIREBASE_SDK = /node_modules\/(firebase|@firebase\/(app|auth|firestore|component|logger|util|webchannel-wrapper)|idb|tslib|re2js)\//;
function noPackages(result, name, allowed) {
  const packages = Object.keys(result.metafile.inputs).filter((p) => p.includes("node_modules/") && !(allowed && allowed.test(p)));
  if (packages.length) throw new Error(`${name} bundles ${packages[0]}${packages.length > 1 ? ` and ${packages.length - 1} more` : ""}: import only types from contracts/*-requests.ts (import type)`);
}
/** The window's script with the Firebase SDK is ~600 KB minified; far more means something else got in. */
const MAX_UI_SCRIPT_BYTES = 900 * 1024;
await mkdir(join(out, "dist"), { recursive: true });

// Figma's main-thread sandbox is an older JS engine: es2017, one classic script.
noPackages(await build({ ...common, entryPoints: [join(here, "src/code.ts")], outfile: join(out, "dist/code.js"), format: "iife" }), "dist/code.js");

const ui = await build({
  ...common,
  entryPoints: [join(here, "src/ui.ts")],
  write: false,
  format: "iife",
  target: "es2020",
  define: { FUNCTION_URL: JSON.stringify(functionUrl), OAUTH_URL: JSON.stringify(oauthUrl) },
});
noPackages(ui, "dist/ui.html", FIREBASE_SDK);
if (ui.outputFiles[0].contents.length > MAX_UI_SCRIPT_BYTES) throw new Error(`dist/ui.html's script is ${Math.round(ui.outputFiles[0].contents.length / 1024)} KB, more than ${MAX_UI_SCRIPT_BYTES / 1024} KB: a package got into the window`);
const script = ui.outputFiles[0].text.replace(/<\/script/gi, "<\\/script");
const html = (await readFile(join(here, "src/ui.html"), "utf8")).replace("/*UI_SCRIPT*/", () => script);
await writeFile(join(out, "dist/ui.html"), html);

// Network access: only the hosts above, and those of listening in Firestore (its emulators' for a
// local build; Firestore's and Firebase Auth's otherwise). Loopback is a development-only domain.
const functionOrigins = [...new Set([functionUrl, oauthUrl].map((u) => new URL(u).origin))];
const local = functionOrigins.every((o) => /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(o));
const origins = [...functionOrigins, ...(local ? await emulatorOrigins() : ["https://firestore.googleapis.com", "https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com"])];

async function emulatorOrigins() {
  const { emulators } = JSON.parse(await readFile(join(here, "../firebase.json"), "utf8"));
  const offset = Number(process.env.MCP_PORT_OFFSET ?? 0);
  const host = (env, e) => process.env[env] ?? `${e.host}:${e.port + offset}`;
  return [host("FIRESTORE_EMULATOR_HOST", emulators.firestore), host("FIREBASE_AUTH_EMULATOR_HOST", emulators.auth)].map((h) => `http://${h}`);
}
const manifestPath = join(out, "manifest.json");
const manifest = JSON.parse(await readFile(join(here, "manifest.json"), "utf8"));
manifest.networkAccess = {
  allowedDomains: local ? ["none"] : origins,
  ...(local ? { devAllowedDomains: origins } : {}),
  reasoning: "Talks only to the figma function of your MCP suite (and its sign-in server) to receive the agent's commands, and to Firestore (signed in through Firebase Auth as this plugin) to learn of them without keeping a request open.",
};
const text = JSON.stringify(manifest, null, 2) + "\n";
if (text !== (await readFile(manifestPath, "utf8").catch(() => ""))) await writeFile(manifestPath, text);
console.log(`figma-plugin: dist/code.js, dist/ui.html for ${functionUrl} (network access: ${origins.join(", ")})`);
