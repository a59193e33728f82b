// Bundles the mermaid render worker (lib/platform/mermaid/worker.js and everything it loads:
// jsdom, mermaid with all its diagram modules, ELK, DOMPurify, css-tree) into
// lib/platform/mermaid-bundle/: worker.mjs (the entry: jsdom, mermaid's core, our code) and one
// file per module mermaid imports lazily (a diagram type, its layout), so a cold worker reads a
// handful of files instead of ~2,500 modules and the diagram types it never draws cost nothing.
// The pool starts it when running from lib. The folder sits at the depth of core/, so paths
// relative to the code (the fonts in functions/assets) stay right. Runs after tsc
// (`npm run build`). mermaid's getConfig fast path (mermaid-patch.js, a load hook when running
// from source) is applied here at build time, to the same source text.
import { build } from "esbuild";
import { dirname, join } from "node:path";
import { readFile, rm } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const core = join(root, "lib/platform/mermaid");
const { patchMermaidSource, SIGNATURE } = await import(pathToFileURL(join(core, "mermaid-patch.js")).href);

const outdir = join(root, "lib/platform/mermaid-bundle");
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
        b.onLoad({ filter: /[\\/]css-tree[\\/]lib[\\/](data|data-patch|version)\.js$/ }, async (args) => {
          const contents = (await readFile(args.path, "utf8")).replace(/^const require = createRequire\(import\.meta\.url\);$/m, "");
          // A css-tree release that reads its data another way: fail here, not in a cold worker.
          if (contents.includes("createRequire(import.meta.url)")) throw new Error(`css-tree changed how ${args.path} loads its data`);
          return { contents, loader: "js" };
        });
      },
    },
    {
      // jsdom resolves its synchronous-XHR helper at load time; the bundle has no such file and
      // mermaid never makes synchronous requests.
      name: "jsdom-sync-xhr",
      setup(b) {
        b.onLoad({ filter: /[\\/]jsdom[\\/].*XMLHttpRequest-impl\.js$/ }, async (args) => {
          const contents = (await readFile(args.path, "utf8")).replace(/require\.resolve\(["']\.\/xhr-sync-worker\.js["']\)/, "null");
          if (contents.includes("xhr-sync-worker.js")) throw new Error(`jsdom changed how ${args.path} finds its sync-XHR helper`);
          return { contents, loader: "js" };
        });
      },
    },
  ],
});
if (result.errors.length) process.exit(1);
if (patchedModules !== 1) {
  console.error(`bundle-worker: mermaid's getConfig fast path matched ${patchedModules} modules, expected 1 (mermaid-patch.ts)`);
  process.exit(1);
}
