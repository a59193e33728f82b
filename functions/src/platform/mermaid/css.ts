// CSS in the SVG, cleaned with a real parser (css-tree) and allow-lists: whatever a diagram's
// author wrote (style/classDef/linkStyle statements, label HTML, init directives, themeCSS) ends
// up in a `style` attribute or a `<style>` sheet, and both leave through here. What is kept:
// - declarations whose property is on an allow-list (paint, text, the box of HTML labels,
//   animation); never position, z-index, inset/top/left, transform, float, outline, content…,
//   so nothing can be placed outside the SVG or over the page around it;
// - on the root <svg> itself (its style attribute, or a rule that selects it) only paint and text,
//   plus max-width: no margins, sizes, filters or shadows that move or draw past its box;
// - values made only of plain tokens and allow-listed functions; the only url() is `url(#id)`;
// - in a `<style>` sheet, only rules whose every selector starts inside this diagram
//   (`#<svg id>` then a descendant or child combinator, or the root itself): an inline SVG's
//   sheet applies to the whole page, so `body{…}` or `#<id> ~ p` is dropped;
// - no at-rules but @keyframes (their declarations judged the same way).
// The parse tolerates anything; what it cannot classify (Raw nodes, escapes in names) is dropped.
import * as csstree from "css-tree";

const PAINT = [
  "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray", "stroke-dashoffset",
  "stroke-linecap", "stroke-linejoin", "stroke-miterlimit", "color", "opacity", "background-color", "stop-color", "stop-opacity",
  "paint-order", "shape-rendering", "text-rendering", "vector-effect", "mix-blend-mode", "isolation", "visibility", "cursor", "pointer-events",
  "marker", "marker-start", "marker-mid", "marker-end",
];
const TEXT = [
  "font", "font-family", "font-size", "font-weight", "font-style", "font-variant", "font-stretch", "line-height", "letter-spacing",
  "word-spacing", "text-anchor", "dominant-baseline", "alignment-baseline", "baseline-shift", "text-align", "text-decoration",
  "text-decoration-line", "text-decoration-color", "text-decoration-style", "text-transform", "white-space", "word-break",
  "overflow-wrap", "word-wrap", "text-overflow", "direction", "unicode-bidi", "writing-mode", "vertical-align", "hyphens",
];
/** Inside the diagram: what HTML labels and shapes need to lay out, clipped by the SVG. */
const BOX = [
  "display", "width", "height", "min-width", "min-height", "max-width", "max-height", "box-sizing",
  "padding", "padding-top", "padding-right", "padding-bottom", "padding-left",
  "margin", "margin-top", "margin-right", "margin-bottom", "margin-left",
  "border", "border-top", "border-right", "border-bottom", "border-left", "border-color", "border-style", "border-width", "border-radius",
  "border-top-left-radius", "border-top-right-radius", "border-bottom-left-radius", "border-bottom-right-radius",
  "background", "box-shadow", "align-items", "justify-content", "align-content", "flex", "flex-direction", "flex-wrap", "gap",
  "table-layout", "border-collapse", "border-spacing", "list-style", "list-style-type", "-webkit-box-orient", "-webkit-line-clamp",
  "filter", "clip-path", "mask", "rx", "ry", "r",
  "animation", "animation-name", "animation-duration", "animation-timing-function", "animation-delay", "animation-iteration-count",
  "animation-direction", "animation-fill-mode", "animation-play-state", "transition", "transition-duration", "transition-property",
  "transition-timing-function", "transition-delay",
];
const ROOT_PROPS = new Set([...PAINT, ...TEXT, "max-width"]);
const INNER_PROPS = new Set([...PAINT, ...TEXT, ...BOX]);
/** Properties with only some values allowed. `overflow: visible` would let content out of its box. */
const VALUE_RULES: Record<string, RegExp> = { overflow: /^(hidden|clip)$/i, "overflow-x": /^(hidden|clip)$/i, "overflow-y": /^(hidden|clip)$/i };

const FUNCTIONS = new Set([
  "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color", "color-mix", "calc", "min", "max", "clamp", "var",
  "drop-shadow", "blur", "brightness", "contrast", "grayscale", "hue-rotate", "invert", "saturate", "sepia",
  "cubic-bezier", "steps", "linear-gradient", "radial-gradient", "repeating-linear-gradient", "repeating-radial-gradient",
]);
const LOCAL_URL = /^#[A-Za-z0-9_.:-]+$/;

export type Scope = "root" | "inner";

/** Whether a declaration's value is made only of harmless tokens (and url(#id)). */
function safeValue(value: csstree.CssNode): boolean {
  let ok = true;
  csstree.walk(value, (node) => {
    if (!ok) return;
    switch (node.type) {
      case "Url":
        if (!LOCAL_URL.test(node.value)) ok = false;
        break;
      case "Function":
        if (!FUNCTIONS.has(node.name.toLowerCase())) ok = false;
        break;
      case "Raw":
        // Unparsed text (custom property bodies are parsed, so this is something css-tree could not read).
        if (/[\\(:@]|url|expression/i.test(node.value)) ok = false;
        break;
      case "Identifier":
        if (node.name.includes("\\")) ok = false;
        break;
    }
  });
  return ok;
}

function allowedDeclaration(decl: csstree.Declaration, scope: Scope): boolean {
  const property = decl.property.toLowerCase();
  if (property.startsWith("--")) {
    // Custom properties (mermaid's --mermaid-font-family): any name, but a value that would be
    // safe anywhere, since var() can put it into any allowed property.
    if (!/^--[A-Za-z0-9_-]+$/.test(property)) return false;
  } else if (VALUE_RULES[property]) {
    return scope === "inner" && VALUE_RULES[property]!.test(csstree.generate(decl.value).trim());
  } else if (!(scope === "root" ? ROOT_PROPS : INNER_PROPS).has(property)) {
    return false;
  }
  return safeValue(decl.value);
}

function cleanBlock(block: csstree.Block | csstree.DeclarationList, scope: Scope): void {
  block.children.forEach((node, item, list) => {
    if (node.type !== "Declaration" || !allowedDeclaration(node, scope)) list.remove(item);
  });
}

// Results by input, bounded by size, not count: a diagram's <style> sheet is 10–30 KB and unique
// to the diagram (scoped by its id), so 2,000 of them held 50–100 MB of a worker's heap for
// nothing but a repeated diagram. Style attributes are short and repeat across diagrams.
const CACHE_MAX_CHARS = 1_000_000;
const cache = new Map<string, string>();
let cacheChars = 0;
function cached(key: string, make: () => string): string {
  let out = cache.get(key);
  if (out === undefined) {
    out = make();
    const size = key.length + out.length;
    if (cacheChars + size > CACHE_MAX_CHARS) {
      cache.clear();
      cacheChars = 0;
    }
    if (size <= CACHE_MAX_CHARS / 10) {
      cache.set(key, out);
      cacheChars += size;
    }
  }
  return out;
}

/** A `style` attribute: the allowed declarations, re-serialised. */
export function cleanStyleAttr(css: string, scope: Scope = "inner"): string {
  return cached(`${scope}\u0000${css}`, () => {
    const ast = csstree.parse(css, { context: "declarationList", parseCustomProperty: true, onParseError: () => undefined }) as csstree.DeclarationList;
    cleanBlock(ast, scope);
    return csstree.generate(ast);
  });
}

/**
 * Which part of the diagram a selector can reach: "root" (the <svg> itself), "inner" (only
 * elements inside it), or undefined when it could select anything outside (dropped).
 * Without a scope id (unit tests of the property rules) every selector counts as "inner".
 */
function selectorScope(selector: csstree.Selector, scopeId: string | undefined): Scope | undefined {
  if (scopeId === undefined) return "inner";
  const parts = selector.children.toArray();
  const first = parts[0];
  if (!first || first.type !== "IdSelector" || first.name !== scopeId) return undefined;
  // The rest of the first compound selector (e.g. `:hover`), then where the selector goes from there.
  let i = 1;
  while (i < parts.length && parts[i]!.type !== "Combinator") i++;
  if (i === parts.length) return "root";
  const combinator = parts[i] as csstree.Combinator;
  return combinator.name === " " || combinator.name === ">" ? "inner" : undefined;
}

function cleanRule(rule: csstree.Rule, scopeId: string | undefined): boolean {
  if (rule.prelude.type !== "SelectorList") return false;
  let scope: Scope | undefined = "inner";
  rule.prelude.children.forEach((sel, item, list) => {
    const s = sel.type === "Selector" ? selectorScope(sel, scopeId) : undefined;
    if (!s) list.remove(item);
    else if (s === "root") scope = "root";
  });
  if (rule.prelude.children.isEmpty) return false;
  cleanBlock(rule.block, scope);
  return !rule.block.children.isEmpty;
}

function cleanKeyframes(rule: csstree.Atrule): boolean {
  if (!rule.block) return false;
  rule.block.children.forEach((frame, item, list) => {
    if (frame.type !== "Rule") return list.remove(item);
    cleanBlock(frame.block, "inner");
  });
  return true;
}

/**
 * A `<style>` sheet: rules that stay inside the diagram whose id is `scopeId`, with allowed
 * declarations; @keyframes; nothing else.
 */
export function cleanCss(css: string, scopeId?: string): string {
  return cached(`${scopeId ?? ""}\u0001${css}`, () => {
    const ast = csstree.parse(css, { parseCustomProperty: true, onParseError: () => undefined }) as csstree.StyleSheet;
    ast.children.forEach((node, item, list) => {
      const keep =
        node.type === "Rule" ? cleanRule(node, scopeId) : node.type === "Atrule" && /^(-webkit-)?keyframes$/i.test(node.name) ? cleanKeyframes(node) : false;
      if (!keep) list.remove(item);
    });
    return csstree.generate(ast);
  });
}

/**
 * The same sheet with every selector list split into one rule per selector. resvg drops a whole
 * rule when it does not understand one of its selectors (e.g. `[id$="-extensionStart"]`, which
 * made the hollow inheritance triangles of class diagrams come out filled in the PNG).
 */
export function splitSelectorLists(css: string): string {
  return cached(`\u0002${css}`, () => {
    const ast = csstree.parse(css, { parseCustomProperty: true, onParseError: () => undefined }) as csstree.StyleSheet;
    const out: string[] = [];
    ast.children.forEach((node) => {
      if (node.type === "Rule" && node.prelude.type === "SelectorList" && node.prelude.children.size > 1) {
        const body = csstree.generate(node.block);
        node.prelude.children.forEach((sel) => out.push(csstree.generate(sel) + body));
      } else {
        out.push(csstree.generate(node));
      }
    });
    return out.join("");
  });
}
