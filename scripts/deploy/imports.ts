// The functions' import graph, read from the sources: which packages the code needs (each must be
// declared in functions/package.json, since Cloud Build installs nothing else), which domain
// imports which (a domain never imports another; mcp/ knows no domain; the entry point loads a
// domain only lazily), which files each function can load, and which secrets those files read.
import { builtinModules } from "node:module";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { literalString, parseFile, walk, type Node, type SourceFile } from "./ast.js";

export interface Edge {
  from: string; // absolute path
  to?: string; // absolute path of a source file (relative imports)
  pkg?: string; // package name (bare imports)
  spec: string;
  dynamic: boolean;
  typeOnly: boolean;
  line: number;
}

export interface Graph {
  srcDir: string;
  files: Map<string, SourceFile>;
  edges: Map<string, Edge[]>;
}

const SECRET_NAME = /(API_?KEY|_KEY$|SECRET|TOKEN|PASSWORD|PRIVATE|CREDENTIAL)/i;
// Names that look secret but are public by design (Firebase's Web API key identifies the project
// to Identity Toolkit; it is shipped in every web app). Also exempt: names declared as string /
// number params (defineString…), which are configuration in functions/.env.<project>.
const PUBLIC_NAMES = new Set(["FIREBASE_WEB_API_KEY"]);
const PARAM_FUNCTIONS = new Set(["defineString", "defineInt", "defineFloat", "defineBoolean", "defineList"]);
const BUILTINS = new Set(builtinModules);

export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts"))
    .map((f) => join(dir, f))
    .sort();
}

export function packageOf(spec: string): string | null {
  if (spec.startsWith(".") || spec.startsWith("/")) return null;
  if (spec.startsWith("node:") || BUILTINS.has(spec) || BUILTINS.has(spec.split("/")[0]!)) return null;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
}

function resolveRelative(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  const candidates = [base.replace(/\.(m?js)$/, ".ts"), base.replace(/\.js$/, ".tsx"), base, `${base}.ts`, join(base, "index.ts")];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile() && /\.tsx?$/.test(c));
}

export function buildGraph(srcDir: string, root: string): Graph {
  const files = new Map<string, SourceFile>();
  const edges = new Map<string, Edge[]>();
  for (const path of sourceFiles(srcDir)) {
    const file = parseFile(path, relative(root, path));
    files.set(path, file);
    const out: Edge[] = [];
    const add = (spec: string, node: Node, dynamic: boolean, typeOnly: boolean) => {
      const edge: Edge = { from: path, spec, dynamic, typeOnly, line: file.line(node.start) };
      if (spec.startsWith(".")) {
        const to = resolveRelative(path, spec);
        if (to) edge.to = to;
      } else {
        const pkg = packageOf(spec);
        if (!pkg) return;
        edge.pkg = pkg;
      }
      out.push(edge);
    };
    walk(file.ast, (n) => {
      if (n.type === "ImportDeclaration") {
        const typeOnly = n.importKind === "type" || (n.specifiers.length > 0 && n.specifiers.every((s: Node) => s.importKind === "type"));
        add(n.source.value, n, false, typeOnly);
      } else if ((n.type === "ExportNamedDeclaration" || n.type === "ExportAllDeclaration") && n.source) {
        add(n.source.value, n, false, n.exportKind === "type");
      } else if (n.type === "ImportExpression") {
        const spec = literalString(n.source);
        if (spec !== undefined) add(spec, n, true, false);
      } else if (n.type === "TSImportType") {
        const spec = literalString(n.argument?.literal ?? n.argument);
        if (spec !== undefined) add(spec, n, false, true);
      }
    });
    edges.set(path, out);
  }
  return { srcDir, files, edges };
}

/** domains/<name>/… → name */
export function domainOf(graph: Graph, path: string): string | null {
  const rel = relative(graph.srcDir, path).split(sep);
  return rel[0] === "domains" && rel.length > 2 ? rel[1]! : null;
}

export interface Problem {
  kind: string;
  message: string;
}

/** Domain boundaries and packages the functions' own package.json does not provide. */
export function importProblems(graph: Graph, pkg: { dependencies?: Record<string, string> }, root: string): Problem[] {
  const problems: Problem[] = [];
  const deps = new Set(Object.keys(pkg.dependencies ?? {}));
  const entry = join(graph.srcDir, "index.ts");
  for (const [from, list] of graph.edges) {
    const where = (e: Edge) => `${relative(root, from)}:${e.line}`;
    const fromDomain = domainOf(graph, from);
    const fromArea = relative(graph.srcDir, from).split(sep)[0];
    for (const e of list) {
      if (e.pkg) {
        // Type-only imports vanish from lib/; if one cannot resolve, the clean build says so.
        if (!e.typeOnly && !deps.has(e.pkg)) {
          problems.push({
            kind: "package",
            message: `${where(e)} imports "${e.spec}", but functions/package.json does not list "${e.pkg}" in dependencies: it resolves only through the root workspace, and Cloud Build installs functions/ alone (add it to functions/package.json, then npm run lock:functions)`,
          });
        }
        continue;
      }
      // A view's stylesheet: the view build (functions/scripts/build-views.mjs) inlines it into the
      // view's HTML; no function loads a view's code.
      if (!e.to && e.spec.endsWith(".css") && /[\\/]views[\\/]/.test(e.from)) continue;
      if (!e.to) {
        problems.push({ kind: "import", message: `${where(e)} imports "${e.spec}", which is not a source file` });
        continue;
      }
      const toDomain = domainOf(graph, e.to);
      if (!toDomain) continue;
      if (fromDomain && fromDomain !== toDomain) {
        problems.push({
          kind: "boundary",
          message: `${where(e)}: domain "${fromDomain}" imports ${relative(root, e.to)} of domain "${toDomain}" (a domain imports mcp/, auth/, platform/, never another domain: its function would load the neighbour's code and dependencies)`,
        });
      } else if (!fromDomain && from === entry && !e.dynamic && !e.typeOnly) {
        problems.push({ kind: "boundary", message: `${where(e)} imports domain "${toDomain}" statically: every function's cold start would load it (import it lazily inside its own function)` });
      } else if (!fromDomain && from !== entry && !e.typeOnly) {
        problems.push({ kind: "boundary", message: `${where(e)}: shared code (${fromArea}/) imports domain "${toDomain}"; shared code knows no domain` });
      }
    }
  }
  return problems;
}

/**
 * The floors of the shared code, lowest first. A file imports only from its own floor or below;
 * `core/` (errors, env, log) imports nothing of ours and everything may import it; `contracts/` is
 * what the functions, the desktop agent and the Figma plugin agree on (the two bundle it), so it
 * imports only `core/`. Folders on one
 * floor may import each other (mcp/ and http/ share the request's types), but no file is part of
 * an import circle.
 */
export const FLOORS: readonly (readonly string[])[] = [["core"], ["contracts"], ["platform", "auth"], ["handler"], ["mcp"], ["http"], ["domains"], ["index.ts"]];
const FLOOR_ORDER = FLOORS.map((f) => f.map((a) => (a.endsWith(".ts") ? a : `${a}/`)).join(", ")).join(" < ");
export const FLOOR_RULE = `floors: ${FLOOR_ORDER}; a file imports only its own floor or below, and nothing imports in a circle`;

/** The top folder of a source file under src/ (or "index.ts" for the entry point). */
function areaOf(graph: Graph, path: string): string {
  return relative(graph.srcDir, path).split(sep)[0]!;
}

function floorOf(area: string): number {
  return FLOORS.findIndex((f) => f.includes(area));
}

/** Imports that go up a floor, and import circles between files. */
export function floorProblems(graph: Graph, root: string): Problem[] {
  const problems: Problem[] = [];
  for (const [from, list] of graph.edges) {
    const fromArea = areaOf(graph, from);
    const fromFloor = floorOf(fromArea);
    for (const e of list) {
      if (!e.to) continue;
      const toArea = areaOf(graph, e.to);
      const toFloor = floorOf(toArea);
      const at = `${relative(root, from)}:${e.line}`;
      if (fromFloor < 0) {
        problems.push({ kind: "floor", message: `${relative(root, from)} is in ${fromArea}/, which is on no floor: put it in one of ${FLOORS.flat().join(", ")} (floors: ${FLOOR_ORDER})` });
        break;
      }
      if (toFloor > fromFloor) {
        problems.push({
          kind: "floor",
          message: `${at}: ${fromArea}/ imports ${relative(root, e.to)} from ${toArea}/, a higher floor (floors: ${FLOOR_ORDER}): move what both need down to ${fromArea}/ or below`,
        });
      }
    }
  }
  for (const cycle of fileCycles(graph)) {
    problems.push({ kind: "floor", message: `import circle: ${[...cycle, cycle[0]!].map((f) => relative(root, f)).join(" → ")}: move what they share into a file of its own` });
  }
  return problems;
}

/** Circles of imports between files (type-only imports included: they are knowledge too), each reported once. */
function fileCycles(graph: Graph): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  const state = new Map<string, 1 | 2>(); // 1 on the stack, 2 done
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 1);
    stack.push(f);
    for (const e of graph.edges.get(f) ?? []) {
      if (!e.to) continue;
      if (state.get(e.to) === 1) {
        const found = stack.slice(stack.indexOf(e.to));
        const first = found.indexOf([...found].sort()[0]!);
        const cycle = [...found.slice(first), ...found.slice(0, first)]; // starts at its first file by name
        const key = [...cycle].sort().join("|");
        if (!seen.has(key)) {
          seen.add(key);
          out.push(cycle);
        }
      } else if (!state.has(e.to)) visit(e.to);
    }
    stack.pop();
    state.set(f, 2);
  };
  for (const f of [...graph.files.keys()].sort()) if (!state.has(f)) visit(f);
  return out;
}

/** Per exported function of index.ts: the source files its cold start and requests can load. */
export function functionFiles(graph: Graph): Map<string, Set<string>> {
  const entry = join(graph.srcDir, "index.ts");
  const file = graph.files.get(entry);
  const out = new Map<string, Set<string>>();
  if (!file) return out;
  const entryDynamic = new Set((graph.edges.get(entry) ?? []).filter((e) => e.dynamic).map((e) => `${e.line}:${e.spec}`));
  const closure = (starts: string[], skipEntryDynamic: boolean) => {
    const seen = new Set<string>();
    const todo = [...starts];
    while (todo.length) {
      const f = todo.pop()!;
      if (seen.has(f)) continue;
      seen.add(f);
      for (const e of graph.edges.get(f) ?? []) {
        if (!e.to || e.typeOnly) continue;
        if (skipEntryDynamic && f === entry && entryDynamic.has(`${e.line}:${e.spec}`)) continue;
        todo.push(e.to);
      }
    }
    return seen;
  };
  const shared = closure([entry], true);
  for (const [exported, lazy] of lazyImports(graph)) out.set(exported, new Set([...shared, ...closure(lazy, false)]));
  return out;
}

/**
 * Per export of index.ts: the source files it imports lazily, its own domain's (the loader of the
 * manifest it serves, `serve("<name>")`, or a dynamic import inside the export itself).
 */
export function lazyImports(graph: Graph): Map<string, string[]> {
  const entry = join(graph.srcDir, "index.ts");
  const file = graph.files.get(entry);
  const out = new Map<string, string[]>();
  if (!file) return out;
  const loaders = entryLoaders(file);
  for (const { exported, init } of entryExports(file)) {
    const served = servedName(init);
    const specs = served !== undefined ? [loaders.get(served)?.spec] : [];
    walk(init, (n) => {
      if (n.type === "ImportExpression") specs.push(literalString(n.source));
    });
    out.set(
      exported,
      specs.flatMap((spec) => {
        const to = spec && resolveRelative(entry, spec);
        return to ? [to] : [];
      }),
    );
  }
  return out;
}

/** index.ts's `export const <name> = …` declarations. */
function entryExports(file: SourceFile): { exported: string; init: Node; line: number }[] {
  const out: { exported: string; init: Node; line: number }[] = [];
  for (const stmt of file.ast.body as Node[]) {
    if (stmt.type !== "ExportNamedDeclaration" || stmt.declaration?.type !== "VariableDeclaration") continue;
    for (const d of stmt.declaration.declarations as Node[]) {
      if (d.id.type === "Identifier" && d.init) out.push({ exported: d.id.name, init: d.init, line: file.line(d.start) });
    }
  }
  return out;
}

/** The manifest an export serves: `serve("<name>")`. */
function servedName(init: Node): string | undefined {
  return init.type === "CallExpression" && init.callee.type === "Identifier" && init.callee.name === "serve" ? literalString(init.arguments[0]) : undefined;
}

/**
 * index.ts's loaders (`<name>: () => import("./domains/<name>/index.js")` in its `LOAD` record), by
 * manifest name. Only `LOAD`'s: other records of lazy imports there (the home page's per-domain
 * modules) are not what a function serves.
 */
function entryLoaders(file: SourceFile): Map<string, { spec: string; line: number }> {
  const out = new Map<string, { spec: string; line: number }>();
  let record: Node | undefined;
  walk(file.ast, (n) => {
    if (n.type === "VariableDeclarator" && n.id?.type === "Identifier" && n.id.name === "LOAD") record = n.init;
  });
  if (!record) return out;
  walk(record, (n) => {
    if (n.type !== "Property" || !n.value || n.value.type !== "ArrowFunctionExpression" || n.value.body?.type !== "ImportExpression") return;
    const key = n.key.type === "Identifier" ? n.key.name : literalString(n.key);
    const spec = literalString(n.value.body.source);
    if (key && spec) out.set(key, { spec, line: file.line(n.start) });
  });
  return out;
}

/**
 * A function's name is its manifest's key (core/manifest.ts): the export in index.ts, the URL and
 * token audience, the folder its loader imports. Each HTTPS export must be `export const <name> =
 * serve("<name>")`, and every manifest must be exported and load its own folder.
 */
export function manifestNameProblems(graph: Graph, root: string, manifestNames: readonly string[]): Problem[] {
  const entry = join(graph.srcDir, "index.ts");
  const file = graph.files.get(entry);
  if (!file) return [];
  const at = (line: number) => `${relative(root, entry)}:${line}`;
  const problems: Problem[] = [];
  const exportedFor = new Map<string, string>();
  for (const { exported, init, line } of entryExports(file)) {
    const served = servedName(init);
    if (served === undefined) continue;
    exportedFor.set(served, exported);
    if (!manifestNames.includes(served)) {
      problems.push({ kind: "manifest", message: `${at(line)}: export ${exported} serves "${served}", which has no manifest in functions/src/core/manifest.ts (add one, or serve a function that has one)` });
    } else if (exported !== served) {
      problems.push({
        kind: "manifest",
        message: `${at(line)}: export ${exported} serves the manifest "${served}": the export is the function's name, its URL and its tokens' audience, so it must be named as its manifest (export const ${served} = serve("${served}"))`,
      });
    }
  }
  const loaders = entryLoaders(file);
  for (const name of manifestNames) {
    if (!exportedFor.has(name)) problems.push({ kind: "manifest", message: `functions/src/core/manifest.ts declares "${name}", but index.ts exports no serve("${name}"): add export const ${name} = serve("${name}")` });
    const loader = loaders.get(name);
    if (loader && !new RegExp(`^\\./domains/${name}/`).test(loader.spec)) {
      problems.push({ kind: "manifest", message: `${at(loader.line)}: the loader of "${name}" imports ${loader.spec}: a function loads its own folder, ./domains/${name}/` });
    }
  }
  return problems;
}

export interface SecretUse {
  name: string;
  at: string;
}

/** Secret-looking environment variables read, and defineSecret(...) declarations, per file. */
export function secretUses(graph: Graph, root: string): { reads: Map<string, SecretUse[]>; declared: Map<string, SecretUse[]> } {
  const reads = new Map<string, SecretUse[]>();
  const declared = new Map<string, SecretUse[]>();
  const params = new Set<string>();
  const callName = (n: Node) => (n.callee.type === "Identifier" ? n.callee.name : n.callee.type === "MemberExpression" ? n.callee.property.name : undefined);
  for (const file of graph.files.values()) {
    walk(file.ast, (n) => {
      if (n.type === "CallExpression" && PARAM_FUNCTIONS.has(callName(n))) {
        const name = literalString(n.arguments[0]);
        if (name) params.add(name);
      }
    });
  }
  for (const [path, file] of graph.files) {
    const at = (n: Node) => `${relative(root, path)}:${file.line(n.start)}`;
    const r: SecretUse[] = [];
    const d: SecretUse[] = [];
    walk(file.ast, (n) => {
      if (n.type === "MemberExpression" && n.object.type === "MemberExpression" && n.object.object.type === "Identifier" && n.object.object.name === "process" && n.object.property.name === "env") {
        const name = n.computed ? literalString(n.property) : n.property.name;
        if (name && SECRET_NAME.test(name) && !PUBLIC_NAMES.has(name) && !params.has(name)) r.push({ name, at: at(n) });
      }
      if (n.type === "CallExpression" && callName(n) === "defineSecret") {
        const name = literalString(n.arguments[0]);
        if (name) d.push({ name, at: at(n) });
      }
    });
    if (r.length) reads.set(path, r);
    if (d.length) declared.set(path, d);
  }
  return { reads, declared };
}

/** The packages that bundle code of functions/src into something shipped elsewhere. */
export const CLIENT_PACKAGES = ["desktop-agent", "figma-plugin"] as const;

/**
 * The desktop agent and the Figma plugin bundle what they import of functions/src: only the
 * contracts (contracts/) and a domain's published definitions (domains/<name>/published.ts), so
 * neither ships the functions' internals nor breaks when they move.
 */
export function clientImportProblems(root: string, functionsSrc: string): Problem[] {
  const problems: Problem[] = [];
  for (const pkg of CLIENT_PACKAGES) {
    for (const path of sourceFiles(join(root, pkg, "src"))) {
      const file = parseFile(path, relative(root, path));
      const check = (spec: string | undefined, node: Node) => {
        if (!spec?.startsWith(".")) return;
        const to = resolveRelative(path, spec);
        if (!to || !to.startsWith(functionsSrc + sep)) return;
        const rel = relative(functionsSrc, to).split(sep);
        if (rel[0] === "contracts" || (rel[0] === "domains" && rel.length === 3 && rel[2] === "published.ts")) return;
        problems.push({
          kind: "floor",
          message: `${relative(root, path)}:${file.line(node.start)}: ${pkg}/ imports ${relative(root, to)}: it may import only functions/src/contracts/ and a domain's published definitions (functions/src/domains/<name>/published.ts); publish what it needs there`,
        });
      };
      walk(file.ast, (n) => {
        if ((n.type === "ImportDeclaration" || ((n.type === "ExportNamedDeclaration" || n.type === "ExportAllDeclaration") && n.source)) && n.source) check(n.source.value, n);
        else if (n.type === "ImportExpression") check(literalString(n.source), n);
      });
    }
  }
  return problems;
}
