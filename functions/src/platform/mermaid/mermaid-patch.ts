// A faster copy for mermaid's configuration, patched into mermaid's source as it loads (in the
// render worker only). mermaid's getConfig() returns `assignWithDepth({}, currentConfig)`, a deep
// copy of the whole configuration (theme variables and all), and its renderers call it for nearly
// every node and edge: profiled, that copy and the garbage it leaves were a third of a warm render.
// The patch adds a fast path for exactly that case (an empty target object, the default depth 2)
// that builds the same result: same keys in the same order, null values skipped, arrays de-duplicated,
// objects copied two levels deep and shared below. Any other call runs mermaid's own code.
// If a mermaid release changes the function, the pattern no longer matches and nothing is patched
// (the worker bundle's build fails then: scripts/bundle-worker.mjs); test/mermaid/determinism.test.ts
// compares the output bytes. Running from source the patch is a load hook; the bundled worker
// (functions/lib) has it applied at build time to the same text. MERMAID_CONFIG_PATCH=off turns
// the fast path off in both (checked when mermaid loads).
import module from "node:module";

export const SIGNATURE = "var assignWithDepth = /* @__PURE__ */ __name((dst, src, { depth = 2 } = {}) => {";

const FAST_PATH = `
  if (__mcpFastConfig && depth === 2 && __mcpIsEmptyPlain(dst) && src !== null && typeof src === "object" && !Array.isArray(src)) return __mcpCopy2(dst, src);`;

// Plain JavaScript (it is spliced into mermaid's module source).
const HELPERS = `
const __mcpFastConfig = globalThis.process?.env?.MERMAID_CONFIG_PATCH !== "off";
function __mcpIsEmptyPlain(o) {
  if (o === null || typeof o !== "object" || Array.isArray(o) || Object.getPrototypeOf(o) !== Object.prototype) return false;
  for (const _ in o) return false;
  return true;
}
function __mcpDedupe(a) {
  const out = [];
  for (const s of a) if (!out.includes(s)) out.push(s);
  return out;
}
function __mcpSet(o, k, v) {
  if (k === "__proto__") Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}
function __mcpCopy2(dst, src) {
  for (const k of Object.keys(src)) {
    const v = src[k];
    if (typeof v !== "object") { __mcpSet(dst, k, v); continue; }
    if (v === null) continue;
    if (Array.isArray(v)) { __mcpSet(dst, k, __mcpDedupe(v)); continue; }
    const inner = {};
    for (const k2 of Object.keys(v)) {
      const v2 = v[k2];
      if (typeof v2 !== "object") { __mcpSet(inner, k2, v2); continue; }
      if (v2 === null) continue;
      __mcpSet(inner, k2, Array.isArray(v2) ? __mcpDedupe(v2) : Object.assign({}, v2));
    }
    __mcpSet(dst, k, inner);
  }
  return dst;
}
`;

let applied = 0;

/** mermaid's module source with the fast path in, or unchanged when the function is not there. */
export function patchMermaidSource(source: string): string {
  const at = source.indexOf(SIGNATURE);
  if (at < 0) return source;
  applied++;
  const end = at + SIGNATURE.length;
  return `${source.slice(0, at)}${HELPERS}${source.slice(at, end)}${FAST_PATH}${source.slice(end)}`;
}

/** How many mermaid modules were patched (1 when mermaid is loaded and the pattern matched). */
export function patched(): number {
  return applied;
}

/** Installs the load hook (before mermaid is imported). Needs Node ≥ 22.15 (module.registerHooks). */
export function installMermaidPatch(): boolean {
  const register = (module as unknown as { registerHooks?: (hooks: unknown) => void }).registerHooks;
  if (!register) return false;
  register({
    load(url: string, context: unknown, nextLoad: (url: string, context: unknown) => { source?: string | Buffer | ArrayBuffer; format?: string }) {
      const result = nextLoad(url, context);
      if (!url.includes("/mermaid/dist/") || result.source === undefined) return result;
      const text = typeof result.source === "string" ? result.source : Buffer.from(result.source as ArrayBuffer).toString("utf8");
      if (!text.includes(SIGNATURE)) return result;
      return { ...result, source: patchMermaidSource(text) };
    },
  });
  return true;
}
