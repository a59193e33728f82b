// The start of the single executables (fotos-mcp, fotos-agent): Node's single-executable
// application runs this file, which may load only Node's built-in modules. The executable carries
// the packaged program (the bundle's server/ folder: the built agent and the packages with native
// code or data files) as the asset "app", and {name, command, id} as "entry". The first start unpacks
// the program into a per-user cache folder named by its id; every start then runs its cli.js, as
// `node bin/fotos-agent.js [mcp] <args>` would.
const { createHash } = require("node:crypto");
const { existsSync, mkdirSync, renameSync, rmSync, writeFileSync, chmodSync } = require("node:fs");
const { createRequire } = require("node:module");
const { homedir, tmpdir } = require("node:os");
const { dirname, join } = require("node:path");
const { pathToFileURL } = require("node:url");
const { gunzipSync } = require("node:zlib");
const sea = require("node:sea");

const entry = JSON.parse(sea.getAsset("entry", "utf8"));

function cacheRoot() {
  if (process.env.FOTOS_CACHE_DIR) return process.env.FOTOS_CACHE_DIR;
  if (process.platform === "win32") return join(process.env.LOCALAPPDATA || join(homedir(), "AppData", "Local"), "fotos-agent", "Cache");
  if (process.platform === "darwin") return join(homedir(), "Library", "Caches", "fotos-agent");
  return join(process.env.XDG_CACHE_HOME || join(homedir(), ".cache"), "fotos-agent");
}

/** The archive: gzip of [u32 header length][header JSON: [path, mode, size][]][file bytes…]. */
function unpack(target) {
  const data = gunzipSync(Buffer.from(sea.getAsset("app")));
  const headerLength = data.readUInt32LE(0);
  const files = JSON.parse(data.subarray(4, 4 + headerLength).toString("utf8"));
  let offset = 4 + headerLength;
  for (const [path, mode, size] of files) {
    const file = join(target, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, data.subarray(offset, offset + size));
    chmodSync(file, mode);
    offset += size;
  }
}

function programFolder() {
  let root = cacheRoot();
  try {
    mkdirSync(root, { recursive: true });
  } catch {
    root = join(tmpdir(), `fotos-agent-cache-${createHash("sha256").update(homedir()).digest("hex").slice(0, 8)}`);
  }
  const folder = join(root, entry.id);
  // The marker is written last: a folder without it is an interrupted unpack, done again.
  if (existsSync(join(folder, ".complete"))) return folder;
  const partial = `${folder}.${process.pid}.tmp`;
  rmSync(partial, { recursive: true, force: true });
  unpack(partial);
  writeFileSync(join(partial, ".complete"), "");
  try {
    renameSync(partial, folder);
  } catch (err) {
    // Another start unpacked it first: use theirs.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(join(folder, ".complete"))) throw err;
  }
  return folder;
}

let folder;
try {
  folder = programFolder();
} catch (err) {
  process.stderr.write(`${entry.name}: could not unpack the program into ${cacheRoot()} (${err.message}); set FOTOS_CACHE_DIR to a writable folder\n`);
  process.exit(1);
}
// argv is [executable, executable, …arguments]: cli.js reads from index 2.
if (entry.command === "mcp") process.argv.splice(2, 0, "mcp");
// The program is ES modules on disk: a CommonJS file loaded from there may import() them.
createRequire(join(folder, "package.json"))("./sea-import.cjs")(pathToFileURL(join(folder, "dist", "cli.js")).href);
