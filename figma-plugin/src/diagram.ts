/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// create_diagram: a Mermaid diagram, laid out by the suite's engine (the function sends the layout),
// built as editable objects. In FigJam: a section holding a shape with text per node (groups as
// sections inside it) and a connector per edge, attached to its nodes. In a design file: a frame
// holding an auto-layout frame with text per node and a vector per edge. Types without nodes come
// as the engine's SVG, imported. Everything keeps the engine's order and relative positions, and
// the whole diagram is one undo step (one command).
import type { DiagramEdge, DiagramLayout, DiagramNode, DiagramPoint, FigjamShape } from "../../functions/src/contracts/figma-plugin.js";
import { brief } from "./describe.js";
import { connect, createShape, writeText } from "./figjam.js";
import { CommandError, node, solid, type Handler } from "./kit.js";

declare const figma: PluginAPI;

/** Room around the diagram inside its section or frame. */
const PAD = 40;
const INK = { r: 0.2, g: 0.2, b: 0.2 };

/** Mermaid's shapes as FigJam's. */
const SHAPES: Record<string, FigjamShape> = {
  squareRect: "SQUARE", rect: "SQUARE", classBox: "SQUARE", erBox: "SQUARE", actor: "SQUARE",
  roundedRect: "ROUNDED_RECTANGLE", stadium: "ROUNDED_RECTANGLE", rounded: "ROUNDED_RECTANGLE",
  diamond: "DIAMOND", question: "DIAMOND", choice: "DIAMOND",
  circle: "ELLIPSE", doublecircle: "ELLIPSE", stateStart: "ELLIPSE", stateEnd: "ELLIPSE", ellipse: "ELLIPSE",
  cylinder: "ENG_DATABASE", hexagon: "HEXAGON", lean_right: "PARALLELOGRAM_RIGHT", lean_left: "PARALLELOGRAM_LEFT",
  trapezoid: "TRAPEZOID", inv_trapezoid: "TRAPEZOID", subroutine: "PREDEFINED_PROCESS", document: "DOCUMENT_SINGLE",
};

async function targetPage(pageId: string | undefined): Promise<PageNode> {
  if (!pageId) return figma.currentPage;
  const page = await node(pageId);
  if (page.type !== "PAGE") throw new CommandError("invalid_input", `Node ${pageId} is a ${page.type}, not a page: get_document_info lists the pages`);
  return page;
}

/** Where the diagram goes when no position is given: right of what the page holds. */
function freeSpot(page: PageNode): DiagramPoint {
  let right = 0;
  for (const child of page.children) if ("x" in child) right = Math.max(right, child.x + child.width);
  return { x: page.children.length ? Math.round(right + 200) : 0, y: 0 };
}

const isPoint = (end: string | DiagramPoint): end is DiagramPoint => typeof end !== "string";

async function inFigJam(layout: DiagramLayout, page: PageNode, at: DiagramPoint, name: string) {
  const section = figma.createSection();
  section.name = name;
  page.appendChild(section);
  section.x = at.x;
  section.y = at.y;
  section.resizeWithoutConstraints(layout.width + 2 * PAD, layout.height + 2 * PAD);
  const groups = new Map<string, SectionNode>();
  for (const g of layout.groups) {
    const s = figma.createSection();
    s.name = g.label || g.id;
    section.appendChild(s);
    s.x = g.x + PAD;
    s.y = g.y + PAD;
    s.resizeWithoutConstraints(Math.max(g.width, 1), Math.max(g.height, 1));
    groups.set(g.id, s);
  }
  const made = new Map<string, SceneNode>();
  for (const n of layout.nodes) {
    const group = n.groupId ? groups.get(n.groupId) : undefined;
    // Inside a group section, places are relative to it.
    const [ox, oy] = group ? [group.x, group.y] : [0, 0];
    const shape = await createShape({ shapeType: SHAPES[n.shape] ?? "ROUNDED_RECTANGLE", text: n.label, name: n.label.split("\n")[0] || n.id, width: Math.max(n.width, 1), height: Math.max(n.height, 1), parentId: (group ?? section).id, x: n.x + PAD - ox, y: n.y + PAD - oy });
    made.set(n.id, shape);
  }
  const connectors: ConnectorNode[] = [];
  for (const e of layout.edges) {
    const c = isPoint(e.from) || isPoint(e.to) ? await lineBetween(e, at) : await connect({ startNodeId: made.get(e.from)!.id, endNodeId: made.get(e.to as string)!.id, text: e.label, lineType: "ELBOWED", endCap: e.arrowEnd ? "ARROW_LINES" : "NONE", startCap: e.arrowStart ? "ARROW_LINES" : "NONE" });
    if (e.dashed) c.dashPattern = [4, 4];
    if (c.parent !== page) page.appendChild(c);
    connectors.push(c);
  }
  return { container: section, made, connectors };
}

/** A connector between two points of the diagram (sequence lifelines and messages). */
async function lineBetween(e: DiagramEdge, at: DiagramPoint): Promise<ConnectorNode> {
  const c = figma.createConnector();
  const point = (p: DiagramPoint) => ({ position: { x: at.x + PAD + p.x, y: at.y + PAD + p.y } });
  c.connectorStart = point(e.from as DiagramPoint);
  c.connectorEnd = point(e.to as DiagramPoint);
  c.connectorLineType = "STRAIGHT";
  c.connectorStartStrokeCap = e.arrowStart ? "ARROW_LINES" : "NONE";
  c.connectorEndStrokeCap = e.arrowEnd ? "ARROW_LINES" : "NONE";
  if (e.label) await writeText(c, e.label);
  return c;
}

async function inDesignFile(layout: DiagramLayout, page: PageNode, at: DiagramPoint, name: string) {
  await figma.loadFontAsync({ family: "Inter", style: "Regular" });
  const frame = figma.createFrame();
  frame.name = name;
  page.appendChild(frame);
  frame.x = at.x;
  frame.y = at.y;
  frame.resize(layout.width + 2 * PAD, layout.height + 2 * PAD);
  frame.fills = [solid({ r: 1, g: 1, b: 1 })];
  const box = (n: DiagramNode | undefined) => n && { cx: n.x + PAD + n.width / 2, cy: n.y + PAD + n.height / 2 };
  const byId = new Map(layout.nodes.map((n) => [n.id, n]));
  // Edges first, so the boxes sit on top of the lines' ends.
  const connectors: VectorNode[] = [];
  for (const e of layout.edges) {
    const from = isPoint(e.from) ? { cx: e.from.x + PAD, cy: e.from.y + PAD } : box(byId.get(e.from));
    const to = isPoint(e.to) ? { cx: e.to.x + PAD, cy: e.to.y + PAD } : box(byId.get(e.to));
    if (!from || !to) continue;
    const v = figma.createVector();
    frame.appendChild(v);
    v.name = e.label ? `${e.label}` : "Edge";
    await v.setVectorNetworkAsync({
      vertices: [
        { x: from.cx, y: from.cy, strokeCap: e.arrowStart ? "ARROW_LINES" : "NONE" },
        { x: to.cx, y: to.cy, strokeCap: e.arrowEnd ? "ARROW_LINES" : "NONE" },
      ],
      segments: [{ start: 0, end: 1 }],
    });
    v.strokes = [solid(INK)];
    v.strokeWeight = 1.5;
    if (e.dashed) v.dashPattern = [4, 4];
    connectors.push(v);
  }
  const made = new Map<string, SceneNode>();
  for (const n of layout.nodes) {
    const f = figma.createFrame();
    f.name = n.label.split("\n")[0] || n.id;
    frame.appendChild(f);
    // Auto-layout: the label centred; the box keeps the engine's size.
    f.layoutMode = "VERTICAL";
    f.primaryAxisAlignItems = "CENTER";
    f.counterAxisAlignItems = "CENTER";
    f.paddingTop = f.paddingBottom = 8;
    f.paddingLeft = f.paddingRight = 12;
    f.resize(Math.max(n.width, 1), Math.max(n.height, 1));
    f.x = n.x + PAD;
    f.y = n.y + PAD;
    f.fills = [solid({ r: 0.93, g: 0.94, b: 1 })];
    f.strokes = [solid(INK)];
    f.cornerRadius = n.shape === "roundedRect" || n.shape === "stadium" ? Math.min(n.height / 2, 16) : 0;
    if (n.label) {
      const t = figma.createText();
      t.fontName = { family: "Inter", style: "Regular" };
      t.characters = n.label;
      t.fontSize = 14;
      t.textAlignHorizontal = "CENTER";
      f.appendChild(t);
    }
    made.set(n.id, f);
  }
  return { container: frame, made, connectors };
}

export const diagramCommands: Record<string, Handler> = {
  async create_diagram({ layout, pageId, x, y, name }) {
    const diagram = layout as DiagramLayout;
    const page = await targetPage(pageId);
    const at = typeof x === "number" && typeof y === "number" ? { x, y } : freeSpot(page);
    const title = (name as string | undefined) ?? `Diagram (${diagram.diagramType})`;
    if (!diagram.nodes.length) {
      if (!diagram.svg) throw new CommandError("invalid_input", `The ${diagram.diagramType} diagram has nothing to draw`);
      const picture = figma.createNodeFromSvg(diagram.svg);
      picture.name = title;
      page.appendChild(picture);
      picture.x = at.x;
      picture.y = at.y;
      return {
        diagramType: diagram.diagramType,
        imported: "svg",
        note: `${diagram.diagramType} diagrams are not taken apart into shapes: the diagram was imported as a picture (SVG), its parts editable as vectors and text`,
        container: brief(picture),
      };
    }
    const built = figma.editorType === "figjam" ? await inFigJam(diagram, page, at, title) : await inDesignFile(diagram, page, at, title);
    return {
      diagramType: diagram.diagramType,
      editorType: figma.editorType,
      container: brief(built.container),
      nodes: diagram.nodes.map((n) => ({ mermaidId: n.id, ...brief(built.made.get(n.id)!) })),
      connectors: built.connectors.map((c, i) => {
        const e = diagram.edges[i]!;
        return { id: c.id, type: c.type, ...(typeof e.from === "string" ? { from: e.from } : {}), ...(typeof e.to === "string" ? { to: e.to } : {}), ...(e.label ? { label: e.label } : {}) };
      }),
      groups: diagram.groups.map((g) => g.id),
    };
  },
};
