// Builds the fotos-agent package: src/cli.ts and everything it imports — the agent's own code and
// the fotos domain's definitions, OCR and redaction from functions/src — into ES modules,
// dist/cli.js and the chunks it loads on use, so the published package needs nothing from this repository. Native or data-heavy
// packages stay in node_modules (they are this package's dependencies): sharp (libvips),
// tesseract.js (starts its own worker script) and its language data, screenshot-desktop (ships
// helper scripts), systray2 (ships helper binaries), the Firebase client SDK and the vision LLM
// clients. The fonts text annotations need are copied beside the bundle (dist/fonts).
// Server-only packages (firebase-admin, firebase-functions) must never be reached from here: the
// build fails, naming the import, if one is.
import { build } from "esbuild";
import { cp, mkdir, readFile, rm } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
const outdir = join(root, "dist");

// Everything the package lists as a dependency is loaded from node_modules at run time.
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})];
// Cloud-only engines the local code never selects (the function's Cloud Vision OCR).
const unused = ["@google-cloud/vision"];
const serverOnly = /^(firebase-admin|firebase-functions|@google-cloud\/(firestore|storage))(\/|$)/;

const forbidServerPackages = {
  name: "forbid-server-packages",
  setup(b) {
    b.onResolve({ filter: serverOnly }, (args) => ({
      errors: [{ text: `${args.path} is server-only: the agent must not import it (imported by ${relative(root, args.importer)})` }],
    }));
  },
};

// One MCP SDK in the bundle: the server package the function's code is written against (resolved
// from functions/), also for the agent's own imports of it, so its classes are the same classes.
const functionsDir = join(root, "../functions");
const oneServerSdk = {
  name: "one-server-sdk",
  setup(b) {
    b.onResolve({ filter: /^@modelcontextprotocol\/server(\/|$)/ }, (args) =>
      args.pluginData === "one-server-sdk" ? undefined : b.resolve(args.path, { resolveDir: functionsDir, kind: args.kind, pluginData: "one-server-sdk" }),
    );
  },
};

await rm(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { cli: join(root, "src/cli.ts") },
  outdir,
  // `run` and `mcp` are chunks loaded on use, so `--help` or `status` load little. Chunks sit beside
  // cli.js: code that finds files relative to itself (package.json, fonts) sees the same folder.
  splitting: true,
  chunkNames: "[name]-[hash]",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: [...external, ...unused],
  plugins: [forbidServerPackages, oneServerSdk],
  // CommonJS packages bundled into an ES module still call require() for Node's built-ins.
  banner: { js: 'import { createRequire as __bundleRequire } from "node:module"; const require = __bundleRequire(import.meta.url);' },
  // Whitespace only: names stay readable in stack traces.
  minifyWhitespace: true,
  legalComments: "none",
  logLevel: "warning",
});
const fonts = join(root, "../functions/assets/fonts");
await mkdir(join(outdir, "fonts"), { recursive: true });
for (const f of ["LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf", "LICENSE-LiberationSans.txt"]) await cp(join(fonts, f), join(outdir, "fonts", f));
