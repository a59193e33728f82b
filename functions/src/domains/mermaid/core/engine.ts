// Runs inside a render worker: the jsdom environment, mermaid itself, the sanitizer and resvg.
// Everything here is synchronous-per-job; the pool never sends a worker two jobs at once.
import { createHash } from "node:crypto";
import { MAX_IMAGE_SIDE } from "../../../mcp/content.js";
import { installDom } from "./dom.js";
import { FONT_FILES, loadFonts } from "./fonts.js";
import { MAX_CODE_LENGTH, MAX_SVG_CHARS, type JobError, type RenderOutcome, type Theme, type VerifyOutcome } from "./protocol.js";
import { createSanitizer, type Sanitizer } from "./sanitize.js";
import { describeRenderError, describeSyntaxError, isDiagramError } from "./syntax-error.js";

type Mermaid = typeof import("mermaid").default;

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

const BACKGROUND: Record<Theme, string> = { default: "#ffffff", neutral: "#ffffff", forest: "#ffffff", base: "#ffffff", dark: "#333333" };

let mermaid: Mermaid | undefined;
let sanitize: Sanitizer | undefined;

function baseConfig(theme: Theme, htmlLabels: boolean, seed = "mermaid") {
  return {
    startOnLoad: false,
    securityLevel: "strict" as const,
    suppressErrorRendering: true,
    maxTextSize: MAX_CODE_LENGTH,
    maxEdges: 500,
    theme,
    htmlLabels,
    flowchart: { htmlLabels },
    secure: SECURE_KEYS,
    // Same code + theme → same SVG, byte for byte (render and svg agree; the tools are idempotent).
    deterministicIds: true,
    deterministicIDSeed: seed,
  };
}

export async function init(): Promise<void> {
  if (mermaid) return;
  const dom = installDom();
  loadFonts();
  // Mermaid must be imported after the globals exist (its DOMPurify binds to window at load).
  mermaid = (await import("mermaid")).default;
  mermaid.initialize(baseConfig("default", true));
  sanitize = await createSanitizer(dom);
}

export async function warmup(): Promise<void> {
  await init();
  // One diagram through every stage, including a first ELK/cytoscape-free layout and resvg.
  await render("flowchart TD\n  A[Start] --> B{Ok?}\n  B -->|yes| C[Done]", "default", true);
  await verify("sequenceDiagram\n  A->>B: hi");
}

export async function verify(code: string): Promise<VerifyOutcome> {
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

/** mulberry32: a small, fast PRNG; quality is irrelevant here, repeatability is the point. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function renderOnce(code: string, theme: Theme, htmlLabels: boolean): Promise<{ svg: string; diagramType: string }> {
  const seed = createHash("sha256").update(`${theme}\u0000${code}`).digest("hex").slice(0, 10);
  mermaid!.initialize(baseConfig(theme, htmlLabels, seed));
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

export async function render(code: string, theme: Theme, png: boolean): Promise<RenderOutcome> {
  await init();
  const check = await verify(code);
  if (!check.ok) throw new JobFailure({ kind: "syntax", message: check.error! });
  let raw: { svg: string; diagramType: string };
  try {
    raw = await renderOnce(code, theme, true);
  } catch (err) {
    // The code parsed, so this is mermaid refusing it while drawing (gantt's "Invalid date", an
    // edge limit, …) or a crash; only the former is the caller's to fix.
    if (!isDiagramError(err)) throw err;
    throw new JobFailure({ kind: "render", message: describeRenderError(err, code) });
  }
  const svg = fixSvg(sanitize!(raw.svg));
  if (svg.length > MAX_SVG_CHARS) {
    const kb = (n: number) => Math.ceil(n / 1000);
    throw new JobFailure({
      kind: "too_large",
      message: `The rendered SVG is ${kb(svg.length)} KB, more than this server returns (${kb(MAX_SVG_CHARS)} KB): split the diagram into smaller ones`,
    });
  }
  const out: RenderOutcome = { svg, diagramType: raw.diagramType };
  if (png) {
    try {
      const plain = await renderOnce(code, theme, false);
      Object.assign(out, await rasterize(fixSvg(sanitize!(plain.svg)), theme));
    } catch {
      // The SVG is the answer; the picture is a bonus. Leave it out rather than fail.
    }
  }
  return out;
}

// Things both browsers and jsdom leave that a standalone .svg viewer rejects or misreads.
function fixSvg(svg: string): string {
  let s = svg.replace(/&nbsp;/g, "&#160;");
  if (!/^<svg[^>]*\sxmlns="http:\/\/www\.w3\.org\/2000\/svg"/.test(s)) s = s.replace(/^<svg/, '<svg xmlns="http://www.w3.org/2000/svg"');
  return s;
}

async function rasterize(svg: string, theme: Theme): Promise<Pick<RenderOutcome, "png">> {
  const { Resvg } = await import("@resvg/resvg-js");
  // Give the picture an intrinsic size (the SVG says width="100%").
  const vb = /viewBox="\s*([-\d.e]+)[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)\s*"/.exec(svg);
  const w = vb ? Math.max(1, parseFloat(vb[3]!)) : 800;
  const h = vb ? Math.max(1, parseFloat(vb[4]!)) : 600;
  const sized = svg.replace(/^<svg([^>]*)>/, (_m, attrs: string) => {
    const cleaned = attrs.replace(/\s(width|height)="[^"]*"/g, "").replace(/\sstyle="[^"]*"/, "");
    return `<svg${cleaned} width="${w}" height="${h}">`;
  });
  const zoom = Math.min(2, MAX_IMAGE_SIDE / Math.max(w, h));
  const resvg = new Resvg(sized, {
    fitTo: { mode: "zoom", value: zoom },
    background: BACKGROUND[theme],
    font: {
      fontFiles: Object.values(FONT_FILES),
      loadSystemFonts: false,
      defaultFontFamily: "Liberation Sans",
      sansSerifFamily: "Liberation Sans",
      serifFamily: "Liberation Sans",
      monospaceFamily: "Liberation Sans",
    },
  });
  const image = resvg.render();
  return { png: image.asPng() };
}
