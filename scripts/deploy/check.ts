// `npm run deploy:check`: everything `firebase deploy` would find wrong, found offline first.
//   install   functions/ installs and builds alone (clean copy outside the workspace, npm ci
//             from its own lockfile, the predeploy command of firebase.json)
//   manifest  the SDK's discovery + the CLI's own validation; region, memory, CPU, timeout,
//             concurrency, instances, secrets and params per function; explicit limits
//   imports   every HTTPS export is named as its manifest (core/manifest.ts) and loads its own
//             folder; every package the code imports is in functions/package.json; the floors hold
//             (core/ < contracts/ < platform/, auth/ < handler/ < mcp/ < http/ < domains/ < index.ts: a file imports only
//             its own floor or below, nothing imports in a circle); desktop-agent/ and
//             figma-plugin/ import only contracts/ and domains/<name>/published.ts; no domain imports another;
//             shared code knows no domain
//   secrets   every secret a function's code reads is declared (defineSecret), bound to that
//             function, and documented
//   indexes   firestore.indexes.json is valid (the CLI's validator)
//   queries   every Firestore query in the code has the index production needs
//   rules     firestore.rules and storage.rules compile (emulator's rules compiler)
//   coldstart each function's import time and modules; a function loading a neighbour fails
// Options: --root <dir> (the repository to check), --only a,b (steps), --project <alias|id>,
// --no-install (reuse the node_modules of an earlier clean install of the same lockfile: fast,
// for tests), --keep (leave the clean copy in place).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { formatColdStart, measureColdStart } from "./cold-start.js";
import { buildGraph, domainOf, FLOOR_RULE, floorProblems, functionFiles, importProblems, lazyImports, manifestNameProblems, clientImportProblems, secretUses, sourceFiles } from "./imports.js";
import { formatShape, missingIndex, type IndexFile } from "./indexes.js";
import { discover, formatManifest, limitProblems, userEnvs, validateWithCli, type Manifest } from "./manifest.js";
import { collectQueries } from "./queries.js";
import { compileRules } from "./rules.js";

const STEPS = ["install", "manifest", "imports", "secrets", "indexes", "queries", "rules", "coldstart"] as const;
type Step = (typeof STEPS)[number];

const argv = process.argv.slice(2);
const opt = (name: string) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const ROOT = resolve(opt("--root") ?? join(import.meta.dirname, "../.."));
const only = opt("--only")?.split(",") as Step[] | undefined;
for (const s of only ?? []) if (!STEPS.includes(s)) throw new Error(`unknown step "${s}" (steps: ${STEPS.join(", ")})`);
const wants = (s: Step) => !only || only.includes(s);
const needsBuild = ["install", "manifest", "secrets", "coldstart"].some((s) => wants(s as Step));
const install = !argv.includes("--no-install");

const problems: string[] = [];
const fail = (section: string, message: string) => {
  const line = `[${section}] ${message}`;
  if (!problems.includes(line)) problems.push(line);
};
const heading = (t: string) => console.log(`\n── ${t} ${"─".repeat(Math.max(0, 70 - t.length))}`);
const json = (p: string) => JSON.parse(readFileSync(join(ROOT, p), "utf8"));

const firebaseJson = json("firebase.json");
const fnConfig = firebaseJson.functions[0];
const functionsSrcDir = join(ROOT, fnConfig.source);
const aliases: Record<string, string> = json(".firebaserc").projects ?? {};
const projectArg = opt("--project") ?? "default";
const projectId = aliases[projectArg] ?? projectArg;
const started = Date.now();
// The manifests of the tree being checked (core/manifest.ts imports nothing, so it loads alone).
const manifestPath = join(functionsSrcDir, "src/core/manifest.ts");
const { FUNCTION_NAMES } = existsSync(manifestPath) ? ((await import(pathToFileURL(manifestPath).href)) as { FUNCTION_NAMES: string[] }) : { FUNCTION_NAMES: [] as string[] };

// --- install: a clean copy, as Cloud Build sees it -------------------------------------------
let built: string | null = null; // the functions dir of the clean copy, installed and built
let workDir: string | null = null;
if (needsBuild) {
  heading(`functions/ alone: ${install ? "npm ci" : "existing node_modules"} + predeploy build in a clean copy`);
  workDir = mkdtempSync(join(tmpdir(), "deploy-check-"));
  const copy = join(workDir, fnConfig.source);
  // Only what belongs to functions/ (plus the tsconfig it extends): nothing else of the workspace.
  cpSync(functionsSrcDir, copy, { recursive: true, filter: (src) => !/\/(node_modules|lib)(\/|$)/.test(relative(ROOT, src)) });
  const extendsPath = JSON.parse(readFileSync(join(functionsSrcDir, "tsconfig.json"), "utf8")).extends as string | undefined;
  if (extendsPath?.startsWith("..")) cpSync(resolve(functionsSrcDir, extendsPath), resolve(copy, extendsPath));
  const t0 = Date.now();
  let ok = true;
  const lock = join(copy, "package-lock.json");
  // --no-install reuses the node_modules of an earlier clean install of the same lockfile.
  const cache = existsSync(lock) ? join(tmpdir(), "deploy-check-cache", createHash("sha256").update(readFileSync(lock)).digest("hex").slice(0, 16)) : null;
  if (!existsSync(lock)) {
    fail("install", "functions/package-lock.json is missing: run npm run lock:functions");
    ok = false;
  } else if (!install && cache && existsSync(join(cache, "node_modules"))) {
    symlinkSync(join(cache, "node_modules"), join(copy, "node_modules"));
  } else {
    const ci = spawnSync("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: copy, encoding: "utf8" });
    if (ci.status !== 0) {
      fail("install", `npm ci in functions/ alone failed (is package-lock.json in step with package.json? run npm run lock:functions):\n${(ci.stderr || ci.stdout).trim().split("\n").slice(-12).join("\n")}`);
      ok = false;
    } else if (cache && !existsSync(join(cache, "node_modules"))) {
      // Keep this install for later --no-install runs (tests); the copy links to it.
      mkdirSync(cache, { recursive: true });
      try {
        renameSync(join(copy, "node_modules"), join(cache, "node_modules"));
        symlinkSync(join(cache, "node_modules"), join(copy, "node_modules"));
      } catch {
        // another run filled the cache first: keep using our own copy
      }
    }
  }
  const t1 = Date.now();
  if (ok) {
    for (const hook of (fnConfig.predeploy ?? []) as string[]) {
      const run = spawnSync("bash", ["-c", hook], { cwd: workDir, encoding: "utf8", env: { ...process.env, RESOURCE_DIR: copy, PROJECT_DIR: workDir } });
      if (run.status !== 0) {
        fail("install", `predeploy "${hook}" failed in the clean copy:\n${(run.stdout + run.stderr).trim().split("\n").filter((l) => !/^(>|$|npm warn)/.test(l)).slice(0, 15).join("\n")}`);
        ok = false;
      }
    }
  }
  console.log(`install ${((t1 - t0) / 1000).toFixed(1)} s, build ${((Date.now() - t1) / 1000).toFixed(1)} s${ok ? "" : " — failed"}`);
  if (ok) built = copy;
}

// --- manifest --------------------------------------------------------------------------------
let manifest: Manifest | null = null;
if (built && (wants("manifest") || wants("secrets") || wants("coldstart"))) {
  heading(`functions manifest (firebase-functions discovery, project ${projectId})`);
  try {
    manifest = discover(built, projectId, userEnvs(built, projectId, projectArg));
    console.log(formatManifest(manifest));
    if (wants("manifest")) {
      try {
        await validateWithCli(manifest, projectId, fnConfig.runtime, userEnvs(built, projectId, projectArg));
      } catch (e) {
        fail("manifest", `firebase-tools refuses the manifest: ${(e as Error).message}`);
      }
      for (const p of limitProblems(manifest, FUNCTION_NAMES)) fail("limits", p);
      for (const e of manifest.endpoints) {
        if (e.invoker.includes("public") && e.maxInstances !== null && e.maxInstances > 100) fail("limits", `function ${e.id} is public with maxInstances ${e.maxInstances}: choose a bound you can pay for`);
      }
    }
  } catch (e) {
    fail("manifest", (e as Error).message);
  }
}

// --- imports and secrets (static) -------------------------------------------------------------
const graph = buildGraph(join(functionsSrcDir, "src"), ROOT);
if (wants("imports")) {
  heading("imports: packages, floors and domain boundaries");
  const pkg = JSON.parse(readFileSync(join(functionsSrcDir, "package.json"), "utf8"));
  const found = importProblems(graph, pkg, ROOT);
  for (const p of found) fail(p.kind === "boundary" ? "boundary" : "imports", p.message);
  const names = manifestNameProblems(graph, ROOT, FUNCTION_NAMES);
  for (const p of names) fail("manifest", p.message);
  console.log(names.length ? `${names.length} manifest problem(s)` : `exports named as their manifests: ${FUNCTION_NAMES.join(", ")}`);
  const floors = [...floorProblems(graph, ROOT), ...clientImportProblems(ROOT, join(functionsSrcDir, "src"))];
  for (const p of floors) fail("floor", p.message);
  console.log(floors.length ? `${floors.length} floor problem(s); ${FLOOR_RULE}` : `${FLOOR_RULE}: holds`);
  console.log(`desktop-agent/, figma-plugin/: functions/src only through contracts/ and domains/<name>/published.ts`);
  const perFn = functionFiles(graph);
  for (const [fn, files] of perFn) {
    const domains = new Set([...files].map((f) => domainOf(graph, f)).filter(Boolean));
    console.log(`${fn.padEnd(10)} ${String(files.size).padStart(3)} source files, domains: ${[...domains].join(", ") || "none"}`);
    if (domains.size > 1) fail("boundary", `function ${fn} can load the code of domains ${[...domains].join(" and ")}`);
  }
  if (!found.length) console.log("no undeclared packages, no cross-domain imports");
}

if (wants("secrets")) {
  heading("secrets");
  const { reads, declared } = secretUses(graph, ROOT);
  const perFn = functionFiles(graph);
  const entry = join(functionsSrcDir, "src/index.ts");
  // How to set each secret: README's production section, docs/deploy.md or the domain's page.
  const docPages = ["README.md", ...(existsSync(join(ROOT, "docs")) ? readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`) : [])];
  const docs = docPages.map((p) => readFileSync(join(ROOT, p), "utf8")).join("\n");
  const declaredNames = new Set([...declared.values()].flat().map((d) => d.name));
  const secretParams = new Set((manifest?.params ?? []).filter((p) => p.type === "secret").map((p) => p.name));
  const all = new Map<string, Set<string>>();
  for (const [fn, files] of perFn) {
    const endpoint = manifest?.endpoints.find((e) => e.id === fn);
    const bound = new Set(endpoint?.secrets ?? []);
    for (const s of bound) (all.get(s) ?? all.set(s, new Set()).get(s)!).add(fn);
    for (const s of bound) if (manifest && !secretParams.has(s)) fail("secrets", `function ${fn} binds secret ${s} by name: declare it with defineSecret("${s}") so deploy checks it exists`);
    for (const file of files) {
      // A secret is read in the folder of the one function that binds it (its domain): shared
      // code (auth/, platform/…) is loaded by every function and reads none.
      const shared = domainOf(graph, file) === null;
      const uses = [...(reads.get(file) ?? []), ...(file === entry ? [] : (declared.get(file) ?? []))];
      for (const use of uses) {
        if (shared) {
          fail("secrets", `${use.at} reads secret ${use.name} in shared code, which every function loads: read it in the folder of the function that binds it (functions/src/domains/<name>/)`);
        } else if (!declaredNames.has(use.name)) {
          fail("secrets", `${use.at} reads secret ${use.name}, which is not declared: list it in ${fn}'s \`secrets\` in functions/src/core/manifest.ts and declare it in SECRETS in functions/src/index.ts (${use.name}: defineSecret("${use.name}"))`);
        } else if (manifest && !bound.has(use.name)) {
          fail("secrets", `${use.at} reads secret ${use.name}, but function ${fn} does not bind it: add it to ${fn}'s \`secrets\` in functions/src/core/manifest.ts (unbound, it is empty in production)`);
        }
        if (!shared) (all.get(use.name) ?? all.set(use.name, new Set()).get(use.name)!).add(fn);
      }
    }
  }
  for (const [name, fns] of all) {
    console.log(`${name}: ${[...fns].join(", ")}`);
    if (!docs.includes(`secrets:set ${name}`)) fail("secrets", `secret ${name} is not documented: say in docs/deploy.md how to set it (firebase functions:secrets:set ${name})`);
  }
  if (!all.size) console.log("no function reads a secret");
}

// --- indexes and queries ----------------------------------------------------------------------
let indexSpec: IndexFile | null = null;
if (wants("indexes") || wants("queries")) {
  const path = join(ROOT, firebaseJson.firestore.indexes);
  try {
    indexSpec = JSON.parse(readFileSync(path, "utf8")) as IndexFile;
  } catch (e) {
    fail("indexes", `${firebaseJson.firestore.indexes} does not parse: ${(e as Error).message}`);
  }
}
if (wants("indexes") && indexSpec) {
  heading("indexes");
  try {
    const cli = createRequire(join(import.meta.dirname, "../../node_modules/firebase-tools/package.json"));
    const { FirestoreApi } = cli("./lib/firestore/api.js");
    new FirestoreApi().validateSpec(indexSpec);
    const dims = new Set(indexSpec.indexes.flatMap((i) => i.fields.filter((f) => f.vectorConfig).map((f) => f.vectorConfig!.dimension)));
    for (const d of dims) if (!(d >= 1 && d <= 2048)) fail("indexes", `vector dimension ${d} is outside 1–2048`);
    console.log(`${indexSpec.indexes.length} composite/vector indexes, ${indexSpec.fieldOverrides?.length ?? 0} field overrides: valid`);
  } catch (e) {
    fail("indexes", `${firebaseJson.firestore.indexes} is invalid: ${(e as Error).message}`);
  }
}
if (wants("queries") && indexSpec) {
  heading("queries and the indexes they need");
  const dirs = [join(functionsSrcDir, "src"), join(ROOT, "desktop-agent"), join(ROOT, "figma-plugin")];
  const files = dirs.flatMap((d) => sourceFiles(d)).filter((f) => !/\/(node_modules|lib|dist|build)\//.test(f));
  const { queries, unreadable } = collectQueries(files, ROOT);
  let ok = 0;
  for (const q of queries.sort((a, b) => a.at.localeCompare(b.at))) {
    const missing = missingIndex(q.shape, indexSpec);
    if (missing) fail("queries", `${q.at}: ${formatShape(q.shape)} — ${missing} (add it to firestore.indexes.json)`);
    else ok++;
  }
  for (const u of unreadable) console.log(`note: ${u}`);
  console.log(`${queries.length} query shapes in ${files.length} files: ${ok} served by declared or automatic indexes`);
}

// --- rules ------------------------------------------------------------------------------------
if (wants("rules")) {
  heading("security rules");
  const host = process.env.FIRESTORE_EMULATOR_HOST;
  if (!host) fail("rules", "no Firestore emulator to compile rules with (run through npm run deploy:check, which starts one)");
  else {
    for (const file of [firebaseJson.firestore?.rules, firebaseJson.storage?.rules].filter(Boolean) as string[]) {
      const issues = await compileRules(host, file, readFileSync(join(ROOT, file), "utf8"));
      for (const i of issues) fail("rules", `${file}:${i.line}:${i.column} ${i.message}`);
      console.log(`${file}: ${issues.length ? `${issues.length} error(s)` : "compiles"}`);
    }
  }
}

// --- cold start -------------------------------------------------------------------------------
if (wants("coldstart") && built && manifest) {
  heading("cold start: import time and modules per function");
  const lazy = lazyImports(graph);
  for (const ep of manifest.endpoints) {
    // The function's lazily imported modules: its loader in index.ts.
    const targets = lazy.get(ep.id) ?? [];
    const libFiles = targets.map((t) => join(built, "lib", relative(join(functionsSrcDir, "src"), t)).replace(/\.tsx?$/, ".js"));
    const own = targets.map((t) => domainOf(graph, t)).find(Boolean) ?? null;
    const c = measureColdStart(built, ep.id, libFiles, own, { GCLOUD_PROJECT: projectId, NODE_ENV: "production" });
    console.log(formatColdStart(c));
    if (c.error) fail("coldstart", `function ${ep.id} fails to load in the clean copy: ${c.error}`);
    if (c.foreignDomains.length) fail("boundary", `function ${ep.id} loads the compiled code of domain(s) ${c.foreignDomains.join(", ")} at cold start`);
  }
}

if (workDir && !argv.includes("--keep")) rmSync(workDir, { recursive: true, force: true });
else if (workDir) console.log(`\nclean copy kept at ${workDir}`);

heading(`result (${((Date.now() - started) / 1000).toFixed(1)} s)`);
if (problems.length) {
  for (const p of problems) console.log(`✗ ${p}`);
  console.log(`\ndeploy:check found ${problems.length} problem(s): firebase deploy would fail or deploy something broken.`);
  process.exit(1);
}
console.log("deploy:check: nothing firebase deploy would refuse.");
