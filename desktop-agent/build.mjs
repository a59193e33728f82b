// Builds the fotos-agent package: src/cli.ts and everything it imports — the agent's own code and
// the fotos domain's definitions, OCR and redaction from functions/src — into ES modules,
// dist/cli.js and the chunks it loads on use, so the published package needs nothing from this repository. Native or data-heavy
// packages stay in node_modules (they are this package's dependencies): sharp (libvips),
// tesseract.js (starts its own worker script) and its language data, screenshot-desktop (ships
// helper scripts), systray2 (ships helper binaries), the Firebase client SDK and the vision LLM
// clients. The fonts text annotations need are copied beside the bundle (dist/fonts).
// Server-only packages (firebase-admin, firebase-functions) must never be reached from here: the
// build fails, naming the import, if one is.
//   node build.mjs                                  the npm package's dist/
//   node build.mjs --self-contained --outdir <dir>  for the Claude Desktop bundle and the single
//     executables (scripts/release/package.ts): every dependency that can be inlined is inlined, only
//     RUNTIME_PACKAGES stay outside; <dir>/runtime-packages.json names them for the packager.
import { build } from "esbuild";
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const pkg = JSON.parse(await readFile(join(root, "package.json"), "utf8"));
const args = process.argv.slice(2);
const selfContained = args.includes("--self-contained");
const outdir = args.includes("--outdir") ? resolve(args[args.indexOf("--outdir") + 1]) : join(root, "dist");

// Packages that cannot live inside a bundle: native code (sharp's libvips), their own worker
// script and data files (tesseract.js and its language data), helper scripts and binaries
// (screenshot-desktop, systray2).
const RUNTIME_PACKAGES = ["sharp", "tesseract.js", "@tesseract.js-data/eng", "@tesseract.js-data/deu", "@tesseract.js-data/jpn", "screenshot-desktop", "systray2"];
// The npm package loads every dependency it lists from node_modules at run time.
const external = selfContained ? RUNTIME_PACKAGES : [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})];
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
// Some are loaded through createRequire or by a computed name, out of esbuild's sight: all are listed.
if (selfContained) await writeFile(join(outdir, "runtime-packages.json"), JSON.stringify(RUNTIME_PACKAGES, null, 2) + "\n");
