/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// FigJam boards: the outline (stickies, shapes with text, connectors and what they connect,
// sections, text) and the board's own objects to create. Stickies, shapes with text and
// connectors exist only in FigJam (Figma's API refuses them in design files, and so do we, with a
// sentence); sections exist in both.
import { STICKY_COLORS, type StickyColor } from "../../functions/src/contracts/figma-plugin.js";
import { round } from "./describe.js";
import { CommandError, fileName, node, page, parentFor, sceneNode, solid, type Args, type Handler, type RGBA } from "./kit.js";
import { hex } from "./variables.js";

declare const figma: PluginAPI;

/** Refuses a FigJam-only command in a design file. */
export function requireFigJam(what: string): void {
  if (figma.editorType !== "figjam") {
    throw new CommandError("unsupported", `${what} exist only in FigJam boards: "${fileName()}" is a Figma ${figma.editorType === "dev" ? "file in Dev Mode" : "design file"} (use create_frame, create_rectangle and create_text there, or open a FigJam board)`);
  }
}

type Sublayered = StickyNode | ShapeWithTextNode | ConnectorNode;

/** Writes a sticky's, shape's or connector's text (its font must be loaded first, as in Figma). */
export async function writeText(n: Sublayered, characters: string): Promise<void> {
  const font = n.text.fontName;
  if (font !== figma.mixed) {
    try {
      await figma.loadFontAsync(font);
    } catch {
      throw new CommandError("unsupported", `The font ${font.family} ${font.style} of ${n.type.toLowerCase()} ${n.id} is not available on this computer`);
    }
  }
  n.text.characters = characters;
}

const fillHex = (fills: readonly Paint[] | PluginAPI["mixed"]): string | undefined => {
  if (typeof fills === "symbol") return undefined;
  const p = fills.find((f) => f.type === "SOLID") as SolidPaint | undefined;
  return p ? hex(p.color, p.opacity ?? 1) : undefined;
};

type End = { nodeId: string; name: string; type: string; magnet?: string } | { x: number; y: number };

async function endpoint(e: ConnectorEndpoint): Promise<End> {
  if ("endpointNodeId" in e) {
    const target = await figma.getNodeByIdAsync(e.endpointNodeId);
    return { nodeId: e.endpointNodeId, name: target?.name ?? "", type: target?.type ?? "MISSING", ...("magnet" in e ? { magnet: e.magnet } : {}) };
  }
  return { x: round(e.position.x), y: round(e.position.y) };
}

/** One board item as the agent reads it. */
export async function boardItem(n: SceneNode): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { id: n.id, type: n.type, name: n.name };
  if ("x" in n) Object.assign(out, { x: round(n.x), y: round(n.y), width: round(n.width), height: round(n.height) });
  if (n.parent && n.parent.type === "SECTION") out.sectionId = n.parent.id;
  switch (n.type) {
    case "STICKY":
      Object.assign(out, { text: n.text.characters, color: fillHex(n.fills), ...(n.authorVisible && n.authorName ? { author: n.authorName } : {}), ...(n.isWideWidth ? { wide: true } : {}) });
      break;
    case "SHAPE_WITH_TEXT":
      Object.assign(out, { shapeType: n.shapeType, text: n.text.characters, color: fillHex(n.fills) });
      break;
    case "CONNECTOR":
      Object.assign(out, {
        from: await endpoint(n.connectorStart),
        to: await endpoint(n.connectorEnd),
        lineType: n.connectorLineType,
        startCap: n.connectorStartStrokeCap,
        endCap: n.connectorEndStrokeCap,
        ...(n.text.characters ? { text: n.text.characters } : {}),
      });
      break;
    case "SECTION":
      Object.assign(out, { childCount: n.children.length, color: fillHex(n.fills) });
      break;
    case "TEXT":
      out.text = n.characters;
      break;
  }
  return out;
}

/** The board's items in document order (a section, then what it holds), optionally of some types or one section. */
function items(root: BaseNode & ChildrenMixin, types: Set<string> | undefined): SceneNode[] {
  const out: SceneNode[] = [];
  const visit = (parent: ChildrenMixin) => {
    for (const child of parent.children) {
      if (!types || types.has(child.type)) out.push(child);
      if (child.type === "SECTION") visit(child);
    }
  };
  visit(root);
  return out;
}

async function placeIn(n: SceneNode, parentId: string | undefined, x: number | undefined, y: number | undefined): Promise<void> {
  const parent = await parentFor(parentId);
  parent.appendChild(n);
  if (typeof x === "number") n.x = x;
  if (typeof y === "number") n.y = y;
}

/** A layer's place on its page (rotation aside): its x, y plus its containers'. */
function onPage(n: SceneNode): [number, number] {
  let [x, y] = [n.x, n.y];
  for (let p = n.parent; p && p.type !== "PAGE" && p.type !== "DOCUMENT"; p = p.parent) {
    if ("x" in p) [x, y] = [x + p.x, y + p.y];
  }
  return [x, y];
}

const stickyFill = (color: StickyColor | RGBA | undefined): SolidPaint | undefined =>
  color === undefined ? undefined : typeof color === "string" ? solid({ ...STICKY_COLORS[color], a: 1 }) : solid(color);

/** A shape with text, created in the current page or a section (the diagram builder uses it too). */
export async function createShape(args: Args): Promise<ShapeWithTextNode> {
  requireFigJam("Shapes with text");
  const shape = figma.createShapeWithText();
  shape.shapeType = args.shapeType ?? "ROUNDED_RECTANGLE";
  if (typeof args.width === "number" && typeof args.height === "number") shape.resize(args.width, args.height);
  if (args.fillColor) shape.fills = [solid(args.fillColor)];
  if (args.name) shape.name = args.name;
  if (args.text) await writeText(shape, args.text);
  await placeIn(shape, args.parentId, args.x, args.y);
  return shape;
}

/** A connector between two layers (the diagram builder uses it too). */
export async function connect(args: Args): Promise<ConnectorNode> {
  requireFigJam("Connectors");
  const [start, end] = [await sceneNode(args.startNodeId), await sceneNode(args.endNodeId)];
  for (const n of [start, end]) {
    if (n.type === "CONNECTOR") throw new CommandError("invalid_input", `Node ${n.id} is a connector: connectors join stickies, shapes, text, sections and other layers`);
  }
  const c = figma.createConnector();
  c.connectorStart = { endpointNodeId: start.id, magnet: "AUTO" };
  c.connectorEnd = { endpointNodeId: end.id, magnet: "AUTO" };
  c.connectorLineType = args.lineType ?? "ELBOWED";
  c.connectorStartStrokeCap = args.startCap ?? "NONE";
  c.connectorEndStrokeCap = args.endCap ?? "ARROW_LINES";
  if (args.strokeColor) c.strokes = [solid(args.strokeColor)];
  if (args.text) await writeText(c, args.text);
  return c;
}

export const figjamCommands: Record<string, Handler> = {
  async get_board({ nodeId, types, limit = 200, cursor }) {
    const root = nodeId ? await node(nodeId) : figma.currentPage;
    if (!("children" in root)) throw new CommandError("invalid_input", `Node ${nodeId} (${root.type}) holds no board items: pass a page or a section`);
    const all = items(root as BaseNode & ChildrenMixin, types ? new Set(types as string[]) : undefined);
    const counts: Record<string, number> = {};
    for (const n of all) counts[n.type] = (counts[n.type] ?? 0) + 1;
    const { items: shown, ...paging } = page(all, limit, cursor);
    return {
      editorType: figma.editorType,
      page: { id: figma.currentPage.id, name: figma.currentPage.name },
      root: { id: root.id, type: root.type, name: root.name },
      counts,
      items: await Promise.all(shown.map(boardItem)),
      ...paging,
    };
  },

  async create_sticky(args) {
    requireFigJam("Stickies");
    const sticky = figma.createSticky();
    const fill = stickyFill(args.color);
    if (fill) sticky.fills = [fill];
    if (typeof args.wide === "boolean") sticky.isWideWidth = args.wide;
    if (typeof args.showAuthor === "boolean") sticky.authorVisible = args.showAuthor;
    await writeText(sticky, args.text);
    await placeIn(sticky, args.parentId, args.x, args.y);
    return { created: await boardItem(sticky) };
  },

  async create_shape_with_text(args) {
    return { created: await boardItem(await createShape(args)) };
  },

  async create_connector(args) {
    return { created: await boardItem(await connect(args)) };
  },

  async create_section(args) {
    const section = figma.createSection();
    section.name = args.name ?? "Section";
    await placeIn(section, undefined, args.x, args.y);
    section.resizeWithoutConstraints(args.width, args.height);
    if (args.fillColor) section.fills = [solid(args.fillColor)];
    const moved: string[] = [];
    for (const id of (args.childIds ?? []) as string[]) {
      const child = await sceneNode(id);
      // Keep the layer where it is on the board: its place becomes relative to the section.
      const [absX, absY] = onPage(child);
      section.appendChild(child);
      child.x = absX - section.x;
      child.y = absY - section.y;
      moved.push(id);
    }
    return { created: await boardItem(section), moved };
  },
};
