// Builds what Figma loads: dist/code.js (main thread) and dist/ui.html (the window, script inlined),
// and keeps manifest.json's network access to exactly the hosts the build talks to.
//   FIGMA_MCP_URL   the figma function's URL (default: the local emulator's)
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

// The plugin needs no package at run time: what it shares with the function (contracts/) is paths
// and types. A package reached by a value import (zod through a schema file) fails the build.
function noPackages(result, name) {
  const packages = Object.keys(result.metafile.inputs).filter((p) => p.includes("node_modules/"));
  if (packages.length) throw new Error(`${name} bundles ${packages[0]}${packages.length > 1 ? ` and ${packages.length - 1} more` : ""}: import only types from contracts/*-requests.ts (import type)`);
}
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
noPackages(ui, "dist/ui.html");
const script = ui.outputFiles[0].text.replace(/<\/script/gi, "<\\/script");
const html = (await readFile(join(here, "src/ui.html"), "utf8")).replace("/*UI_SCRIPT*/", () => script);
await writeFile(join(out, "dist/ui.html"), html);

// Network access: only the hosts above. Loopback (the emulator) is a development-only domain.
const origins = [...new Set([functionUrl, oauthUrl].map((u) => new URL(u).origin))];
const local = origins.every((o) => /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(o));
const manifestPath = join(out, "manifest.json");
const manifest = JSON.parse(await readFile(join(here, "manifest.json"), "utf8"));
manifest.networkAccess = {
  allowedDomains: local ? ["none"] : origins,
  ...(local ? { devAllowedDomains: origins } : {}),
  reasoning: "Talks only to the figma function of your MCP suite (and its sign-in server) to receive the agent's commands.",
};
const text = JSON.stringify(manifest, null, 2) + "\n";
if (text !== (await readFile(manifestPath, "utf8").catch(() => ""))) await writeFile(manifestPath, text);
console.log(`figma-plugin: dist/code.js, dist/ui.html for ${functionUrl} (network access: ${origins.join(", ")})`);
