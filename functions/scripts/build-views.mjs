// Builds every view (MCP Apps: src/domains/<domain>/views/<name>.ts, with the CSS it imports) into
// one self-contained HTML file, lib/views/<domain>/<name>.html, that mcp/view.ts serves as
// ui://<domain>/<name>. Script and styles are inline (hosts apply a CSP without network access by
// default), nothing is loaded from elsewhere. Runs in `npm run build`; a view over the size budget
// fails the build.
import { build } from "esbuild";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const MAX_VIEW_BYTES = 150 * 1024;
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const domains = join(root, "src/domains");
const outRoot = join(root, "lib/views");

const entries = [];
for (const domain of await readdir(domains)) {
  const dir = join(domains, domain, "views");
  const files = await readdir(dir).catch(() => []);
  for (const f of files) if (f.endsWith(".ts")) entries.push({ domain, name: basename(f, ".ts"), path: join(dir, f) });
}

await rm(outRoot, { recursive: true, force: true });
let failed = false;
for (const entry of entries) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry.path],
    bundle: true,
    write: false,
    outdir: "views-out",
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "warning",
  });
  const js = result.outputFiles.filter((f) => f.path.endsWith(".js")).map((f) => f.text).join("\n");
  const css = result.outputFiles.filter((f) => f.path.endsWith(".css")).map((f) => f.text).join("\n");
  // Inline script and style: "</" must not close the element early.
  const html = [
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${entry.domain} ${entry.name}</title>`,
    `<style>${css.replace(/<\/style/gi, "<\\/style")}</style>`,
    '</head><body><main id="app"><p class="loading">Loading…</p></main>',
    `<script type="module">${js.replace(/<\/script/gi, "<\\/script")}</script>`,
    "</body></html>",
  ].join("");
  const bytes = Buffer.byteLength(html);
  if (bytes > MAX_VIEW_BYTES) {
    console.error(`build-views: ${entry.domain}/${entry.name} is ${Math.round(bytes / 1024)} KB, over the ${MAX_VIEW_BYTES / 1024} KB a view may be`);
    failed = true;
  }
  await mkdir(join(outRoot, entry.domain), { recursive: true });
  await writeFile(join(outRoot, entry.domain, `${entry.name}.html`), html);
}
if (failed) process.exit(1);
