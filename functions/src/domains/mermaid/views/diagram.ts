// The diagram view (ui://mermaid/diagram) for render and svg: the server's SVG fit to width, zoom
// and pan (buttons, keys, wheel, drag), copy the source, download the SVG and the server's PNG,
// draw again in the host's theme; an invalid diagram shows the parser's message and its line.
import "../../../mcp/views/base.css";
import "./diagram.css";
import { connectView, el, resultText, roomOf, showError, type View } from "../../../mcp/views/app.js";
import type { CallToolResult } from "@modelcontextprotocol/server";

const app = document.getElementById("app")!;
let input: { code?: string; theme?: string; labels?: string } = {};
let svgText = "";
let view: View | undefined;
let scale = 1;
let offset = { x: 0, y: 0 };
let fitScale = 1;
const MAX_HEIGHT = 560;

const status = el("span", { class: "status", role: "status", "aria-live": "polite" });
const stage = el("div", { class: "stage", tabindex: "0", "aria-label": "Diagram: + and − zoom, 0 fits, arrow keys pan" });
const canvas = el("div", { class: "canvas" });
stage.append(canvas);

const button = (label: string, title: string, onClick: () => void) => {
  const b = el("button", { type: "button", title, "aria-label": title }, label);
  b.addEventListener("click", onClick);
  return b;
};
const toolbar = el(
  "div",
  { class: "toolbar", role: "toolbar", "aria-label": "Diagram" },
  button("−", "Zoom out", () => zoom(1 / 1.25)),
  button("+", "Zoom in", () => zoom(1.25)),
  button("Fit", "Fit to width", () => fit()),
  button("Copy source", "Copy the Mermaid source", () => void copySource()),
  button("SVG", "Download the SVG", () => void downloadSvg()),
  button("PNG", "Download a PNG drawn by the server", () => void downloadPng()),
  button("Host theme", "Draw again in the host's light or dark theme", () => void redraw()),
  status,
);

function say(text: string) {
  status.textContent = text;
}

function place() {
  canvas.style.transform = `translate(${offset.x}px, ${offset.y}px) scale(${scale})`;
}

function zoom(factor: number) {
  scale = Math.min(8, Math.max(0.1, scale * factor));
  place();
  say(`${Math.round((scale / fitScale) * 100)}%`);
}

function fit() {
  const svg = canvas.querySelector("svg");
  if (!svg) return;
  const width = svg.viewBox.baseVal?.width || 1;
  const height = svg.viewBox.baseVal?.height || 1;
  const room = stage.clientWidth - 2;
  // The whole diagram in view: the width of the conversation, a tall one no taller than MAX_HEIGHT
  // or than what the host's container leaves below the toolbar; zoom and pan show the rest.
  const hostMax = view ? roomOf(view.context).maxHeight : undefined;
  const above = stage.getBoundingClientRect().top + window.scrollY; // the toolbar and the padding
  const tallest = hostMax ? Math.max(116, Math.min(MAX_HEIGHT, hostMax - above - 24)) : MAX_HEIGHT;
  fitScale = Math.min(1.5, room / width, tallest / height);
  scale = fitScale;
  offset = { x: Math.max(0, (room - width * scale) / 2), y: 0 };
  place();
  stage.style.height = `${Math.max(120, Math.ceil(height * scale) + 4)}px`;
}

/**
 * Each label's box was measured on the server in Arial's metrics; where this browser has no such
 * font and draws the label wider, the box grows around its centre so no text is cut off.
 */
function fitLabels(svg: SVGSVGElement): void {
  for (const fo of Array.from(svg.querySelectorAll("foreignObject"))) {
    const needs = (fo.firstElementChild as HTMLElement | null)?.scrollWidth ?? 0;
    const room = fo.width.baseVal.value;
    if (needs <= room + 0.5) continue;
    fo.setAttribute("width", String(needs));
    fo.setAttribute("x", String(fo.x.baseVal.value - (needs - room) / 2));
  }
}

function showDiagram(svg: string) {
  svgText = svg;
  const doc = new DOMParser().parseFromString(svg, "image/svg+xml");
  const root = doc.documentElement;
  if (root.nodeName !== "svg" || doc.querySelector("parsererror")) return showError(app, "The diagram could not be shown", "The server's SVG did not parse.");
  // The server sanitizes its SVG; nothing executable is taken into the view all the same.
  for (const node of [root, ...Array.from(root.querySelectorAll("*"))]) {
    if (node.localName === "script") node.remove();
    for (const attr of Array.from(node.attributes)) if (/^on/i.test(attr.name)) node.removeAttribute(attr.name);
  }
  const width = root.getAttribute("width");
  if (root.getAttribute("viewBox") === null && width) root.setAttribute("viewBox", `0 0 ${parseFloat(width)} ${parseFloat(root.getAttribute("height") ?? width)}`);
  root.removeAttribute("style");
  const box = root.getAttribute("viewBox")?.split(/[\s,]+/).map(Number) ?? [];
  root.setAttribute("width", String(box[2] ?? 800));
  root.setAttribute("height", String(box[3] ?? 600));
  canvas.replaceChildren(document.importNode(root, true));
  // A diagram drawn in a light theme sits on light paper in a dark host, and the other way round.
  stage.dataset.paper = input.theme === "dark" ? "dark" : "light";
  app.replaceChildren(toolbar, stage);
  fitLabels(canvas.querySelector("svg")!); // measured once the diagram is in the page
  requestAnimationFrame(fit);
}

function showInvalid(message: string) {
  const line = Number(/line (\d+)/i.exec(message)?.[1] ?? 0);
  const lines = (input.code ?? "").split("\n");
  const listing = el("ol", { class: "source" });
  lines.forEach((text, i) => listing.append(el("li", i + 1 === line ? { class: "bad", "aria-current": "true" } : {}, text || " ")));
  app.replaceChildren(
    el("div", { class: "error", role: "alert" }, el("strong", {}, "This diagram is not valid Mermaid"), el("pre", {}, message)),
    ...(lines.length > 1 || lines[0] ? [listing] : []),
  );
}

function showResult(result: CallToolResult) {
  const svg = (result.structuredContent as { svg?: unknown } | undefined)?.svg;
  if (result.isError || typeof svg !== "string") return showInvalid(resultText(result) || "The diagram could not be rendered.");
  showDiagram(svg);
}

async function copySource() {
  const code = input.code ?? "";
  try {
    await navigator.clipboard.writeText(code);
  } catch {
    // Sandboxed frames may not reach the clipboard API: select a hidden copy and copy that.
    const area = el("textarea", { class: "offscreen", "aria-hidden": "true" });
    area.value = code;
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    if (!ok) return say("The host does not allow copying here");
  }
  say("Source copied");
}

async function downloadSvg() {
  if (!view || !svgText) return;
  const ok = await view.download(`diagram.svg`, "image/svg+xml", { text: svgText });
  say(ok ? "SVG saved" : "The host did not save the file");
}

async function downloadPng() {
  if (!view || !input.code) return;
  say("Drawing PNG…");
  const result = await view.callTool("png", input);
  const image = result.content?.find((c) => c.type === "image");
  if (result.isError || !image || image.type !== "image") return say(resultText(result) || "No PNG came back");
  const ok = await view.download("diagram.png", "image/png", { blob: image.data });
  say(ok ? "PNG saved" : "The host did not save the file");
}

async function redraw() {
  if (!view || !input.code) return;
  const theme = view.context.theme === "dark" ? "dark" : "default";
  say(`Drawing in the ${theme === "dark" ? "dark" : "light"} theme…`);
  const result = await view.callTool("render", { ...input, theme });
  if (result.isError) return say(resultText(result));
  input = { ...input, theme };
  showResult(result);
  say("Drawn in the host's theme");
}

stage.addEventListener("keydown", (e) => {
  const step = 40;
  const moves: Record<string, () => void> = {
    "+": () => zoom(1.25),
    "=": () => zoom(1.25),
    "-": () => zoom(1 / 1.25),
    "0": () => fit(),
    ArrowLeft: () => ((offset.x += step), place()),
    ArrowRight: () => ((offset.x -= step), place()),
    ArrowUp: () => ((offset.y += step), place()),
    ArrowDown: () => ((offset.y -= step), place()),
  };
  const move = moves[e.key];
  if (move) {
    e.preventDefault();
    move();
  }
});
stage.addEventListener("wheel", (e) => {
  if (!e.ctrlKey && !e.metaKey) return; // plain scrolling scrolls the conversation
  e.preventDefault();
  zoom(e.deltaY < 0 ? 1.1 : 1 / 1.1);
}, { passive: false });
let drag: { x: number; y: number } | undefined;
stage.addEventListener("pointerdown", (e) => {
  drag = { x: e.clientX - offset.x, y: e.clientY - offset.y };
  stage.setPointerCapture(e.pointerId);
});
stage.addEventListener("pointermove", (e) => {
  if (!drag) return;
  offset = { x: e.clientX - drag.x, y: e.clientY - drag.y };
  place();
});
stage.addEventListener("pointerup", () => (drag = undefined));
window.addEventListener("resize", () => requestAnimationFrame(fit));

connectView("mermaid-diagram", {
  input: (args) => (input = args as typeof input),
  result: showResult,
  room: () => requestAnimationFrame(fit),
  cancelled: () => showError(app, "The diagram was not drawn", "The tool call was cancelled."),
})
  .then((connected) => (view = connected))
  .catch((err: Error) => showError(app, "This view could not reach its host", err.message));
