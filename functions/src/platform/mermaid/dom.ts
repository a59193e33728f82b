// A jsdom window that answers layout questions the way Chromium would, so mermaid can render
// without a browser: getBBox, getComputedTextLength, getBoundingClientRect of HTML labels,
// offsetWidth, screen, canvas measureText, path lengths. Text is measured with the real metrics
// of Liberation Sans (fonts.ts). Installed as globals once per worker, before mermaid is imported.
import { JSDOM } from "jsdom";
import { fontAscent, fontDescent, lineMetrics, textWidth, type FontStyle } from "./fonts.js";
import { parsePoints, parseTransform, pathBox, pathLength, pointAtLength, pointsBox, transformBox, union, type Box } from "./geometry.js";

/** mermaid-cli's default page (puppeteer's 800 x 600 viewport, headless: also the screen). */
const VIEWPORT_WIDTH = 800;
const VIEWPORT_HEIGHT = 600;
/** Width of the page's content box (the viewport less the body's 8 px margins). */
const CONTAINER_WIDTH = 784;
const DEFAULT_FONT_SIZE = 16;

type El = Element & { style?: CSSStyleDeclaration };

// ---- CSS: font-size / font-weight from mermaid's own <style> rules (jsdom's
// getComputedStyle does not apply them to SVG content). ------------------------------------
interface FontRule {
  selector: string;
  size?: string;
  weight?: string;
  lineHeight?: string;
  color?: string;
  family?: string;
}
const ruleCache = new WeakMap<Element, { text: string; rules: FontRule[] }>();
const badSelectors = new Set<string>();

function parseFontRules(css: string): FontRule[] {
  const rules: FontRule[] = [];
  const re = /([^{}]+)\{([^{}]*)\}/g;
  for (const [, sel, body] of css.matchAll(re)) {
    const selector = sel!.trim();
    if (!selector || selector.startsWith("@") || /^(from|to|\d+%)$/.test(selector)) continue;
    const decl = (name: string) => {
      const m = new RegExp(`(?:^|;)\\s*${name}\\s*:\\s*([^;!]+)`, "i").exec(body!);
      return m?.[1]?.trim();
    };
    const rule: FontRule = { selector, size: decl("font-size"), weight: decl("font-weight"), lineHeight: decl("line-height"), color: decl("color"), family: decl("font-family") };
    const font = decl("font");
    if (font && !rule.size) {
      const m = /(?:(bold|bolder|[6-9]00)\s+)?(\d+(?:\.\d+)?(?:px|em|pt|%))/i.exec(font);
      if (m) {
        rule.size = m[2];
        if (m[1] && !rule.weight) rule.weight = m[1];
      }
    }
    if (rule.size || rule.weight || rule.lineHeight || rule.color || rule.family) rules.push(rule);
  }
  return rules;
}

function fontRules(doc: Document): FontRule[] {
  const out: FontRule[] = [];
  for (const style of Array.from(doc.getElementsByTagName("style"))) {
    const text = style.textContent ?? "";
    let cached = ruleCache.get(style);
    if (!cached || cached.text !== text) {
      cached = { text, rules: parseFontRules(text) };
      ruleCache.set(style, cached);
    }
    out.push(...cached.rules);
  }
  return out;
}

function matches(el: Element, selector: string): boolean {
  if (badSelectors.has(selector)) return false;
  try {
    return el.matches(selector);
  } catch {
    badSelectors.add(selector);
    return false;
  }
}

function inlineProp(el: El, css: string, attr: string): string | undefined {
  const v = el.style?.getPropertyValue?.(css);
  if (v) return v.trim();
  const a = el.getAttribute(attr);
  return a ? a.trim() : undefined;
}

/** The nearest declared value of a font property for `el`: inline style, attribute, then CSS. */
const CSS_NAMES = { size: "font-size", weight: "font-weight", color: "color", lineHeight: "line-height", family: "font-family" } as const;

function declared(el: Element, prop: keyof typeof CSS_NAMES, rules: FontRule[]): { value: string; at: Element } | undefined {
  const css = CSS_NAMES[prop];
  for (let cur: Element | null = el; cur && cur.nodeType === 1; cur = cur.parentElement) {
    const inline = inlineProp(cur as El, css, css);
    if (inline && inline !== "inherit") return { value: inline, at: cur };
    let found: string | undefined;
    for (const r of rules) {
      const v = r[prop];
      if (v && matches(cur, r.selector)) found = v;
    }
    if (found && found !== "inherit") return { value: found, at: cur };
    if (prop === "weight" && /^(STRONG|B|TH|strong|b|th)$/.test(cur.tagName)) return { value: "bold", at: cur };
  }
  return undefined;
}

/** Liberation Sans' x-height (OS/2 sxHeight 1082 / 2048 units): what `ex` means in Chromium here. */
const X_HEIGHT = 1082 / 2048;

function parseSize(value: string, parentSize: number): number {
  const n = parseFloat(value);
  if (!Number.isFinite(n)) return parentSize;
  if (/rem$/i.test(value)) return n * DEFAULT_FONT_SIZE;
  if (/em$/i.test(value)) return n * parentSize;
  // Timeline titles are `font-size="4ex"`: 4 px here drew them 27 px too low.
  if (/ex$/i.test(value)) return n * X_HEIGHT * parentSize;
  if (/%$/.test(value)) return (n / 100) * parentSize;
  if (/pt$/i.test(value)) return (n * 4) / 3;
  return n;
}

function fontSizeOf(el: Element, rules: FontRule[]): number {
  const d = declared(el, "size", rules);
  if (!d) return DEFAULT_FONT_SIZE;
  if (/(em|ex|%)$/.test(d.value) && !/rem$/.test(d.value)) {
    const parent = d.at.parentElement;
    return parseSize(d.value, parent ? fontSizeOf(parent, rules) : DEFAULT_FONT_SIZE);
  }
  return parseSize(d.value, DEFAULT_FONT_SIZE);
}

/**
 * Which of our two faces a font-family list resolves to in Chromium on Linux: the first family
 * that exists there. Arial/Helvetica/sans-serif → Liberation Sans; Times/serif → Liberation
 * Serif; names that are not installed (trebuchet ms, verdana, Open Sans, …) are skipped; a list
 * with nothing installed, or no font-family at all, gets the default font: Times → Liberation Serif.
 */
const SANS = /^(arial|helvetica|liberation sans|arimo|sans-serif|system-ui|-apple-system|blinkmacsystemfont|ui-sans-serif|monospace|courier|courier new|liberation mono|dejavu sans|dejavu sans mono)$/;
const SERIF = /^(times|times new roman|liberation serif|tinos|serif|ui-serif|dejavu serif)$/;
const familyCache = new Map<string, boolean>();

function isSerifFamily(list: string): boolean {
  let serif = familyCache.get(list);
  if (serif === undefined) {
    serif = true;
    for (const raw of list.split(",")) {
      const name = raw.trim().replace(/^["']|["']$/g, "").trim().toLowerCase();
      if (SANS.test(name)) {
        serif = false;
        break;
      }
      if (SERIF.test(name)) break;
    }
    familyCache.set(list, serif);
  }
  return serif;
}

function fontOf(el: Element): FontStyle {
  const rules = fontRules(el.ownerDocument);
  const w = declared(el, "weight", rules)?.value ?? "normal";
  const bold = /bold/i.test(w) || Number(w) >= 600;
  const family = declared(el, "family", rules)?.value;
  return { size: fontSizeOf(el, rules), bold, serif: family === undefined || isSerifFamily(family) };
}

function lengthAttr(v: string | null, size: number, d = 0): number {
  if (v === null || v === "") return d;
  const n = parseFloat(v);
  if (!Number.isFinite(n)) return d;
  return /em$/.test(v) ? n * size : n;
}

function inheritedAttr(el: Element, attr: string): string | undefined {
  for (let cur: Element | null = el; cur && cur.nodeType === 1; cur = cur.parentElement) {
    const v = inlineProp(cur as El, attr, attr);
    if (v && v !== "inherit") return v;
    if (cur.tagName.toLowerCase() === "svg") break;
  }
  return undefined;
}

// ---- SVG text ---------------------------------------------------------------------------------
function textBox(el: Element): Box {
  const base = fontOf(el);
  const lines: { text: string; font: FontStyle; x: number; y: number; anchorEl: Element }[] = [];
  let cy = lengthAttr(firstOf(el.getAttribute("y")), base.size);
  const tx = lengthAttr(firstOf(el.getAttribute("x")), base.size);
  cy += lengthAttr(firstOf(el.getAttribute("dy")), base.size);
  let current: (typeof lines)[number] | undefined;
  for (const child of Array.from(el.childNodes)) {
    if (child.nodeType === 3) {
      const t = child.textContent ?? "";
      if (!t.trim() && !current) continue;
      if (!current) lines.push((current = { text: "", font: base, x: tx, y: cy, anchorEl: el }));
      current.text += t;
    } else if (child.nodeType === 1 && (child as Element).tagName.toLowerCase() === "tspan") {
      const ts = child as Element;
      const font = fontOf(ts);
      const hasX = ts.hasAttribute("x");
      const hasY = ts.hasAttribute("y") || ts.hasAttribute("dy");
      if (ts.hasAttribute("y")) cy = lengthAttr(firstOf(ts.getAttribute("y")), font.size);
      cy += lengthAttr(firstOf(ts.getAttribute("dy")), font.size);
      const text = ts.textContent ?? "";
      if (!current || hasX || hasY) {
        lines.push((current = { text, font, x: hasX ? lengthAttr(firstOf(ts.getAttribute("x")), font.size) : current ? current.x + textWidth(current.text, current.font) : tx, y: cy, anchorEl: ts }));
      } else {
        current.text += text;
      }
    }
  }
  const boxes: Box[] = [];
  for (const line of lines) {
    if (!line.text) continue;
    const width = textWidth(line.text.replace(/\s+/g, " "), line.font);
    const anchor = inheritedAttr(line.anchorEl, "text-anchor") ?? "start";
    const x = anchor === "middle" ? line.x - width / 2 : anchor === "end" ? line.x - width : line.x;
    const { ascent: asc, descent: desc } = lineMetrics(line.font, line.text);
    const baseline = inheritedAttr(line.anchorEl, "dominant-baseline") ?? inheritedAttr(line.anchorEl, "alignment-baseline") ?? "auto";
    let top = line.y - asc;
    if (/middle|central/.test(baseline)) top = line.y - (asc + desc) / 2;
    else if (/hanging|text-before-edge|text-top/.test(baseline)) top = line.y;
    else if (/text-after-edge|ideographic|text-bottom/.test(baseline)) top = line.y - asc - desc;
    boxes.push({ x, y: top, width, height: asc + desc });
  }
  return union(boxes) ?? { x: tx, y: cy, width: 0, height: 0 };
}

function firstOf(v: string | null): string | null {
  return v === null ? null : (v.trim().split(/[\s,]+/)[0] ?? null);
}

const NON_RENDERED = new Set(["defs", "style", "title", "desc", "marker", "clippath", "mask", "pattern", "lineargradient", "radialgradient", "filter", "symbol", "metadata", "script"]);

const CONTAINERS = new Set(["g", "a", "switch", "svg"]);

function isHidden(el: Element): boolean {
  return NON_RENDERED.has(el.tagName.toLowerCase()) || (el as El).style?.display === "none" || el.getAttribute("display") === "none";
}

function isEmptyLabel(el: Element): boolean {
  return el.tagName.toLowerCase() === "foreignobject" && !parseFloat(el.getAttribute("width") ?? "") && !parseFloat(el.getAttribute("height") ?? "");
}

/** Whether a container holds any rendered element other than an empty group. */
function hasRendered(el: Element): boolean {
  for (const child of Array.from(el.children)) {
    if (isHidden(child) || isEmptyLabel(child)) continue;
    if (!CONTAINERS.has(child.tagName.toLowerCase()) || hasRendered(child)) return true;
  }
  return false;
}

function bboxOf(el: Element): Box {
  const tag = el.tagName.toLowerCase().replace(/^svg:/, "");
  const n = (a: string) => parseFloat(el.getAttribute(a) ?? "") || 0;
  switch (tag) {
    case "text":
      return textBox(el);
    case "tspan":
      return textBox(el);
    case "rect":
    case "foreignobject":
    case "image":
      return { x: n("x"), y: n("y"), width: n("width"), height: n("height") };
    case "use": {
      const href = el.getAttribute("href") ?? el.getAttribute("xlink:href");
      const target = href?.startsWith("#") ? el.ownerDocument.getElementById(href.slice(1)) : null;
      if (el.hasAttribute("width") || !target) return { x: n("x"), y: n("y"), width: n("width"), height: n("height") };
      const b = bboxOf(target);
      return { ...b, x: b.x + n("x"), y: b.y + n("y") };
    }
    case "circle": {
      const r = n("r");
      return { x: n("cx") - r, y: n("cy") - r, width: 2 * r, height: 2 * r };
    }
    case "ellipse": {
      const rx = n("rx");
      const ry = n("ry");
      return { x: n("cx") - rx, y: n("cy") - ry, width: 2 * rx, height: 2 * ry };
    }
    case "line":
      return pointsBox([
        [n("x1"), n("y1")],
        [n("x2"), n("y2")],
      ]);
    case "polygon":
    case "polyline":
      return pointsBox(parsePoints(el.getAttribute("points")));
    case "path":
      return pathBox(el.getAttribute("d"));
    default: {
      const boxes: Box[] = [];
      for (const child of Array.from(el.children)) {
        const ct = child.tagName.toLowerCase();
        if (NON_RENDERED.has(ct)) continue;
        if ((child as El).style?.display === "none" || child.getAttribute("display") === "none") continue;
        // Like Chromium, a group with nothing rendered in it (all children display: none,
        // or none at all) adds nothing to its parent's box, not a point at its origin.
        if (CONTAINERS.has(ct) && !hasRendered(child)) continue;
        const b = bboxOf(child);
        if (b.width === 0 && b.height === 0 && !["text", "rect", "path", "circle", "line"].includes(ct) && child.children.length === 0) continue;
        // An empty label (a 0×0 foreignObject, e.g. mindmap edges without text at the origin)
        // adds nothing to its group's box in Chromium.
        if (isEmptyLabel(child)) continue;
        boxes.push(transformBox(b, parseTransform(child.getAttribute("transform"))));
      }
      return union(boxes) ?? { x: 0, y: 0, width: 0, height: 0 };
    }
  }
}

// ---- HTML labels (inside foreignObject): a tiny inline layout engine ---------------------------
/** A piece of text in one font: what a line of a label is made of (text-label mode draws these). */
export interface Run {
  text: string;
  font: FontStyle;
  /** The text's colour from inline style or CSS, when one is declared. */
  color?: string;
}

interface Word {
  width: number;
  /** Width of the space that follows (0 at a hyphen break or a line end). */
  space: number;
  newlineAfter: boolean;
  /** No soft wrap opportunity after this word: its text is `white-space: nowrap`/`pre`. */
  keep?: boolean;
  hyphen?: boolean;
  runs: Run[];
}

function isNowrap(whiteSpace: string | undefined): boolean {
  return /nowrap|pre$/.test(whiteSpace ?? "normal");
}

function colorOf(el: Element, rules: FontRule[]): string | undefined {
  return declared(el, "color", rules)?.value;
}

function collectWords(root: Element, rules: FontRule[]): { words: Word[]; maxSize: number } {
  const words: Word[] = [];
  let maxSize = 0;
  const walk = (node: Node) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 3) {
        const parent = child.parentElement ?? root;
        const font = fontOf(parent);
        const color = colorOf(parent, rules);
        // A break at a space or hyphen follows the white-space of the text it is in (a
        // `nowrap` span inside a wrapping div stays on one line, and widens a `display: table`).
        const keep = isNowrap(styleUp(parent, "white-space"));
        maxSize = Math.max(maxSize, font.size);
        const text = (child.textContent ?? "").replace(/[\t\n\r ]+/g, " ");
        const parts = text.split(/(?<=[ -])/); // keep the space/hyphen with its word
        for (const part of parts) {
          if (!part) continue;
          const trailingSpace = part.endsWith(" ");
          const core = trailingSpace ? part.slice(0, -1) : part;
          if (!core && words.length && trailingSpace) {
            const last = words[words.length - 1]!;
            last.space = textWidth(" ", font);
            last.keep = keep;
            continue;
          }
          // A word glued to the previous one (no space between text nodes) extends it.
          const prev = words[words.length - 1];
          if (prev && prev.space === 0 && !prev.newlineAfter && !prev.hyphen) {
            prev.width += textWidth(core, font);
            prev.space = trailingSpace ? textWidth(" ", font) : 0;
            prev.hyphen = core.endsWith("-");
            prev.keep = keep;
            prev.runs.push({ text: core, font, color });
          } else {
            words.push({ width: textWidth(core, font), space: trailingSpace ? textWidth(" ", font) : 0, newlineAfter: false, hyphen: core.endsWith("-"), keep, runs: [{ text: core, font, color }] });
          }
        }
      } else if (child.nodeType === 1) {
        const el = child as Element;
        const tag = el.tagName.toLowerCase();
        if (tag === "br") {
          if (words.length) words[words.length - 1]!.newlineAfter = true;
          else words.push({ width: 0, space: 0, newlineAfter: true, runs: [] });
          maxSize = Math.max(maxSize, fontOf(el).size);
        } else if (tag === "img") {
          const size = fontOf(el);
          const w = parseFloat((el as El).style?.width ?? "") || parseFloat(el.getAttribute("width") ?? "") || 0;
          words.push({ width: w, space: 0, newlineAfter: false, runs: [] });
          maxSize = Math.max(maxSize, size.size);
        } else if (tag === "p" || tag === "div") {
          if (words.length) words[words.length - 1]!.newlineAfter = true;
          walk(el);
          if (words.length) words[words.length - 1]!.newlineAfter = true;
        } else {
          walk(el);
        }
      }
    }
  };
  walk(root);
  if (words.length) words[words.length - 1]!.newlineAfter = false;
  return { words, maxSize: maxSize || fontOf(root).size };
}

function lineHeightOf(el: Element, size: number, rules: FontRule[]): number {
  const d = declared(el, "lineHeight", rules);
  if (!d || d.value === "normal") return size * (fontAscent() + fontDescent() + 0.033);
  const n = parseFloat(d.value);
  if (!Number.isFinite(n)) return size * 1.15;
  if (/px$/.test(d.value)) return n;
  if (/em$/.test(d.value)) return n * size;
  if (/%$/.test(d.value)) return (n / 100) * size;
  return n * size;
}

function styleUp(el: Element, prop: string): string | undefined {
  for (let cur: Element | null = el; cur && cur.nodeType === 1; cur = cur.parentElement) {
    if (cur.tagName.toLowerCase() === "foreignobject") break;
    const v = (cur as El).style?.getPropertyValue(prop);
    if (v) return v;
  }
  return undefined;
}

/** How an HTML label lays out: its box, line height and the text of each line. */
export interface HtmlLayout {
  width: number;
  height: number;
  lineHeight: number;
  lines: { width: number; runs: Run[] }[];
}

export function htmlLayout(el: Element): HtmlLayout {
  const rules = fontRules(el.ownerDocument);
  const { words, maxSize } = collectWords(el, rules);
  const lh = lineHeightOf(el, maxSize, rules);
  const whiteSpace = styleUp(el, "white-space") ?? "normal";
  const display = (el as El).style?.getPropertyValue("display") ?? "";
  const ownWidth = parseFloat((el as El).style?.getPropertyValue("width") ?? "");
  const maxWidth = parseFloat(styleUp(el, "max-width") ?? "");
  const nowrap = /nowrap|pre$/.test(whiteSpace);
  let limit = Infinity;
  if (Number.isFinite(ownWidth)) limit = ownWidth;
  else if (Number.isFinite(maxWidth) && !nowrap) limit = maxWidth;
  // Lay out words into lines.
  const lines: { width: number; runs: Run[] }[] = [];
  let line = 0;
  let runs: Run[] = [];
  let pendingSpace = 0;
  let pendingWord: Word | undefined;
  // Min-content width: the longest run of words without a wrap opportunity between them.
  let longest = 0;
  let chunk = 0;
  let started = false;
  let canBreak = false;
  const endLine = () => {
    lines.push({ width: line, runs });
    runs = [];
  };
  for (const w of words) {
    chunk = canBreak || !started ? w.width : chunk + pendingSpace + w.width;
    longest = Math.max(longest, chunk);
    if (started && canBreak && !nowrap && line + pendingSpace + w.width > limit + 0.01 && line > 0) {
      endLine();
      line = w.width;
    } else {
      line += (started ? pendingSpace : 0) + w.width;
      // The space between two words on one line is drawn in the earlier word's last font.
      if (started && pendingSpace && pendingWord?.runs.length) {
        const last = pendingWord.runs[pendingWord.runs.length - 1]!;
        runs.push({ text: " ", font: last.font, color: last.color });
      }
    }
    runs.push(...w.runs);
    started = true;
    pendingSpace = w.space;
    pendingWord = w;
    canBreak = !w.keep;
    if (w.newlineAfter) {
      endLine();
      line = 0;
      started = false;
      pendingSpace = 0;
    }
  }
  if (started || lines.length === 0) endLine();
  const natural = Math.max(0, ...lines.map((l) => l.width));
  let width: number;
  if (Number.isFinite(ownWidth)) width = /table/.test(display) ? Math.max(ownWidth, longest) : ownWidth;
  else if (Number.isFinite(maxWidth)) width = Math.min(natural, maxWidth);
  else width = natural;
  const height = words.length === 0 && !el.textContent ? 0 : lines.length * lh;
  return { width, height, lineHeight: lh, lines };
}

function htmlBox(el: Element): { width: number; height: number } {
  const { width, height } = htmlLayout(el);
  return { width, height };
}

function rect(x: number, y: number, width: number, height: number) {
  return { x, y, width, height, top: y, left: x, right: x + width, bottom: y + height, toJSON() { return { x, y, width, height }; } };
}

function insideSvgText(el: Element): boolean {
  return el.namespaceURI === "http://www.w3.org/2000/svg";
}

// ---- Install ---------------------------------------------------------------------------------
let installed: JSDOM | undefined;

export function installDom(): JSDOM {
  if (installed) return installed;
  const dom = new JSDOM("<!DOCTYPE html><html><head></head><body></body></html>", { pretendToBeVisual: false });
  const w = dom.window as unknown as Window & typeof globalThis & Record<string, unknown>;
  const g = globalThis as Record<string, unknown>;

  const svgProto = w.SVGElement.prototype as unknown as Record<string, unknown>;
  svgProto.getBBox = function (this: Element) {
    const b = bboxOf(this);
    return { x: b.x, y: b.y, width: b.width, height: b.height };
  };
  svgProto.getComputedTextLength = function (this: Element) {
    return textWidth((this.textContent ?? "").replace(/\s+/g, " "), fontOf(this));
  };
  svgProto.getTotalLength = function (this: Element) {
    return pathLength(this.getAttribute("d"));
  };
  svgProto.getPointAtLength = function (this: Element, at: number) {
    return pointAtLength(this.getAttribute("d"), at);
  };
  const matrix = () => ({ a: 1, b: 0, c: 0, d: 1, e: 0, f: 0, inverse: () => matrix(), multiply: () => matrix() });
  svgProto.getScreenCTM = matrix;
  svgProto.getCTM = matrix;
  (w.SVGSVGElement?.prototype as unknown as Record<string, unknown> | undefined) &&
    Object.assign(w.SVGSVGElement.prototype, {
      createSVGPoint: () => ({ x: 0, y: 0, matrixTransform() { return this; } }),
      createSVGMatrix: matrix,
    });

  const elProto = w.Element.prototype as unknown as Record<string, unknown>;
  elProto.getBoundingClientRect = function (this: Element) {
    if (insideSvgText(this)) {
      const b = transformBox(bboxOf(this), parseTransform(this.getAttribute("transform")));
      return rect(b.x, b.y, b.width, b.height);
    }
    if (!this.closest("foreignObject") && !this.closest("foreignobject")) {
      if (this === this.ownerDocument.body || this === this.ownerDocument.documentElement || !this.textContent?.trim()) return rect(0, 0, CONTAINER_WIDTH, 0);
    }
    const b = htmlBox(this);
    return rect(0, 0, b.width, b.height);
  };
  elProto.scrollIntoView = () => undefined;
  const htmlProto = w.HTMLElement.prototype;
  const sizeGetter = (axis: "width" | "height") =>
    function (this: Element) {
      if (this.closest("foreignObject") || this.closest("foreignobject")) return htmlBox(this)[axis];
      return axis === "width" ? CONTAINER_WIDTH : 0;
    };
  for (const [prop, axis] of [
    ["offsetWidth", "width"],
    ["clientWidth", "width"],
    ["scrollWidth", "width"],
    ["offsetHeight", "height"],
    ["clientHeight", "height"],
    ["scrollHeight", "height"],
  ] as const) {
    Object.defineProperty(htmlProto, prop, { configurable: true, get: sizeGetter(axis) });
  }
  // An <img> in a label would otherwise never "load" and block mermaid's render queue forever.
  Object.defineProperty(w.HTMLImageElement.prototype, "complete", { configurable: true, get: () => true });
  Object.defineProperty(w.HTMLImageElement.prototype, "naturalWidth", { configurable: true, get() { return parseFloat((this as HTMLImageElement).getAttribute("width") ?? "") || 0; } });
  Object.defineProperty(w.HTMLImageElement.prototype, "naturalHeight", { configurable: true, get() { return parseFloat((this as HTMLImageElement).getAttribute("height") ?? "") || 0; } });

  // Canvas: a no-op 2d context whose measureText uses the same metrics (cytoscape, some layouts).
  (w.HTMLCanvasElement.prototype as unknown as Record<string, unknown>).getContext = function () {
    const state: Record<string, unknown> = { font: "14px sans-serif" };
    return new Proxy(state, {
      get(target, key: string) {
        if (key === "measureText")
          return (text: string) => {
            const font = String(target.font ?? "");
            const size = parseFloat(/(\d+(?:\.\d+)?)px/.exec(font)?.[1] ?? "14");
            const width = textWidth(String(text), { size, bold: /bold|[6-9]00/.test(font) });
            return { width, actualBoundingBoxAscent: size * fontAscent(), actualBoundingBoxDescent: size * fontDescent(), fontBoundingBoxAscent: size * fontAscent(), fontBoundingBoxDescent: size * fontDescent() };
          };
        if (key === "getImageData" || key === "createImageData") return () => ({ data: new Uint8ClampedArray(4), width: 1, height: 1 });
        if (key === "canvas") return undefined;
        if (key in target) return target[key];
        return () => undefined;
      },
      set(target, key: string, value) {
        target[key] = value;
        return true;
      },
    });
  };

  // Headless Chromium under mermaid-cli reports its 800 x 600 viewport as the screen (and the
  // window). C4 lays out with `screen.availWidth` as its row width limit: 1920 here put more
  // shapes/boundaries side by side than Chromium does (C4 context was +31% wide, -24% tall).
  const screen = { availWidth: VIEWPORT_WIDTH, availHeight: VIEWPORT_HEIGHT, width: VIEWPORT_WIDTH, height: VIEWPORT_HEIGHT, availLeft: 0, availTop: 0, colorDepth: 24, pixelDepth: 24 };
  Object.defineProperty(w, "screen", { configurable: true, value: screen });
  for (const [prop, value] of [
    ["innerWidth", VIEWPORT_WIDTH],
    ["innerHeight", VIEWPORT_HEIGHT],
    ["outerWidth", VIEWPORT_WIDTH],
    ["outerHeight", VIEWPORT_HEIGHT],
  ] as const) {
    Object.defineProperty(w, prop, { configurable: true, get: () => value });
  }
  const raf = (cb: (t: number) => void) => setImmediate(() => cb(performance.now())) as unknown as number;
  w.requestAnimationFrame = raf as never;
  w.cancelAnimationFrame = ((id: unknown) => clearImmediate(id as NodeJS.Immediate)) as never;

  const names = [
    "window", "document", "Element", "HTMLElement", "SVGElement", "SVGSVGElement", "SVGGraphicsElement", "Node", "Text", "DocumentFragment",
    "DOMParser", "XMLSerializer", "MutationObserver", "getComputedStyle", "CSSStyleSheet", "HTMLImageElement", "HTMLCanvasElement",
    "Image", "NodeFilter", "Range", "HTMLTemplateElement", "HTMLFormElement", "NamedNodeMap", "DOMTokenList", "Event", "CustomEvent", "location",
  ];
  for (const name of names) {
    const value = name === "window" ? w : (w as Record<string, unknown>)[name];
    if (value === undefined) continue;
    Object.defineProperty(g, name, { configurable: true, writable: true, value: typeof value === "function" && name === "getComputedStyle" ? (value as Function).bind(w) : value });
  }
  Object.defineProperty(g, "screen", { configurable: true, writable: true, value: screen });
  g.requestAnimationFrame = raf;
  g.cancelAnimationFrame = w.cancelAnimationFrame;
  g.self = w;
  installed = dom;
  return dom;
}
