// Collects every Firestore query the code runs, by static analysis of the query-builder calls
// (Admin SDK chains `db.collection(..).where(..).orderBy(..).get()`, collection groups,
// `findNearest`, `count()`, transactions' `tx.get(query)`, and the client SDK's
// `query(collection(..), where(..))` / `getDocs` / `onSnapshot`). No hand-kept list: a small
// abstract interpreter follows values through variables, branches (`if (x) q = q.where(..)` gives
// both shapes), helper functions and methods across modules, so a new module's queries are found
// the moment it exists. What it cannot read (a field name computed at run time) is reported.
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { literalString, parseFile, type Node, type SourceFile } from "./ast.js";

export type Scope = "COLLECTION" | "COLLECTION_GROUP";
export interface Filter {
  field: string;
  op: string;
}
export interface Order {
  field: string;
  dir: "ASCENDING" | "DESCENDING";
}
export interface QueryShape {
  scope: Scope;
  collection: string; // the collection id (last path segment)
  filters: Filter[];
  orders: Order[];
  vector?: string; // findNearest's vector field
  aggregate?: boolean;
}
export interface FoundQuery {
  shape: QueryShape;
  at: string; // file:line where it runs
}
export interface CollectResult {
  queries: FoundQuery[];
  unreadable: string[]; // file:line + why
}

const UNKNOWN_PART = "\u0000";

type V =
  | { k: "unknown" }
  | { k: "str"; v: string }
  | { k: "ref"; kind: "collection" | "query" | "vector" | "aggregate"; shape: QueryShape; path?: string }
  | { k: "doc"; path?: string }
  | { k: "constraint"; filter?: Filter; order?: Order; or?: V[]; and?: V[] }
  | { k: "fn"; node: Node; scope: Env; mod: Mod; self?: V }
  | { k: "class"; node: Node; scope: Env; mod: Mod }
  | { k: "inst"; cls: Extract<V, { k: "class" }>; props: Map<string, V> }
  | { k: "arr"; elems: V[] }
  | { k: "obj"; props: Map<string, V> }
  | { k: "ns"; mod: Mod }
  | { k: "sdk"; name: string } // a client-SDK function imported from firebase/firestore
  | { k: "union"; opts: V[] };

const UNKNOWN: V = { k: "unknown" };
const MAX_UNION = 512;

interface Lazy {
  lazy: true;
  get: () => V;
}
class Env {
  vars = new Map<string, V | Lazy>();
  constructor(
    readonly parent: Env | null,
    readonly boundary = false,
  ) {}
  lookup(name: string): V | undefined {
    for (let e: Env | null = this; e; e = e.parent) {
      if (e.vars.has(name)) {
        const v = e.vars.get(name)!;
        if ("lazy" in v) {
          const value = v.get();
          e.vars.set(name, value);
          return value;
        }
        return v;
      }
    }
    return undefined;
  }
  assign(name: string, value: V): void {
    for (let e: Env | null = this; e; e = e.parent) {
      if (e.vars.has(name)) {
        e.vars.set(name, value);
        return;
      }
    }
  }
  declare(name: string, value: V | Lazy): void {
    this.vars.set(name, value);
  }
  /** The scopes a branch may change: up to the enclosing function. */
  chain(): Env[] {
    const out: Env[] = [];
    for (let e: Env | null = this; e; e = e.parent) {
      out.push(e);
      if (e.boundary) break;
    }
    return out;
  }
}

interface Mod {
  file: SourceFile;
  env: Env;
  exports: Map<string, () => V>;
  starExports: string[]; // resolved module paths
  evaluated: boolean;
}

// ---------------------------------------------------------------------------------------------

function union(...values: V[]): V {
  const opts: V[] = [];
  const seen = new Set<string>();
  const add = (v: V) => {
    if (v.k === "union") return v.opts.forEach(add);
    const key = v.k === "ref" ? `ref:${v.kind}:${shapeKey(v.shape)}` : v.k === "str" ? `str:${v.v}` : v.k === "unknown" ? "unknown" : null;
    if (key) {
      if (seen.has(key)) return;
      seen.add(key);
    } else if (opts.includes(v)) return;
    if (opts.length < MAX_UNION) opts.push(v);
  };
  values.forEach(add);
  if (opts.length === 0) return UNKNOWN;
  if (opts.length === 1) return opts[0]!;
  // An unknown beside known values adds nothing the checks can use.
  const known = opts.filter((o) => o.k !== "unknown");
  if (known.length === 1) return known[0]!;
  return { k: "union", opts: known.length ? known : opts };
}

const options = (v: V): V[] => (v.k === "union" ? v.opts : [v]);

export function shapeKey(s: QueryShape): string {
  return JSON.stringify([s.scope, s.collection, s.filters.map((f) => [f.field, f.op]), s.orders.map((o) => [o.field, o.dir]), s.vector ?? "", !!s.aggregate]);
}

function lastSegmentCollection(path: string | undefined): { id: string; path: string } | undefined {
  if (path === undefined) return undefined;
  const segments = path.split("/").filter((s) => s !== "");
  if (segments.length % 2 === 0) return undefined;
  const id = segments[segments.length - 1]!;
  return id.includes(UNKNOWN_PART) ? undefined : { id, path };
}

// ---------------------------------------------------------------------------------------------

export function collectQueries(files: string[], root: string): CollectResult {
  const collector = new Collector(root);
  for (const f of files) collector.module(f);
  collector.exploreAll();
  return { queries: [...collector.found.values()], unreadable: [...new Set(collector.unreadable)] };
}

class Collector {
  mods = new Map<string, Mod>();
  found = new Map<string, FoundQuery>();
  unreadable: string[] = [];
  private queue: V[] = [];
  private explored = new Set<Node>();
  private stack: Node[] = [];
  private steps = 0;
  private currentMod: Mod | null = null;

  constructor(private readonly root: string) {}

  module(path: string): Mod | undefined {
    const existing = this.mods.get(path);
    if (existing) return existing;
    let file: SourceFile;
    try {
      file = parseFile(path, relative(this.root, path));
    } catch (e) {
      this.unreadable.push(`${relative(this.root, path)}: does not parse (${(e as Error).message.split("\n")[0]})`);
      return undefined;
    }
    const mod: Mod = { file, env: new Env(null, true), exports: new Map(), starExports: [], evaluated: false };
    this.mods.set(path, mod);
    this.declareModule(mod);
    return mod;
  }

  private resolveImport(from: string, spec: string): string | undefined {
    if (!spec.startsWith(".")) return undefined;
    const base = resolve(dirname(from), spec);
    const candidates = [base.replace(/\.(m?js)$/, ".ts"), base.replace(/\.js$/, ".tsx"), base, `${base}.ts`, join(base, "index.ts")];
    return candidates.find((c) => existsSync(c) && statSync(c).isFile() && /\.tsx?$/.test(c));
  }

  private declareModule(mod: Mod): void {
    const { env } = mod;
    const lazyDecl = (name: string, make: () => V) => {
      let done = false;
      let value: V = UNKNOWN;
      const get = () => {
        if (!done) {
          done = true;
          value = make();
        }
        return value;
      };
      env.declare(name, { lazy: true, get });
      return get;
    };
    for (const stmt of mod.file.ast.body as Node[]) {
      const decl = stmt.type === "ExportNamedDeclaration" || stmt.type === "ExportDefaultDeclaration" ? stmt.declaration : stmt;
      if (stmt.type === "ImportDeclaration") {
        const spec = stmt.source.value as string;
        const target = this.resolveImport(mod.file.path, spec);
        for (const s of stmt.specifiers as Node[]) {
          const local = s.local.name as string;
          if (s.type === "ImportNamespaceSpecifier") {
            lazyDecl(local, () => {
              const m = target ? this.module(target) : undefined;
              return m ? { k: "ns", mod: m } : UNKNOWN;
            });
          } else {
            const imported = s.type === "ImportDefaultSpecifier" ? "default" : ((s.imported.name ?? s.imported.value) as string);
            if (!target) {
              const sdk = /^(firebase\/firestore|@firebase\/firestore|firebase\/firestore\/lite)$/.test(spec);
              env.declare(local, sdk ? { k: "sdk", name: imported } : UNKNOWN);
            } else lazyDecl(local, () => this.exportOf(target, imported));
          }
        }
        continue;
      }
      if (stmt.type === "ExportNamedDeclaration" && !stmt.declaration) {
        const target = stmt.source ? this.resolveImport(mod.file.path, stmt.source.value) : undefined;
        for (const s of stmt.specifiers as Node[]) {
          const localName = (s.local.name ?? s.local.value) as string;
          const exported = (s.exported.name ?? s.exported.value) as string;
          if (stmt.source) mod.exports.set(exported, () => (target ? this.exportOf(target, localName) : UNKNOWN));
          else mod.exports.set(exported, () => env.lookup(localName) ?? UNKNOWN);
        }
        continue;
      }
      if (stmt.type === "ExportAllDeclaration") {
        const target = this.resolveImport(mod.file.path, stmt.source.value);
        if (target && !stmt.exported) mod.starExports.push(target);
        continue;
      }
      if (!decl) continue;
      const exported = stmt.type === "ExportNamedDeclaration";
      if (decl.type === "FunctionDeclaration" && decl.id) {
        const name = decl.id.name as string;
        const v: V = { k: "fn", node: decl, scope: env, mod };
        env.declare(name, v);
        if (exported) mod.exports.set(name, () => v);
        if (stmt.type === "ExportDefaultDeclaration") mod.exports.set("default", () => v);
      } else if (decl.type === "ClassDeclaration" && decl.id) {
        const name = decl.id.name as string;
        const v: V = { k: "class", node: decl, scope: env, mod };
        env.declare(name, v);
        if (exported) mod.exports.set(name, () => v);
      } else if (decl.type === "VariableDeclaration") {
        for (const d of decl.declarations as Node[]) {
          if (d.id.type !== "Identifier") continue;
          const name = d.id.name as string;
          const get = lazyDecl(name, () => (d.init ? this.inModule(mod, () => this.eval(d.init, env)) : UNKNOWN));
          if (exported) mod.exports.set(name, get);
        }
      } else if (stmt.type === "ExportDefaultDeclaration") {
        const node = decl;
        mod.exports.set("default", () => this.inModule(mod, () => this.eval(node, env)));
      }
    }
  }

  private exportOf(path: string, name: string, seen = new Set<string>()): V {
    const mod = this.module(path);
    if (!mod || seen.has(path)) return UNKNOWN;
    seen.add(path);
    const get = mod.exports.get(name);
    if (get) return get();
    for (const star of mod.starExports) {
      const v = this.exportOf(star, name, seen);
      if (v.k !== "unknown") return v;
    }
    return UNKNOWN;
  }

  private inModule<T>(mod: Mod, f: () => T): T {
    const before = this.currentMod;
    this.currentMod = mod;
    try {
      return f();
    } finally {
      this.currentMod = before;
    }
  }

  /** Runs every module's top level, then every function found, with unknown arguments. */
  exploreAll(): void {
    for (const mod of [...this.mods.values()]) this.evaluateTop(mod);
    for (let i = 0; i < this.queue.length; i++) this.explore(this.queue[i]!);
  }

  private evaluateTop(mod: Mod): void {
    if (mod.evaluated) return;
    mod.evaluated = true;
    this.inModule(mod, () => {
      for (const stmt of mod.file.ast.body as Node[]) {
        const decl = stmt.type === "ExportNamedDeclaration" || stmt.type === "ExportDefaultDeclaration" ? (stmt.declaration ?? stmt) : stmt;
        if (decl.type === "FunctionDeclaration") this.enqueue({ k: "fn", node: decl, scope: mod.env, mod });
        else if (decl.type === "ClassDeclaration" && decl.id) this.enqueue(mod.env.lookup(decl.id.name) ?? UNKNOWN);
        else if (decl.type === "VariableDeclaration") for (const d of decl.declarations) if (d.id.type === "Identifier") mod.env.lookup(d.id.name);
        else if (decl.type === "ExpressionStatement") this.eval(decl.expression, mod.env);
      }
    });
  }

  private enqueue(v: V): void {
    if (v.k === "fn" || v.k === "class") {
      if (this.explored.has(v.node)) return;
      this.explored.add(v.node);
      this.queue.push(v);
    }
  }

  private explore(v: V): void {
    this.steps = 0;
    if (v.k === "fn") this.inModule(v.mod, () => this.invoke(v, [], v.self));
    if (v.k === "class") {
      const inst = this.instantiate(v, []);
      for (const member of v.node.body.body as Node[]) {
        if (member.type === "MethodDefinition" && member.kind !== "constructor" && member.value) {
          this.inModule(v.mod, () => this.invoke({ k: "fn", node: member.value, scope: v.scope, mod: v.mod }, [], member.static ? UNKNOWN : inst));
        }
      }
    }
  }

  private instantiate(cls: Extract<V, { k: "class" }>, args: V[]): V {
    const inst: V = { k: "inst", cls, props: new Map() };
    this.inModule(cls.mod, () => {
      for (const member of cls.node.body.body as Node[]) {
        if (member.type === "PropertyDefinition" && !member.static && member.key.type === "Identifier") {
          const fnScope = new Env(cls.scope, true);
          fnScope.declare("this", inst);
          inst.props.set(member.key.name, member.value ? this.eval(member.value, fnScope) : UNKNOWN);
        }
        if (member.type === "MethodDefinition" && member.kind === "constructor") {
          this.invoke({ k: "fn", node: member.value, scope: cls.scope, mod: cls.mod }, args, inst);
        }
      }
    });
    return inst;
  }

  private record(ref: Extract<V, { k: "ref" }>, node: Node): void {
    const mod = this.currentMod;
    const at = mod ? `${mod.file.rel}:${mod.file.line(node.start)}` : "?";
    const bad = [ref.shape.collection, ...ref.shape.filters.map((f) => f.field), ...ref.shape.orders.map((o) => o.field)].find(
      (s) => s.includes(UNKNOWN_PART) || s === "?",
    );
    if (bad !== undefined) {
      this.unreadable.push(`${at}: a query whose collection or field names are computed at run time`);
      return;
    }
    const key = `${shapeKey(ref.shape)}@${at}`;
    if (!this.found.has(key)) this.found.set(key, { shape: ref.shape, at });
  }

  // --- functions --------------------------------------------------------------------------

  private invoke(fn: V, args: V[], self?: V): V {
    if (fn.k === "class") return this.instantiate(fn, args);
    if (fn.k !== "fn") return UNKNOWN;
    const node = fn.node;
    if (this.stack.includes(node) || this.stack.length > 14 || ++this.steps > 20_000) return UNKNOWN;
    this.explored.add(node);
    this.stack.push(node);
    try {
      return this.inModule(fn.mod, () => {
        const env = new Env(fn.scope, true);
        if (node.type !== "ArrowFunctionExpression") env.declare("this", self ?? fn.self ?? UNKNOWN);
        (node.params as Node[]).forEach((p, i) => {
          if (p.type === "RestElement") this.bind(p.argument, { k: "arr", elems: args.slice(i) }, env);
          else this.bind(p, args[i] ?? UNKNOWN, env);
        });
        if (node.body?.type !== "BlockStatement") return node.body ? this.eval(node.body, env) : UNKNOWN;
        const returns: V[] = [];
        this.block(node.body.body, env, returns);
        return returns.length ? union(...returns) : UNKNOWN;
      });
    } finally {
      this.stack.pop();
    }
  }

  private bind(pattern: Node, value: V, env: Env): void {
    switch (pattern.type) {
      case "Identifier":
        env.declare(pattern.name, value);
        break;
      case "TSParameterProperty": {
        this.bind(pattern.parameter, value, env);
        const self = env.lookup("this");
        const name = pattern.parameter.type === "Identifier" ? pattern.parameter.name : pattern.parameter.left?.name;
        if (self?.k === "inst" && name) self.props.set(name, value);
        break;
      }
      case "AssignmentPattern":
        this.bind(pattern.left, value.k === "unknown" ? this.eval(pattern.right, env) : value, env);
        break;
      case "ObjectPattern":
        for (const p of pattern.properties as Node[]) {
          if (p.type === "RestElement") this.bind(p.argument, UNKNOWN, env);
          else {
            const key = p.key.type === "Identifier" && !p.computed ? p.key.name : literalString(p.key);
            this.bind(p.value, key !== undefined ? this.member(value, key) : UNKNOWN, env);
          }
        }
        break;
      case "ArrayPattern":
        (pattern.elements as (Node | null)[]).forEach((el) => {
          if (!el) return;
          const elem = value.k === "arr" ? union(...value.elems) : UNKNOWN;
          this.bind(el.type === "RestElement" ? el.argument : el, elem, env);
        });
        break;
      default:
        break;
    }
  }

  // --- statements -------------------------------------------------------------------------

  private block(stmts: Node[], env: Env, returns: V[]): void {
    for (const s of stmts) {
      if (s.type === "FunctionDeclaration" && s.id) env.declare(s.id.name, { k: "fn", node: s, scope: env, mod: this.currentMod! });
      if (s.type === "ClassDeclaration" && s.id) env.declare(s.id.name, { k: "class", node: s, scope: env, mod: this.currentMod! });
    }
    for (const s of stmts) this.stmt(s, env, returns);
  }

  private snapshot(env: Env): Map<string, V | Lazy>[] {
    return env.chain().map((e) => new Map(e.vars));
  }
  private restore(env: Env, snap: Map<string, V | Lazy>[]): void {
    env.chain().forEach((e, i) => (e.vars = new Map(snap[i])));
  }
  /** Runs each branch from the same state; afterwards each variable may hold any branch's value. */
  private branches(env: Env, runs: ((env: Env) => void)[]): void {
    const start = this.snapshot(env);
    const ends = runs.map((run) => {
      this.restore(env, start);
      run(env);
      return this.snapshot(env);
    });
    env.chain().forEach((e, i) => {
      const keys = new Set(ends.flatMap((end) => [...end[i]!.keys()]));
      for (const key of keys) {
        const values = ends.map((end) => end[i]!.get(key)).filter((v): v is V => !!v && !("lazy" in v));
        const lazy = ends.map((end) => end[i]!.get(key)).find((v) => v && "lazy" in v);
        e.vars.set(key, values.length ? union(...values) : (lazy ?? UNKNOWN));
      }
    });
  }

  private stmt(s: Node, env: Env, returns: V[]): void {
    switch (s.type) {
      case "VariableDeclaration":
        for (const d of s.declarations as Node[]) this.bind(d.id, d.init ? this.eval(d.init, env) : UNKNOWN, env);
        break;
      case "ExpressionStatement":
        this.eval(s.expression, env);
        break;
      case "ReturnStatement":
        returns.push(s.argument ? this.eval(s.argument, env) : UNKNOWN);
        break;
      case "ThrowStatement":
        this.eval(s.argument, env);
        break;
      case "BlockStatement":
        this.block(s.body, new Env(env), returns);
        break;
      case "IfStatement":
        this.eval(s.test, env);
        this.branches(env, [(e) => this.stmt(s.consequent, e, returns), (e) => s.alternate && this.stmt(s.alternate, e, returns)]);
        break;
      case "ForStatement":
      case "WhileStatement":
      case "DoWhileStatement":
      case "ForInStatement":
      case "ForOfStatement": {
        const loop = new Env(env);
        if (s.init) s.init.type === "VariableDeclaration" ? this.stmt(s.init, loop, returns) : this.eval(s.init, loop);
        if (s.test) this.eval(s.test, loop);
        if (s.type === "ForOfStatement" || s.type === "ForInStatement") {
          const right = this.eval(s.right, loop);
          const elem = s.type === "ForOfStatement" && right.k === "arr" ? union(...right.elems) : UNKNOWN;
          const target = s.left.type === "VariableDeclaration" ? s.left.declarations[0].id : s.left;
          if (target.type === "Identifier" && s.left.type !== "VariableDeclaration") loop.assign(target.name, elem);
          else this.bind(target, elem, loop);
        }
        this.branches(loop, [
          () => {},
          (e) => {
            this.stmt(s.body, e, returns);
            if (s.update) this.eval(s.update, e);
          },
        ]);
        break;
      }
      case "TryStatement":
        this.stmt(s.block, env, returns);
        if (s.handler) {
          const h = new Env(env);
          if (s.handler.param) this.bind(s.handler.param, UNKNOWN, h);
          this.stmt(s.handler.body, h, returns);
        }
        if (s.finalizer) this.stmt(s.finalizer, env, returns);
        break;
      case "SwitchStatement":
        this.eval(s.discriminant, env);
        this.branches(env, [() => {}, ...(s.cases as Node[]).map((c) => (e: Env) => this.block(c.consequent, new Env(e), returns))]);
        break;
      case "LabeledStatement":
        this.stmt(s.body, env, returns);
        break;
      case "FunctionDeclaration":
        if (s.id) this.enqueue(env.lookup(s.id.name) ?? UNKNOWN);
        break;
      case "ClassDeclaration":
        if (s.id) this.enqueue(env.lookup(s.id.name) ?? UNKNOWN);
        break;
      default:
        break;
    }
  }

  // --- expressions ------------------------------------------------------------------------

  private eval(n: Node | null | undefined, env: Env): V {
    if (!n) return UNKNOWN;
    if (++this.steps > 200_000) return UNKNOWN;
    switch (n.type) {
      case "Identifier":
        return env.lookup(n.name) ?? UNKNOWN;
      case "ThisExpression":
        return env.lookup("this") ?? UNKNOWN;
      case "Literal":
        return typeof n.value === "string" ? { k: "str", v: n.value } : UNKNOWN;
      case "TemplateLiteral": {
        let s = "";
        n.quasis.forEach((q: Node, i: number) => {
          s += q.value.cooked ?? "";
          if (i < n.expressions.length) {
            const e = this.eval(n.expressions[i], env);
            s += e.k === "str" ? e.v : UNKNOWN_PART;
          }
        });
        return { k: "str", v: s };
      }
      case "ParenthesizedExpression":
      case "TSAsExpression":
      case "TSSatisfiesExpression":
      case "TSNonNullExpression":
      case "TSTypeAssertion":
      case "TSInstantiationExpression":
      case "ChainExpression":
      case "AwaitExpression":
        return this.eval(n.expression ?? n.argument, env);
      case "ArrowFunctionExpression":
      case "FunctionExpression": {
        const v: V = { k: "fn", node: n, scope: env, mod: this.currentMod! };
        this.enqueue(v);
        return v;
      }
      case "ClassExpression": {
        const v: V = { k: "class", node: n, scope: env, mod: this.currentMod! };
        this.enqueue(v);
        return v;
      }
      case "ConditionalExpression":
        this.eval(n.test, env);
        return union(this.eval(n.consequent, env), this.eval(n.alternate, env));
      case "LogicalExpression":
        return union(this.eval(n.left, env), this.eval(n.right, env));
      case "SequenceExpression":
        return (n.expressions as Node[]).map((e) => this.eval(e, env)).pop() ?? UNKNOWN;
      case "ArrayExpression": {
        const elems: V[] = [];
        for (const el of n.elements as (Node | null)[]) {
          if (!el) continue;
          if (el.type === "SpreadElement") {
            const v = this.eval(el.argument, env);
            for (const o of options(v)) if (o.k === "arr") elems.push(...o.elems);
          } else elems.push(this.eval(el, env));
        }
        return { k: "arr", elems };
      }
      case "ObjectExpression": {
        const props = new Map<string, V>();
        for (const p of n.properties as Node[]) {
          if (p.type === "SpreadElement") {
            for (const o of options(this.eval(p.argument, env))) if (o.k === "obj") for (const [k, v] of o.props) props.set(k, union(props.get(k) ?? o.props.get(k)!, v));
            continue;
          }
          const key = !p.computed && p.key.type === "Identifier" ? p.key.name : literalString(p.key);
          const value = this.eval(p.value, env);
          if (key !== undefined) props.set(key, value);
        }
        return { k: "obj", props };
      }
      case "MemberExpression": {
        const obj = this.eval(n.object, env);
        const key = n.computed ? this.eval(n.property, env) : ({ k: "str", v: n.property.name } as V);
        return key.k === "str" ? this.member(obj, key.v) : UNKNOWN;
      }
      case "AssignmentExpression": {
        const right = this.eval(n.right, env);
        const value = n.operator === "=" ? right : union(this.eval(n.left, env), right);
        if (n.left.type === "Identifier") env.assign(n.left.name, value);
        else if (n.left.type === "MemberExpression" && !n.left.computed) {
          for (const o of options(this.eval(n.left.object, env))) if (o.k === "inst" || o.k === "obj") o.props.set(n.left.property.name, value);
        } else this.bind(n.left, value, env);
        return value;
      }
      case "NewExpression": {
        const callee = this.eval(n.callee, env);
        const args = (n.arguments as Node[]).map((a) => this.eval(a, env));
        if (n.callee.type === "Identifier" && n.callee.name === "FieldPath") {
          const parts = args.map((a) => (a.k === "str" ? a.v : UNKNOWN_PART));
          return { k: "str", v: parts.join(".") };
        }
        return union(...options(callee).map((c) => (c.k === "class" ? this.instantiate(c, args) : UNKNOWN)));
      }
      case "CallExpression":
        return this.call(n, env);
      default: {
        // Anything else (operators, templates, JSX…): evaluate the parts for the calls inside.
        for (const key in n) {
          if (key === "type" || key === "start" || key === "end") continue;
          const child = n[key];
          if (Array.isArray(child)) child.forEach((c) => c && typeof c.type === "string" && !/^TS/.test(c.type) && this.eval(c, env));
          else if (child && typeof child === "object" && typeof child.type === "string" && !/^TS/.test(child.type)) this.eval(child, env);
        }
        return UNKNOWN;
      }
    }
  }

  private member(obj: V, key: string): V {
    return union(
      ...options(obj).map((o): V => {
        switch (o.k) {
          case "obj":
            return o.props.get(key) ?? UNKNOWN;
          case "inst": {
            if (o.props.has(key)) return o.props.get(key)!;
            const m = (o.cls.node.body.body as Node[]).find(
              (x) => x.type === "MethodDefinition" && !x.static && x.key.type === "Identifier" && x.key.name === key,
            );
            if (!m) return UNKNOWN;
            if (m.kind === "get") return this.invoke({ k: "fn", node: m.value, scope: o.cls.scope, mod: o.cls.mod }, [], o);
            return { k: "fn", node: m.value, scope: o.cls.scope, mod: o.cls.mod, self: o };
          }
          case "ns":
            return this.exportOf(o.mod.file.path, key);
          case "class": {
            const m = (o.node.body.body as Node[]).find((x) => x.static && x.key?.type === "Identifier" && x.key.name === key);
            if (m?.type === "MethodDefinition") return { k: "fn", node: m.value, scope: o.scope, mod: o.mod };
            return UNKNOWN;
          }
          default:
            return UNKNOWN;
        }
      }),
    );
  }

  private call(n: Node, env: Env): V {
    const args = (n.arguments as Node[]).map((a) => (a.type === "SpreadElement" ? this.eval(a.argument, env) : this.eval(a, env)));
    const callee = n.callee.type === "ChainExpression" ? n.callee.expression : n.callee;
    if (callee.type === "MemberExpression") {
      const name = callee.computed ? literalString(callee.property) : (callee.property.name as string | undefined);
      const obj = this.eval(callee.object, env);
      if (name === undefined) return this.exploreArgs(args);
      if (callee.object.type === "Identifier" && callee.object.name === "Promise" && (name === "all" || name === "allSettled" || name === "resolve")) return args[0] ?? UNKNOWN;
      if (callee.object.type === "Identifier" && callee.object.name === "Filter") return this.filterConstraint(name, args);
      // Queries are reported where they run: the line of `.get(` / `.onSnapshot(`.
      return union(...options(obj).map((o) => this.method(o, name, args, callee.property)));
    }
    const fn = this.eval(callee, env);
    return union(
      ...options(fn).map((f) => {
        if (f.k === "fn" || f.k === "class") return this.invoke(f, args);
        if (f.k === "sdk") return this.sdkCall(f.name, args, n);
        if (callee.type === "Identifier" && callee.name === "documentId") return { k: "str", v: "__name__" } as V;
        return this.exploreArgs(args);
      }),
    );
  }

  /** A call into code we do not interpret: still look inside the callbacks it is given. */
  private exploreArgs(args: V[]): V {
    for (const a of args) for (const o of options(a)) if (o.k === "fn") this.invoke(o, []);
    return UNKNOWN;
  }

  private field(v: V): string {
    const o = options(v);
    if (o.length === 1 && o[0]!.k === "str") return o[0]!.v;
    return "?";
  }

  private withShape(ref: Extract<V, { k: "ref" }>, change: Partial<QueryShape>, kind = ref.kind === "collection" ? ("query" as const) : ref.kind): V {
    return { k: "ref", kind, shape: { ...ref.shape, ...change }, ...(ref.path !== undefined ? { path: ref.path } : {}) };
  }

  private applyConstraint(ref: Extract<V, { k: "ref" }>, c: V): V {
    return union(
      ...options(c).map((o) => {
        if (o.k !== "constraint") return ref;
        if (o.filter) return this.withShape(ref, { filters: [...ref.shape.filters, o.filter] });
        if (o.order) return this.withShape(ref, { orders: [...ref.shape.orders, o.order] });
        if (o.or) return union(...o.or.map((d) => this.applyConstraint(ref, d))); // OR: one index per disjunct
        if (o.and) {
          let q: V = ref;
          for (const c of o.and) q = union(...options(q).map((r) => (r.k === "ref" ? this.applyConstraint(r, c) : r)));
          return q;
        }
        return ref;
      }),
    );
  }

  private filterConstraint(name: string, args: V[]): V {
    if (name === "where") return { k: "constraint", filter: { field: this.field(args[0] ?? UNKNOWN), op: this.field(args[1] ?? UNKNOWN) } };
    if (name === "or") return { k: "constraint", or: args };
    if (name === "and") return { k: "constraint", and: args };
    return UNKNOWN;
  }

  private collectionRef(path: V, group: boolean): V {
    return union(
      ...options(path).map((p): V => {
        const str = p.k === "str" ? p.v : UNKNOWN_PART;
        if (group) return { k: "ref", kind: "collection", shape: { scope: "COLLECTION_GROUP", collection: str, filters: [], orders: [] } };
        const c = lastSegmentCollection(str);
        if (c) return { k: "ref", kind: "collection", path: c.path, shape: { scope: "COLLECTION", collection: c.id, filters: [], orders: [] } };
        return lastSegmentCollection(`${str}/x`) ? { k: "doc", path: str } : { k: "ref", kind: "collection", shape: { scope: "COLLECTION", collection: UNKNOWN_PART, filters: [], orders: [] } };
      }),
    );
  }

  private method(o: V, name: string, args: V[], node: Node): V {
    if (o.k === "ref") {
      switch (name) {
        case "where": {
          if (args.length === 1) return this.applyConstraint(o, args[0]!);
          return this.withShape(o, { filters: [...o.shape.filters, { field: this.field(args[0] ?? UNKNOWN), op: this.field(args[1] ?? UNKNOWN) }] });
        }
        case "orderBy": {
          const dir = args[1] && this.field(args[1]).toLowerCase() === "desc" ? "DESCENDING" : "ASCENDING";
          return this.withShape(o, { orders: [...o.shape.orders, { field: this.field(args[0] ?? UNKNOWN), dir }] });
        }
        case "findNearest": {
          const first = args[0] ?? UNKNOWN;
          const field = first.k === "obj" ? this.field(first.props.get("vectorField") ?? UNKNOWN) : this.field(first);
          return this.withShape(o, { vector: field }, "vector");
        }
        case "count":
        case "aggregate":
          return this.withShape(o, { aggregate: true }, "aggregate");
        case "get":
        case "stream":
        case "onSnapshot":
        case "explain":
          this.record(o, node);
          return UNKNOWN;
        case "doc":
          return { k: "doc", ...(o.path !== undefined ? { path: `${o.path}/${UNKNOWN_PART}` } : {}) };
        case "limit":
        case "limitToLast":
        case "offset":
        case "startAt":
        case "startAfter":
        case "endAt":
        case "endBefore":
        case "select":
        case "withConverter":
          return o;
        default:
          return UNKNOWN;
      }
    }
    if (o.k === "doc") {
      if (name === "collection") {
        const sub = args[0] ?? UNKNOWN;
        const id = sub.k === "str" ? sub.v : UNKNOWN_PART;
        return this.collectionRef({ k: "str", v: `${o.path ?? UNKNOWN_PART}/${id}` }, false);
      }
      return UNKNOWN;
    }
    if (o.k === "arr") {
      const elem = union(...o.elems);
      switch (name) {
        case "map":
        case "flatMap": {
          const cb = args[0] ?? UNKNOWN;
          const results = options(cb).map((f) => (f.k === "fn" ? this.invoke(f, [elem]) : UNKNOWN));
          const r = union(...results);
          return { k: "arr", elems: name === "flatMap" ? options(r).flatMap((x) => (x.k === "arr" ? x.elems : [x])) : [r] };
        }
        case "forEach":
        case "some":
        case "every":
        case "find":
        case "findLast":
        case "filter": {
          for (const f of options(args[0] ?? UNKNOWN)) if (f.k === "fn") this.invoke(f, [elem]);
          return name === "filter" ? o : name.startsWith("find") ? elem : UNKNOWN;
        }
        case "push":
        case "unshift":
          o.elems.push(...args);
          return UNKNOWN;
        case "concat":
          return { k: "arr", elems: [...o.elems, ...args.flatMap((a) => options(a).flatMap((x) => (x.k === "arr" ? x.elems : [x])))] };
        case "slice":
        case "reverse":
        case "sort":
          return o;
        case "at":
        case "pop":
        case "shift":
          return elem;
        default:
          return this.exploreArgs(args);
      }
    }
    if (o.k === "inst" || o.k === "obj" || o.k === "ns" || o.k === "class") {
      const m = this.member(o, name);
      if (options(m).some((x) => x.k === "fn" || x.k === "class")) return union(...options(m).map((f) => this.invoke(f, args, o.k === "inst" ? o : undefined)));
    }
    // Unknown receivers: Firestore entry points by name, `tx.get(query)`, or callbacks.
    switch (name) {
      case "collection":
        return this.collectionRef(args[0] ?? UNKNOWN, false);
      case "collectionGroup":
        return this.collectionRef(args[0] ?? UNKNOWN, true);
      case "doc":
        return { k: "doc", ...(args[0]?.k === "str" ? { path: args[0].v } : {}) };
      case "documentId":
        return { k: "str", v: "__name__" };
      case "get":
      case "getAll":
        for (const a of args) for (const r of options(a)) if (r.k === "ref") this.record(r, node);
        return UNKNOWN;
      default:
        return this.exploreArgs(args);
    }
  }

  /** The client SDK's modular API (desktop agent, Figma plugin, web pages). */
  private sdkCall(name: string, args: V[], node: Node): V {
    switch (name) {
      case "collection": {
        const parts = args.slice(1).map((a) => (a.k === "str" ? a.v : UNKNOWN_PART));
        const base = args[0];
        const prefix = base && base.k === "doc" ? `${base.path ?? UNKNOWN_PART}/` : base && base.k === "ref" && base.path ? `${base.path}/` : "";
        return this.collectionRef({ k: "str", v: prefix + parts.join("/") }, false);
      }
      case "collectionGroup":
        return this.collectionRef(args[1] ?? UNKNOWN, true);
      case "doc":
        return { k: "doc" };
      case "query": {
        let q: V = args[0] ?? UNKNOWN;
        for (const c of args.slice(1)) q = union(...options(q).map((r) => (r.k === "ref" ? this.applyConstraint(r, c) : r)));
        return q;
      }
      case "where":
        return { k: "constraint", filter: { field: this.field(args[0] ?? UNKNOWN), op: this.field(args[1] ?? UNKNOWN) } };
      case "orderBy":
        return { k: "constraint", order: { field: this.field(args[0] ?? UNKNOWN), dir: args[1] && this.field(args[1]) === "desc" ? "DESCENDING" : "ASCENDING" } };
      case "or":
        return { k: "constraint", or: args };
      case "and":
        return { k: "constraint", and: args };
      case "documentId":
        return { k: "str", v: "__name__" };
      case "getDocs":
      case "getDocsFromServer":
      case "getCountFromServer":
      case "getAggregateFromServer":
      case "onSnapshot":
        for (const r of options(args[0] ?? UNKNOWN)) if (r.k === "ref") this.record(r, node);
        return this.exploreArgs(args.slice(1));
      default:
        return this.exploreArgs(args);
    }
  }
}
