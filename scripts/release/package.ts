// `npm run package`: what the release attaches besides the npm package and the plugin zip, in dist/:
//   fotos-mcp.mcpb                  the Claude Desktop bundle: the stdio server (`fotos-agent mcp`),
//                                   its manifest (tools and prompts from the fotos definitions),
//                                   and node_modules with the native parts for every platform
//   fotos-mcp-<os>-<arch>[.exe]     single executables (Node's single-executable applications) of
//   fotos-agent-<os>-<arch>[.exe]   the same program for this computer's OS, needing no Node
// Options: --out <dir> (instead of dist/), --skip-sea (the bundle only), --skip-mcpb (the
// executables only: the release builds those on each OS), --platforms a,b (the sharp builds the
// bundle carries; default: linux-x64, darwin-arm64, darwin-x64, win32-x64). Prints what it built.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { gzipSync } from "node:zlib";
import sharp from "sharp";
import { fotosServer } from "../../functions/src/domains/fotos/definition.js";
import { bundleManifest } from "./mcpb-manifest.js";

const ROOT = join(import.meta.dirname, "../..");
const AGENT = join(ROOT, "desktop-agent");
const NODE_MODULES = join(ROOT, "node_modules");
const agentPackage = JSON.parse(readFileSync(join(AGENT, "package.json"), "utf8")) as { version: string; description: string };

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const DIST = resolve(option("out") ?? join(ROOT, "dist"));
const BUNDLE = join(DIST, "fotos-mcp");
const SERVER = join(BUNDLE, "server");
const platforms = (option("platforms") ?? "linux-x64,darwin-arm64,darwin-x64,win32-x64").split(",");
const here = `${process.platform}-${process.arch}`;

const say = (line: string) => process.stderr.write(`[package] ${line}\n`);
// npm and the node_modules/.bin tools are .cmd scripts on Windows: started through its shell there.
const shellFor = (cmd: string) => process.platform === "win32" && !cmd.endsWith(".exe");
const run = (cmd: string, cmdArgs: string[], cwd = ROOT) => execFileSync(cmd, cmdArgs, { cwd, shell: shellFor(cmd), stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" });
/** For tools that print harmless warnings on success (postject on Node's ELF notes): output only on failure. */
function runQuiet(cmd: string, cmdArgs: string[]): void {
  try {
    execFileSync(cmd, cmdArgs, { shell: shellFor(cmd), stdio: "pipe" });
  } catch (err) {
    const e = err as { stderr?: Buffer; stdout?: Buffer };
    process.stderr.write(`${e.stdout ?? ""}${e.stderr ?? ""}`);
    throw err;
  }
}

/** The folder of `name` as Node would resolve it from `from` (node_modules upwards), or undefined. */
function packageDir(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dir === ROOT || dirname(dir) === dir) return undefined;
  }
}

/**
 * Copies `names` and everything they depend on (dependencies and installed optional ones) from the
 * workspace's node_modules into `target`, each at the same relative place, so resolution inside
 * the copy matches the workspace's (a nested other version stays nested).
 */
function copyPackages(names: string[], target: string): void {
  const copied = new Set<string>();
  const visit = (name: string, from: string, optional: boolean) => {
    const dir = packageDir(name, from);
    if (!dir) {
      if (optional) return;
      throw new Error(`${name} is not installed (needed from ${relative(ROOT, from)}): run npm install`);
    }
    if (copied.has(dir)) return;
    copied.add(dir);
    const inside = [...copied].some((c) => c !== dir && dir.startsWith(c + sep));
    if (!inside) cpSync(dir, join(target, relative(NODE_MODULES, dir)), { recursive: true, dereference: true });
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> };
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const name of names) visit(name, AGENT, false);
}

/** sharp's prebuilt binaries for the platforms this computer did not install, from the registry. */
function addSharpPlatforms(target: string): void {
  const sharpPkg = JSON.parse(readFileSync(join(target, "sharp/package.json"), "utf8")) as { optionalDependencies: Record<string, string> };
  const wanted = Object.entries(sharpPkg.optionalDependencies).filter(([name]) =>
    platforms.some((p) => name === `@img/sharp-${p}` || name === `@img/sharp-libvips-${p}`),
  );
  const fetchDir = mkdtempSync(join(tmpdir(), "sharp-platforms-"));
  try {
    for (const [name, version] of wanted) {
      const dest = join(target, name);
      if (existsSync(join(dest, "package.json"))) continue;
      const tarball = run("npm", ["pack", `${name}@${version}`, "--pack-destination", fetchDir, "--loglevel=error"], fetchDir).trim().split("\n").pop()!;
      mkdirSync(dest, { recursive: true });
      run("tar", ["-xzf", join(fetchDir, tarball), "-C", dest, "--strip-components=1"]);
      say(`added ${name}@${version}`);
    }
  } finally {
    rmSync(fetchDir, { recursive: true, force: true });
  }
}

async function stageServer(): Promise<void> {
  rmSync(BUNDLE, { recursive: true, force: true });
  mkdirSync(SERVER, { recursive: true });
  say("building the agent (self-contained)");
  run(process.execPath, [join(AGENT, "build.mjs"), "--self-contained", "--outdir", join(SERVER, "dist")], AGENT);
  const runtimePackages = JSON.parse(readFileSync(join(SERVER, "dist/runtime-packages.json"), "utf8")) as string[];
  rmSync(join(SERVER, "dist/runtime-packages.json"));
  cpSync(join(AGENT, "bin"), join(SERVER, "bin"), { recursive: true });
  writeFileSync(
    join(SERVER, "package.json"),
    JSON.stringify({ name: "fotos-agent", version: agentPackage.version, description: agentPackage.description, type: "module", private: true }, null, 2) + "\n",
  );
  // What Claude Desktop starts: user_config values it left empty are unset for the program.
  writeFileSync(
    join(SERVER, "index.js"),
    [
      "// fotos-mcp as a Claude Desktop extension: settings left empty in the extension's form are unset here.",
      'for (const [k, v] of Object.entries(process.env)) if (v !== undefined && (v.trim() === "" || v.startsWith("${user_config."))) delete process.env[k];',
      'process.argv.splice(2, 0, "mcp");',
      'await import("./dist/cli.js");',
      "",
    ].join("\n"),
  );
  // The single executables' way from CommonJS into these ES modules (sea-main.cjs).
  writeFileSync(join(SERVER, "sea-import.cjs"), "module.exports = (url) => import(url);\n");
  say(`copying ${runtimePackages.join(", ")} and their dependencies`);
  copyPackages(runtimePackages, join(SERVER, "node_modules"));
  // The executables carry only their own OS's build; the bundle carries every platform's.
  if (!args.includes("--skip-mcpb")) addSharpPlatforms(join(SERVER, "node_modules"));
}

async function writeManifest(): Promise<void> {
  await sharp(join(AGENT, "release/icon.svg")).resize(256, 256).png().toFile(join(BUNDLE, "icon.png"));
  const manifest = bundleManifest(fotosServer, { version: agentPackage.version, platforms: [...new Set(platforms.map((p) => p.split("-")[0]!))] });
  writeFileSync(join(BUNDLE, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n");
}

function packBundle(): string {
  const mcpb = join(ROOT, "node_modules/.bin/mcpb");
  run(mcpb, ["validate", join(BUNDLE, "manifest.json")]);
  const out = join(DIST, "fotos-mcp.mcpb");
  rmSync(out, { force: true });
  say("packing fotos-mcp.mcpb");
  run(mcpb, ["pack", BUNDLE, out]);
  return out;
}

/** Every file of `dir` in the archive format sea-main.cjs unpacks; sharp builds of other platforms left out. */
function archive(dir: string): Buffer {
  const files: [string, number, number][] = [];
  const bodies: Buffer[] = [];
  const foreignSharp = /(^|\/)node_modules\/@img\/sharp-(libvips-)?(?!colour)([a-z0-9]+-[a-z0-9]+)(\/|$)/;
  const walk = (current: string) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      const rel = relative(dir, path).split(sep).join("/");
      const native = foreignSharp.exec(rel);
      if (native && native[3] !== here) continue;
      const stat = statSync(path);
      if (stat.isDirectory()) walk(path);
      else {
        const body = readFileSync(path);
        files.push([rel, stat.mode & 0o777, body.length]);
        bodies.push(body);
      }
    }
  };
  walk(dir);
  const header = Buffer.from(JSON.stringify(files));
  const length = Buffer.alloc(4);
  length.writeUInt32LE(header.length);
  return gzipSync(Buffer.concat([length, header, ...bodies]), { level: 6 });
}

/** The single executables for this computer's OS: Node's own binary with the program injected. */
function buildExecutables(): string[] {
  const work = mkdtempSync(join(tmpdir(), "fotos-sea-"));
  const built: string[] = [];
  try {
    say("archiving the program for the executables");
    const app = archive(SERVER);
    writeFileSync(join(work, "app.gz"), app);
    // The cache folder's name: a new build never reuses an older unpacked copy.
    const id = `${agentPackage.version}-${createHash("sha256").update(app).digest("hex").slice(0, 16)}`;
    for (const [name, command] of [
      ["fotos-mcp", "mcp"],
      ["fotos-agent", "agent"],
    ] as const) {
      writeFileSync(join(work, `${name}.json`), JSON.stringify({ name, command, id }));
      const config = { main: join(AGENT, "release/sea-main.cjs"), output: join(work, `${name}.blob`), disableExperimentalSEAWarning: true, useCodeCache: false, useSnapshot: false, assets: { app: join(work, "app.gz"), entry: join(work, `${name}.json`) } };
      writeFileSync(join(work, `${name}.sea.json`), JSON.stringify(config));
      runQuiet(process.execPath, ["--experimental-sea-config", join(work, `${name}.sea.json`)]);
      const out = join(DIST, `${name}-${here}${process.platform === "win32" ? ".exe" : ""}`);
      rmSync(out, { force: true });
      cpSync(process.execPath, out);
      chmodSync(out, 0o755);
      if (process.platform === "darwin") run("codesign", ["--remove-signature", out]);
      const postject = join(ROOT, "node_modules/.bin/postject");
      runQuiet(postject, [out, "NODE_SEA_BLOB", config.output, "--sentinel-fuse", "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2", ...(process.platform === "darwin" ? ["--macho-segment-name", "NODE_SEA"] : [])]);
      if (process.platform === "darwin") run("codesign", ["--sign", "-", out]);
      say(`built ${relative(ROOT, out)}`);
      built.push(out);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return built;
}


mkdirSync(DIST, { recursive: true });
await stageServer();
if (!args.includes("--skip-mcpb")) {
  await writeManifest();
  process.stdout.write(`${packBundle()}\n`);
}
if (!args.includes("--skip-sea")) for (const out of buildExecutables()) process.stdout.write(`${out}\n`);
