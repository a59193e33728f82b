// Runs inside a render worker: the jsdom environment, mermaid itself, the sanitizer and resvg.
// Everything here is synchronous-per-job; the pool never sends a worker two jobs at once.
import { createHash } from "node:crypto";
import { installDom } from "./dom.js";
import { loadFonts } from "./fonts.js";
import { MAX_CODE_LENGTH, MAX_SVG_CHARS, type JobError, type Labels, type RenderOutcome, type Theme, type VerifyOutcome, type WarmupTimings } from "./protocol.js";
import { rasterize } from "./raster.js";
import { splitSelectorLists } from "./css.js";
import { installMermaidPatch } from "./mermaid-patch.js";
import { createSanitizer, type Sanitizer } from "./sanitize.js";
import { htmlLabelsToText } from "./text-labels.js";
import { describeRenderError, describeSyntaxError, isDiagramError } from "./syntax-error.js";
import { layoutFromData, layoutOfSequence, type LayoutData } from "./layout.js";
import type { DiagramLayout } from "../../contracts/figma-plugin.js";
import { seededRandom } from "../../core/random.js";

type Mermaid = typeof import("mermaid").default;

/** Set by the bundler (scripts/bundle-worker.mjs), which applies the config patch at build time. */
declare const __MERMAID_WORKER_BUNDLE__: boolean | undefined;
const BUNDLED = typeof __MERMAID_WORKER_BUNDLE__ !== "undefined" && __MERMAID_WORKER_BUNDLE__;

export class JobFailure extends Error {
  constructor(readonly detail: JobError) {
    super(detail.message);
  }
}

/** Config keys a diagram's %%{init}%% or frontmatter may not change. */
const SECURE_KEYS = [
  "secure", "securityLevel", "startOnLoad", "maxTextSize", "maxEdges", "suppressErrorRendering",
  "htmlLabels", "themeCSS", "fontFamily", "altFontFamily", "dompurifyConfig", "arrowMarkerAbsolute", "legacyMathML", "forceLegacyMathML",
];

let mermaid: Mermaid | undefined;
let sanitize: Sanitizer | undefined;

// htmlLabels is left at mermaid's defaults (unset at the top, flowchart null: HTML labels), as in
// a browser: some shapes read the top-level value directly (ER boxes pad 25 % more when it is
// unset), so setting it drew them smaller than Chromium does. Diagrams cannot change it (SECURE_KEYS).
function baseConfig(theme: Theme, seed = "mermaid") {
  return {
    startOnLoad: false,
    securityLevel: "strict" as const,
    suppressErrorRendering: true,
    maxTextSize: MAX_CODE_LENGTH,
    maxEdges: 500,
    theme,
    // Labels are measured in Liberation Sans (Arial's metrics, fonts.ts), so the SVG asks for fonts
    // of those metrics: mermaid's own "trebuchet ms", verdana is wider where it exists (macOS,
    // Windows; Linux maps verdana to DejaVu Sans) and its text overflowed the boxes measured for it.
    fontFamily: 'arial, "Liberation Sans", arimo, helvetica, sans-serif',
    secure: SECURE_KEYS,
    // Same code + theme → same SVG, byte for byte (render and svg agree; the tools are idempotent).
    deterministicIds: true,
    deterministicIDSeed: seed,
  };
}

export async function init(): Promise<void> {
  if (mermaid) return;
  if (!BUNDLED && process.env.MERMAID_CONFIG_PATCH !== "off") installMermaidPatch();
  const dom = installDom();
  loadFonts();
  // Mermaid must be imported after the globals exist (its DOMPurify binds to window at load).
  mermaid = (await import("mermaid")).default;
  mermaid.initialize(baseConfig("default"));
  sanitize = await createSanitizer(dom);
}

/**
 * Makes the worker ready: the environment, then one small flowchart through every stage but the
 * PNG (resvg loads on the first render that asks for a picture), which also proves the pipeline
 * works before the worker takes traffic. Nothing more: a cold instance's first caller waits for this.
 */
export async function warmup(at: Pick<WarmupTimings, "loaded" | "modules">): Promise<WarmupTimings> {
  await init();
  const initAt = performance.now();
  await render("flowchart TD\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]", "default", false);
  const round = (ms: number) => Math.round(ms);
  return { loaded: round(at.loaded), modules: round(at.modules), init: round(initAt), firstRender: round(performance.now()) };
}

/**
 * verify refuses what render would refuse for the diagram itself: the parse, then the whole
 * drawing (gantt checks its dates only while drawing; edge limits, too-large output). Refusals
 * come back as {ok: false, error}; crashes on our side still throw.
 */
export async function verify(code: string): Promise<VerifyOutcome> {
  const check = await parse(code);
  if (!check.ok) return check;
  try {
    await draw(code, "default");
    return { ok: true };
  } catch (err) {
    if (err instanceof JobFailure) return { ok: false, error: err.detail.message };
    throw err;
  }
}

async function parse(code: string): Promise<VerifyOutcome> {
  await init();
  try {
    await mermaid!.parse(code, { suppressErrors: false });
    return { ok: true };
  } catch (err) {
    // Only mermaid's verdicts on the diagram are "ok: false"; a crash (a TypeError from mermaid or
    // our DOM shim) is our fault, not the caller's: the worker reports it as internal.
    if (!isDiagramError(err)) throw err;
    return { ok: false, error: describeSyntaxError(err, code) };
  } finally {
    cleanup();
  }
}

function cleanup(): void {
  const body = document.body;
  while (body.firstChild) body.removeChild(body.firstChild);
}

async function renderOnce(code: string, theme: Theme): Promise<{ svg: string; diagramType: string }> {
  const seed = createHash("sha256").update(`${theme}\u0000${code}`).digest("hex").slice(0, 10);
  mermaid!.initialize(baseConfig(theme, seed));
  const id = `mermaid-${seed}`;
  // gitGraph's commit ids and the hand-drawn jitter of "neo" shapes come from Math.random: seeded
  // from the code + theme, the same input draws the same picture (render and svg agree).
  const random = Math.random;
  Math.random = seededRandom(parseInt(seed.slice(0, 8), 16));
  try {
    return await mermaid!.render(id, code);
  } finally {
    Math.random = random;
    cleanup();
  }
}

/** Parse + layout + sanitize: the SVG (HTML labels) as a DOM, or a JobFailure for the caller. */
async function draw(code: string, theme: Theme): Promise<{ root: Element; diagramType: string }> {
  let raw: { svg: string; diagramType: string };
  try {
    raw = await renderOnce(code, theme);
  } catch (err) {
    // The code parsed, so this is mermaid refusing it while drawing (gantt's "Invalid date", an
    // edge limit, …) or a crash; only the former is the caller's to fix.
    if (!isDiagramError(err)) throw err;
    throw new JobFailure({ kind: "render", message: describeRenderError(err, code) });
  }
  const root = sanitize!(raw.svg);
  const size = serialize(root).length;
  if (size > MAX_SVG_CHARS) {
    const kb = (n: number) => Math.ceil(n / 1000);
    throw new JobFailure({
      kind: "too_large",
      message: `The rendered SVG is ${kb(size)} KB, more than this server returns (${kb(MAX_SVG_CHARS)} KB): split the diagram into smaller ones`,
    });
  }
  return { root, diagramType: raw.diagramType };
}

function serialize(root: Element): string {
  return fixSvg(new XMLSerializer().serializeToString(root));
}

export async function render(code: string, theme: Theme, png: boolean, labels: Labels = "html"): Promise<RenderOutcome> {
  await init();
  const check = await parse(code);
  if (!check.ok) throw new JobFailure({ kind: "syntax", message: check.error! });
  const { root, diagramType } = await draw(code, theme);
  // One layout: the text-label variant (and the PNG, which resvg draws from it) is the same SVG
  // with each HTML label replaced by SVG text where its lines were.
  const html = serialize(root);
  let text: string | undefined;
  if (labels === "text" || png) {
    // In the document while measuring, so its <style> rules (font sizes, colours) apply.
    document.body.appendChild(root);
    try {
      htmlLabelsToText(root);
      // Simpler CSS for simpler renderers (resvg, design tools): one selector per rule.
      for (const style of Array.from(root.getElementsByTagName("style"))) style.textContent = splitSelectorLists(style.textContent ?? "");
    } finally {
      cleanup();
    }
    text = serialize(root);
  }
  const out: RenderOutcome = { svg: labels === "text" ? text! : html, diagramType };
  if (png) {
    try {
      out.png = await rasterize(text!, theme);
    } catch (err) {
      // The SVG is the answer; the picture is a bonus. Left out, and the reason logged by the caller.
      out.pngError = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    }
  }
  return out;
}

/**
 * The diagram taken apart where the engine placed everything (layout.ts): nodes, edges and groups
 * for the types drawn from mermaid's layout data and for sequence diagrams; the SVG (labels as
 * text, which design tools import) for the others.
 */
export async function layout(code: string): Promise<DiagramLayout> {
  await init();
  const check = await parse(code);
  if (!check.ok) throw new JobFailure({ kind: "syntax", message: check.error! });
  const { root, diagramType } = await draw(code, "default");
  const diagram = await mermaid!.mermaidAPI.getDiagramFromText(code);
  const db = diagram.db as { getData?: () => LayoutData };
  // In the document while measuring, so its <style> rules (font sizes) apply to the boxes.
  document.body.appendChild(root);
  try {
    if (typeof db.getData === "function") return layoutFromData(diagramType, db.getData(), root);
    if (diagramType === "sequence") return layoutOfSequence(root);
  } finally {
    cleanup();
  }
  const { svg } = await render(code, "default", false, "text");
  const [, , width, height] = (root.getAttribute("viewBox") ?? "0 0 0 0").split(/[\s,]+/).map(Number);
  return { diagramType, width: width || 0, height: height || 0, nodes: [], edges: [], groups: [], svg };
}

// Things both browsers and jsdom leave that a standalone .svg viewer rejects or misreads.
function fixSvg(svg: string): string {
  let s = svg.replace(/&nbsp;/g, "&#160;");
  if (!/^<svg[^>]*\sxmlns="http:\/\/www\.w3\.org\/2000\/svg"/.test(s)) s = s.replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
  return s;
}
