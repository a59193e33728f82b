// A drawn diagram taken apart into what a whiteboard needs: its boxes, lines and groups, where
// the engine placed them. Flowcharts, state, class and ER diagrams come from mermaid's own layout
// data (getData: nodes and edges in mermaid's order) placed by the drawn SVG (each node's group,
// found by its DOM id); sequence diagrams from the drawn actors and messages. Other types have no
// such structure: the caller gets the SVG. Coordinates start at the diagram's top-left corner.
import type { DiagramEdge, DiagramGroup, DiagramLayout, DiagramNode, DiagramPoint } from "../../contracts/figma-plugin.js";
import { parseTransform, transformBox, type Box } from "./geometry.js";

/** Mermaid's layout data for the types drawn by its unified renderer (the fields we read). */
export interface LayoutData {
  nodes: { id: string; domId?: string; label?: string; shape?: string; isGroup?: boolean; parentId?: string }[];
  edges: { start: string; end: string; label?: string; arrowTypeStart?: string; arrowTypeEnd?: string; pattern?: string }[];
}

const round = (n: number) => Math.round(n * 100) / 100;
const plain = (html: string | undefined) =>
  (html ?? "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<[^>]+>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .trim();

/** An element's box in the SVG's coordinates (its own and its ancestors' transforms applied). */
function boxInRoot(el: Element, root: Element): Box {
  let box = (el as unknown as { getBBox(): Box }).getBBox();
  for (let n: Element | null = el; n && n !== root; n = n.parentElement) box = transformBox(box, parseTransform(n.getAttribute("transform")));
  return box;
}

function viewBox(root: Element): Box {
  const [x, y, width, height] = (root.getAttribute("viewBox") ?? "0 0 0 0").split(/[\s,]+/).map(Number);
  return { x: x || 0, y: y || 0, width: width || 0, height: height || 0 };
}

/** The text lines a box shows (class members, entity attributes), in drawing order. */
function linesOf(el: Element): string {
  const labels = Array.from(el.querySelectorAll("foreignObject, text"))
    .map((l) => (l.textContent ?? "").replace(/\s+/g, " ").trim())
    .filter(Boolean);
  return labels.join("\n");
}

/** State diagrams' start and end dots carry no text. */
const START_END = new Set(["stateStart", "stateEnd"]);
const NO_ARROW = new Set(["none", "", undefined]);

/** Flowchart, state, class and ER diagrams: mermaid's nodes and edges, placed where the SVG drew them. */
export function layoutFromData(diagramType: string, data: LayoutData, root: Element): DiagramLayout {
  const vb = viewBox(root);
  const svgId = root.getAttribute("id") ?? "";
  // DOM ids are the node's domId ("classId-Duck-1"); its counter may differ between mermaid's
  // parses of the same code, so the id without it ("classId-Duck") finds the node too.
  const byDomId = new Map<string, Element>();
  const stem = (id: string) => id.replace(/-\d+$/, "");
  for (const el of Array.from(root.querySelectorAll("g.node, g.cluster, g[id]"))) {
    const raw = el.getAttribute("id") ?? "";
    const id = raw.startsWith(`${svgId}-`) ? raw.slice(svgId.length + 1) : raw;
    byDomId.set(id, el);
    if (!byDomId.has(`stem:${stem(id)}`)) byDomId.set(`stem:${stem(id)}`, el);
  }
  const place = (el: Element) => {
    const b = boxInRoot(el, root);
    return { x: round(b.x - vb.x), y: round(b.y - vb.y), width: round(b.width), height: round(b.height) };
  };
  const groups: DiagramGroup[] = [];
  const nodes: DiagramNode[] = [];
  for (const n of data.nodes) {
    const el = byDomId.get(n.domId ?? n.id) ?? (n.domId ? byDomId.get(`stem:${stem(n.domId)}`) : undefined) ?? byDomId.get(n.id);
    if (!el) continue;
    if (n.isGroup) {
      groups.push({ id: n.id, label: plain(n.label), ...place(el.querySelector("rect") ?? el) });
      continue;
    }
    const shape = n.shape ?? "rect";
    // Classes and entities are boxes of lines (name, attributes, methods): the lines as drawn.
    const label = shape === "classBox" || shape === "erBox" ? linesOf(el) || plain(n.label) : START_END.has(shape) ? "" : plain(n.label);
    nodes.push({ id: n.id, label, shape, ...place(el), ...(n.parentId ? { groupId: n.parentId } : {}) });
  }
  const known = new Set(nodes.map((n) => n.id));
  const edges: DiagramEdge[] = data.edges
    .filter((e) => known.has(e.start) && known.has(e.end))
    .map((e) => ({
      from: e.start,
      to: e.end,
      ...(plain(e.label) ? { label: plain(e.label) } : {}),
      arrowStart: !NO_ARROW.has(e.arrowTypeStart),
      arrowEnd: !NO_ARROW.has(e.arrowTypeEnd),
      dashed: e.pattern === "dotted" || e.pattern === "dashed",
    }));
  return { diagramType, width: round(vb.width), height: round(vb.height), nodes, edges, groups };
}

/** Sequence diagrams: the actors' top boxes, each lifeline, and each message between two lifelines at its height. */
export function layoutOfSequence(root: Element): DiagramLayout {
  const vb = viewBox(root);
  const at = (x: number, y: number): DiagramPoint => ({ x: round(x - vb.x), y: round(y - vb.y) });
  const num = (el: Element, a: string) => parseFloat(el.getAttribute(a) ?? "") || 0;
  const nodes: DiagramNode[] = [];
  const edges: DiagramEdge[] = [];
  for (const g of Array.from(root.querySelectorAll('g[data-et="participant"]'))) {
    const id = g.getAttribute("data-id") ?? "";
    const rect = g.querySelector("rect");
    const b = boxInRoot(rect ?? g, root);
    nodes.push({ id, label: (g.textContent ?? id).trim(), shape: "actor", ...at(b.x, b.y), width: round(b.width), height: round(b.height) });
  }
  // Mermaid draws actors right to left; the board lists them as the diagram reads.
  nodes.sort((a, b) => a.x - b.x);
  for (const line of Array.from(root.querySelectorAll('line[data-et="life-line"]'))) {
    edges.push({ from: at(num(line, "x1"), num(line, "y1")), to: at(num(line, "x2"), num(line, "y2")), arrowStart: false, arrowEnd: false, dashed: true });
  }
  const texts = Array.from(root.querySelectorAll("text.messageText")).map((t) => (t.textContent ?? "").trim());
  Array.from(root.querySelectorAll('[data-et="message"]')).forEach((m, i) => {
    if (m.tagName.toLowerCase() !== "line") return; // self-messages are curves: left to the SVG
    edges.push({
      from: at(num(m, "x1"), num(m, "y1")),
      to: at(num(m, "x2"), num(m, "y2")),
      ...(texts[i] ? { label: texts[i] } : {}),
      arrowStart: false,
      arrowEnd: (m.getAttribute("marker-end") ?? "") !== "",
      dashed: (m.getAttribute("class") ?? "").includes("messageLine1"),
    });
  });
  return { diagramType: "sequence", width: round(vb.width), height: round(vb.height), nodes, edges, groups: [] };
}
