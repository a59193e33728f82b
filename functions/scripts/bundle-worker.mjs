// Bundles the mermaid render worker (lib/domains/mermaid/core/worker.js and everything it loads:
// jsdom, mermaid with all its diagram modules, DOMPurify, css-tree) into one ES module next to it,
// worker.bundle.mjs, which the pool starts when it runs from lib. One file instead of ~2,000
// modules: a cold worker resolves and reads one file, and V8 compiles it once (docs/mermaid.md has
// the figures). Runs after tsc (`npm run build`). mermaid's getConfig fast path (mermaid-patch.js,
// a load hook when running from source) is applied here at build time, to the same source text.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { readFile, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const core = join(root, "lib/domains/mermaid/core");
const { patchMermaidSource, SIGNATURE } = await import(join(core, "mermaid-patch.js"));

const outdir = join(root, "lib/domains/mermaid/bundle");
await rm(outdir, { recursive: true, force: true }); // no stale chunks from an earlier build
let patchedModules = 0;
const result = await build({
  absWorkingDir: root,
  entryPoints: [join(core, "worker.js")],
  outdir,
  entryNames: "[name]",
  chunkNames: "[name]-[hash]",
  outExtension: { ".js": ".mjs" },
  splitting: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // Native addons stay in node_modules: resvg (loaded on the first PNG) and sharp (mcp/content.js
  // imports it lazily; the worker never does). canvas is jsdom's optional peer, not installed.
  external: ["@resvg/resvg-js", "canvas", "sharp"],
  // CommonJS packages bundled into an ES module still call require() for Node's built-ins.
  banner: { js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);' },
  // Whitespace and syntax only: function names stay readable in the stacks the pool logs.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: "eof",
  define: { __MERMAID_WORKER_BUNDLE__: "true" },
  logLevel: "warning",
  plugins: [
    {
      name: "mermaid-config-fast-path",
      setup(b) {
        b.onLoad({ filter: /[\\/]mermaid[\\/]dist[\\/].*\.mjs$/ }, async (args) => {
          const source = await readFile(args.path, "utf8");
          if (!source.includes(SIGNATURE)) return undefined;
          patchedModules++;
          return { contents: patchMermaidSource(source), loader: "js" };
        });
      },
    },
    {
      // css-tree reads its JSON data through createRequire(import.meta.url), which in a bundle
      // would look next to the bundle: a plain require() lets esbuild bundle the JSON instead.
      name: "css-tree-json",
      setup(b) {
        b.onLoad({ filter: /[\\/]css-tree[\\/]lib[\\/](data|data-patch|version)\.js$/ }, async (args) => ({
          contents: (await readFile(args.path, "utf8")).replace(/^const require = createRequire\(import\.meta\.url\);$/m, ""),
          loader: "js",
        }));
      },
    },
    {
      // jsdom resolves its synchronous-XHR helper at load time; the bundle has no such file and
      // mermaid never makes synchronous requests.
      name: "jsdom-sync-xhr",
      setup(b) {
        b.onLoad({ filter: /[\\/]jsdom[\\/].*XMLHttpRequest-impl\.js$/ }, async (args) => ({
          contents: (await readFile(args.path, "utf8")).replace(/require\.resolve\(["']\.\/xhr-sync-worker\.js["']\)/, "null"),
          loader: "js",
        }));
      },
    },
  ],
});
if (result.errors.length) process.exit(1);
if (patchedModules !== 1) {
  console.error(`bundle-worker: mermaid's getConfig fast path matched ${patchedModules} modules, expected 1 (mermaid-patch.ts)`);
  process.exit(1);
}
