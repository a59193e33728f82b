// The screenshot view (ui://fotos/screenshot) for take_screenshot, ocr_screenshot,
// annotate_screenshot and auto_redact_pii: the full-resolution image, read as screenshots://{id}
// through the host (a view is never given a URL to the image), with what the tool did drawn over it.
import "../../../mcp/views/base.css";
import "./screenshot.css";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { connectView, el, resultText, showError, svgEl as svg, type View } from "../../../mcp/views/app.js";

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
interface Result {
  id?: string;
  screenshot_id?: string;
  detections?: (Box & { type: string })[];
  regions?: (Box & { text: string; confidence: number })[];
  recheck?: string;
  annotations?: number;
  /** take_screenshot's: what the computer covered before the upload. */
  redaction?: { detections: (Box & { type: string })[]; recheck?: string };
}
interface Annotation {
  type: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  points?: { x: number; y: number }[];
  text?: string;
}

const app = document.getElementById("app")!;
let view: View | undefined;
let input: { annotations?: Annotation[] } = {};
let pending: CallToolResult | undefined;

const tip = el("div", { class: "tip", role: "status", "aria-live": "polite" });
const say = (text: string) => (tip.textContent = text);


function mark(layer: SVGSVGElement, box: Box, cls: string, text: string, extra: Record<string, string> = {}) {
  const rect = svg("rect", { x: box.x, y: box.y, width: Math.max(1, box.w), height: Math.max(1, box.h), class: cls, tabindex: 0, "aria-label": text, ...extra });
  rect.append(Object.assign(svg("title", {}), { textContent: text }));
  rect.addEventListener("mouseenter", () => say(text));
  rect.addEventListener("focus", () => say(text));
  layer.append(rect);
}

async function show(result: CallToolResult) {
  if (!view) return void (pending = result); // the result can arrive before connecting finishes
  const data = result.structuredContent as Result | undefined;
  const id = data?.screenshot_id ?? data?.id;
  if (result.isError || !data || !id) return showError(app, "Nothing to show", resultText(result) || "The tool did not return a screenshot.");
  app.replaceChildren(el("p", { class: "loading" }, "Reading the full-resolution image…"));
  let png: string | undefined;
  try {
    const read = await view.readResource(`screenshots://${id}`);
    const content = read.contents.find((c) => c.mimeType === "image/png");
    png = content && "blob" in content ? content.blob : undefined;
  } catch (err) {
    return showError(app, "The image could not be read from the server", (err as Error).message);
  }
  if (!png) return showError(app, "The image could not be read from the server", `screenshots://${id} held no PNG.`);
  const image = el("img", { alt: `Screenshot ${id}`, src: `data:image/png;base64,${png}` });
  await image.decode().catch(() => undefined);
  const width = image.naturalWidth || 1, height = image.naturalHeight || 1;
  const layer = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "layer", "aria-label": "What the tool marked" });
  const summary: string[] = [];
  const tagSize = Math.max(14, Math.round(width / 55)); // legible once the image is scaled to the view

  // auto_redact_pii's detections, or those take_screenshot's capture was redacted with on the computer.
  const detections = data.detections ?? data.redaction?.detections;
  const recheck = data.recheck ?? data.redaction?.recheck;
  if (detections) {
    for (const d of detections) mark(layer, d, "redaction", `${d.type.replace(/_/g, " ")} covered`, { "data-type": d.type });
    for (const d of detections) layer.append(Object.assign(svg("text", { x: d.x, y: Math.max(tagSize, d.y - 4), class: "tag", "font-size": tagSize }), { textContent: d.type.replace(/_/g, " ") }));
    summary.push(detections.length ? `${detections.length} item${detections.length === 1 ? "" : "s"} of personal data covered; re-check: ${recheck ?? "–"}` : "No personal data found: the image is unchanged");
  }
  if (data.regions) {
    for (const r of data.regions) mark(layer, r, "word", `“${r.text}” (${Math.round(r.confidence * 100)}%)`);
    summary.push(`${data.regions.length} words read; hover or tab to a word to see it`);
  }
  if (typeof data.annotations === "number") {
    for (const a of input.annotations ?? []) {
      if (a.x === undefined || a.y === undefined) continue;
      const box = { x: a.x, y: a.type === "text" ? a.y - (a.height ?? 16) : a.y, w: a.width ?? (a.text?.length ?? 4) * (a.height ?? 16) * 0.6, h: a.height ?? 16 };
      mark(layer, box, "annotation", a.type === "text" ? `text “${a.text}”` : a.type, { "data-type": a.type });
    }
    summary.push(`${data.annotations} annotation${data.annotations === 1 ? "" : "s"} drawn into a new screenshot`);
  }
  const figure = el("div", { class: "shot" }, image, layer as unknown as HTMLElement);
  app.replaceChildren(el("div", { class: "toolbar" }, el("strong", {}, `${width}×${height}`), el("span", { class: "muted" }, summary.join(". ") || `Screenshot ${id}`)), figure, tip);
}

connectView("fotos-screenshot", {
  input: (args) => (input = args),
  result: (r) => void show(r),
  cancelled: () => showError(app, "No screenshot to show", "The tool call was cancelled."),
})
  .then((v) => {
    view = v;
    if (pending) void show(pending);
  })
  .catch((err: Error) => showError(app, "This view could not reach its host", err.message));
