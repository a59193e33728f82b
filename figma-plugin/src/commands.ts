/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// Every command the figma function relays, implemented with the Figma Plugin API. A command's name
// is the MCP tool's name; its args are the tool's arguments (validated by the function already,
// checked again here where Figma would otherwise fail obscurely). Errors carry a code the function
// maps to an MCP error and a sentence for the agent.
import type { PluginAnswer } from "../../functions/src/contracts/figma-plugin.js";
import { brief, detail, tree, type Described } from "./describe.js";
import {
  autoLayoutFrame,
  CommandError,
  loadFontsOf,
  need,
  node,
  page,
  parentFor,
  place,
  requireAutoLayout,
  sceneNode,
  solid,
  textNode,
  WEIGHT_STYLES,
  type Args,
  type Handler,
} from "./kit.js";
import { annotationCommands } from "./annotations.js";
import { componentCommands } from "./components.js";
import { designCommands } from "./design-context.js";
import { figjamCommands } from "./figjam.js";
import { diagramCommands } from "./diagram.js";
import { editCommands } from "./edits.js";
import { metadataCommands } from "./outline.js";
import { styleCommands } from "./bindings.js";
import { variableCommands } from "./variables.js";

export { CommandError } from "./kit.js";

// Only the API's types are referenced above (not its globals, which would clash with Node's in the
// test program); Figma defines `figma`, a model of it does in tests.
declare const figma: PluginAPI;

const basicCommands: Record<string, Handler> = {
  async get_document_info({ depth = 3, maxNodes = 300 }) {
    const pages = figma.root.children.map((p) => ({ id: p.id, name: p.name }));
    const { node: currentPage, nodeCount, truncated } = await tree(figma.currentPage, depth, maxNodes);
    return { name: figma.root.name, fileKey: figma.fileKey ?? null, pages, currentPage, nodeCount, truncated };
  },

  async get_selection() {
    const selection = figma.currentPage.selection.map(brief);
    return { page: { id: figma.currentPage.id, name: figma.currentPage.name }, count: selection.length, selection };
  },

  async get_node_info({ nodeId, depth = 1, maxNodes = 300 }) {
    const { node: described, nodeCount, truncated } = await tree(await node(nodeId), depth, maxNodes);
    return { node: described, nodeCount, truncated };
  },

  async get_nodes_info({ nodeIds }) {
    const nodes: Described[] = [];
    const notFound: string[] = [];
    for (const id of nodeIds as string[]) {
      const n = await figma.getNodeByIdAsync(id);
      if (n) nodes.push(await detail(n));
      else notFound.push(id);
    }
    return { nodes, notFound };
  },

  async get_styles() {
    const [paintStyles, textStyles, effectStyles, gridStyles] = await Promise.all([
      figma.getLocalPaintStylesAsync(),
      figma.getLocalTextStylesAsync(),
      figma.getLocalEffectStylesAsync(),
      figma.getLocalGridStylesAsync(),
    ]);
    const base = (s: BaseStyle) => ({ id: s.id, key: s.key, name: s.name, ...(s.description ? { description: s.description } : {}) });
    return {
      colors: paintStyles.map((s) => ({ ...base(s), paints: s.paints.map((p) => (p.type === "SOLID" ? { type: "SOLID", color: { ...p.color, a: p.opacity ?? 1 } } : { type: p.type })) })),
      texts: textStyles.map((s) => ({ ...base(s), fontName: s.fontName, fontSize: s.fontSize, lineHeight: s.lineHeight, letterSpacing: s.letterSpacing })),
      effects: effectStyles.map((s) => ({ ...base(s), effects: s.effects.map((e) => ({ type: e.type })) })),
      grids: gridStyles.map((s) => ({ ...base(s), layoutGrids: s.layoutGrids.map((g) => ({ pattern: g.pattern })) })),
    };
  },

  async get_local_components({ limit = 100, cursor }) {
    await figma.loadAllPagesAsync();
    const all = figma.root.findAllWithCriteria({ types: ["COMPONENT"] });
    const { items, ...paging } = page(all, limit, cursor);
    return {
      components: items.map((c) => {
        let pageOf: BaseNode | null = c.parent;
        while (pageOf && pageOf.type !== "PAGE") pageOf = pageOf.parent;
        return { id: c.id, key: c.key, name: c.name, ...(c.description ? { description: c.description } : {}), page: pageOf?.name ?? null, width: c.width, height: c.height };
      }),
      ...paging,
    };
  },

  async scan_text_nodes({ nodeId, limit = 100, cursor }) {
    const root = await node(nodeId);
    const texts: TextNode[] = root.type === "TEXT" ? [root] : "findAllWithCriteria" in root ? (root as ChildrenMixin).findAllWithCriteria({ types: ["TEXT"] }) : [];
    const { items, ...paging } = page(texts, limit, cursor);
    return {
      nodeId,
      textNodes: items.map((t) => ({ ...brief(t), characters: t.characters, fontSize: t.fontSize === figma.mixed ? "mixed" : t.fontSize, fontName: t.fontName === figma.mixed ? "mixed" : t.fontName })),
      ...paging,
    };
  },

  async scan_nodes_by_types({ nodeId, types, limit = 100, cursor }) {
    const root = await node(nodeId);
    const wanted = new Set(types as string[]);
    const found = "findAll" in root ? (root as ChildrenMixin).findAll((n) => wanted.has(n.type)) : [];
    const { items, ...paging } = page(found, limit, cursor);
    return { nodeId, types, nodes: items.map(brief), ...paging };
  },

  async export_node_as_image({ nodeId, format = "PNG", scale = 1 }) {
    const n = await sceneNode(nodeId);
    if (format === "SVG") {
      const svg = await n.exportAsync({ format: "SVG_STRING" });
      return { nodeId, name: n.name, format, mimeType: "image/svg+xml", svg };
    }
    const bytes = await n.exportAsync({ format: format === "JPG" ? "JPG" : "PNG", constraint: { type: "SCALE", value: scale } });
    return { kind: "image", nodeId, name: n.name, format, scale, mimeType: format === "JPG" ? "image/jpeg" : "image/png", base64: figma.base64Encode(bytes) };
  },

  async create_frame(args) {
    const parent = await parentFor(args.parentId);
    const frame = figma.createFrame();
    frame.name = args.name ?? "Frame";
    frame.resize(args.width, args.height);
    place(frame, args);
    frame.fills = args.fillColor ? [solid(args.fillColor)] : [];
    if (args.strokeColor) frame.strokes = [solid(args.strokeColor)];
    if (typeof args.strokeWeight === "number") frame.strokeWeight = args.strokeWeight;
    if (args.layoutMode && args.layoutMode !== "NONE") {
      frame.layoutMode = args.layoutMode;
      if (typeof args.itemSpacing === "number") frame.itemSpacing = args.itemSpacing;
      if (typeof args.padding === "number") frame.paddingTop = frame.paddingRight = frame.paddingBottom = frame.paddingLeft = args.padding;
    }
    parent.appendChild(frame);
    return { created: await detail(frame) };
  },

  async create_rectangle(args) {
    const parent = await parentFor(args.parentId);
    const rect = figma.createRectangle();
    rect.name = args.name ?? "Rectangle";
    rect.resize(args.width, args.height);
    place(rect, args);
    if (args.fillColor) rect.fills = [solid(args.fillColor)];
    if (typeof args.cornerRadius === "number") rect.cornerRadius = args.cornerRadius;
    parent.appendChild(rect);
    return { created: await detail(rect) };
  },

  async create_text(args) {
    const parent = await parentFor(args.parentId);
    const fontName = { family: "Inter", style: WEIGHT_STYLES[Math.round((args.fontWeight ?? 400) / 100) * 100] ?? "Regular" };
    try {
      await figma.loadFontAsync(fontName);
    } catch {
      throw new CommandError("unsupported", `The font ${fontName.family} ${fontName.style} is not available in Figma here: use another fontWeight`);
    }
    const text = figma.createText();
    text.fontName = fontName;
    text.characters = args.text;
    text.fontSize = args.fontSize ?? 14;
    if (args.fontColor) text.fills = [solid(args.fontColor)];
    text.name = args.name ?? args.text.slice(0, 60);
    place(text, args);
    parent.appendChild(text);
    return { created: await detail(text) };
  },

  async set_text_content({ nodeId, text }) {
    const t = await textNode(nodeId);
    await loadFontsOf(t);
    t.characters = text;
    return { updated: await detail(t) };
  },

  async set_multiple_text_contents({ nodeId, text }) {
    await node(nodeId);
    const results: { nodeId: string; ok: boolean; error?: string }[] = [];
    for (const item of text as { nodeId: string; text: string }[]) {
      try {
        const t = await textNode(item.nodeId);
        await loadFontsOf(t);
        t.characters = item.text;
        results.push({ nodeId: item.nodeId, ok: true });
      } catch (err) {
        results.push({ nodeId: item.nodeId, ok: false, error: err instanceof Error ? err.message : String(err) });
      }
    }
    const succeeded = results.filter((r) => r.ok).length;
    return { succeeded, failed: results.length - succeeded, results };
  },

  async set_fill_color({ nodeId, r, g, b, a = 1 }) {
    const n = await sceneNode(nodeId);
    need(n, "fills", "fills");
    (n as GeometryMixin & SceneNode).fills = [solid({ r, g, b, a })];
    return { updated: await detail(n) };
  },

  async set_stroke_color({ nodeId, r, g, b, a = 1, weight = 1 }) {
    const n = await sceneNode(nodeId);
    need(n, "strokes", "strokes");
    const s = n as GeometryMixin & MinimalStrokesMixin & SceneNode;
    s.strokes = [solid({ r, g, b, a })];
    s.strokeWeight = weight;
    return { updated: await detail(n) };
  },

  async set_corner_radius({ nodeId, radius, corners }) {
    const n = await sceneNode(nodeId);
    need(n, "cornerRadius", "corner radius");
    const c = corners as boolean[] | undefined;
    if (c && "topLeftRadius" in n) {
      const r = n as RectangleCornerMixin & SceneNode;
      if (c[0]) r.topLeftRadius = radius;
      if (c[1]) r.topRightRadius = radius;
      if (c[2]) r.bottomRightRadius = radius;
      if (c[3]) r.bottomLeftRadius = radius;
    } else {
      (n as CornerMixin & SceneNode).cornerRadius = radius;
    }
    return { updated: await detail(n) };
  },

  async set_layout_mode({ nodeId, layoutMode, layoutWrap }) {
    const frame = autoLayoutFrame(await node(nodeId)) as FrameNode;
    frame.layoutMode = layoutMode;
    if (layoutWrap && layoutMode === "HORIZONTAL") frame.layoutWrap = layoutWrap;
    return { updated: await detail(frame) };
  },

  async set_padding({ nodeId, paddingTop, paddingRight, paddingBottom, paddingLeft }) {
    const frame = requireAutoLayout(await node(nodeId));
    if (paddingTop !== undefined) frame.paddingTop = paddingTop;
    if (paddingRight !== undefined) frame.paddingRight = paddingRight;
    if (paddingBottom !== undefined) frame.paddingBottom = paddingBottom;
    if (paddingLeft !== undefined) frame.paddingLeft = paddingLeft;
    return { updated: await detail(frame) };
  },

  async set_axis_align({ nodeId, primaryAxisAlignItems, counterAxisAlignItems }) {
    const frame = requireAutoLayout(await node(nodeId));
    if (primaryAxisAlignItems) frame.primaryAxisAlignItems = primaryAxisAlignItems;
    if (counterAxisAlignItems) {
      if (counterAxisAlignItems === "BASELINE" && frame.layoutMode !== "HORIZONTAL") throw new CommandError("invalid_input", "counterAxisAlignItems BASELINE needs a HORIZONTAL auto-layout");
      frame.counterAxisAlignItems = counterAxisAlignItems;
    }
    return { updated: await detail(frame) };
  },

  async set_item_spacing({ nodeId, itemSpacing, counterAxisSpacing }) {
    const frame = requireAutoLayout(await node(nodeId));
    if (itemSpacing !== undefined) frame.itemSpacing = itemSpacing;
    if (counterAxisSpacing !== undefined) {
      if (frame.layoutWrap !== "WRAP") throw new CommandError("invalid_input", "counterAxisSpacing needs layoutWrap WRAP: call set_layout_mode with layoutWrap WRAP first");
      frame.counterAxisSpacing = counterAxisSpacing;
    }
    return { updated: await detail(frame) };
  },

  async move_node({ nodeId, x, y }) {
    const n = await sceneNode(nodeId);
    place(n, { x, y });
    return { updated: brief(n) };
  },

  async resize_node({ nodeId, width, height }) {
    const n = await sceneNode(nodeId);
    if (!("resize" in n)) throw new CommandError("invalid_input", `Node ${nodeId} (${n.type}) cannot be resized`);
    (n as LayoutMixin & SceneNode).resize(width, height);
    return { updated: brief(n) };
  },

  async clone_node({ nodeId, x, y }) {
    const n = await sceneNode(nodeId);
    const copy = n.clone();
    place(copy, { x, y });
    return { created: await detail(copy) };
  },

  async delete_node({ nodeId }) {
    const n = await sceneNode(nodeId);
    const gone = brief(n);
    n.remove();
    return { deleted: gone };
  },

  async delete_multiple_nodes({ nodeIds }) {
    const deleted: string[] = [];
    const notFound: string[] = [];
    for (const id of nodeIds as string[]) {
      const n = await figma.getNodeByIdAsync(id);
      if (n && n.type !== "DOCUMENT" && n.type !== "PAGE" && !n.removed) {
        (n as SceneNode).remove();
        deleted.push(id);
      } else notFound.push(id);
    }
    return { deleted, notFound };
  },

  async create_component_instance({ componentId, componentKey, x, y, parentId }) {
    if (!componentId === !componentKey) throw new CommandError("invalid_input", "Pass exactly one of componentId (a component in this file) or componentKey (a library component)");
    let component: ComponentNode;
    if (componentId) {
      const n = await node(componentId);
      if (n.type !== "COMPONENT") throw new CommandError("invalid_input", `Node ${componentId} is a ${n.type}, not a component: get_local_components lists them`);
      component = n;
    } else {
      try {
        component = await figma.importComponentByKeyAsync(componentKey);
      } catch {
        throw new CommandError("not_found", `No published component with key ${componentKey} is available to this file: check the key and that its library is enabled`);
      }
    }
    const parent = await parentFor(parentId);
    const instance = component.createInstance();
    place(instance, { x, y });
    parent.appendChild(instance);
    return { created: await detail(instance) };
  },
};

export const commands: Record<string, Handler> = {
  ...basicCommands,
  ...designCommands,
  ...metadataCommands,
  ...variableCommands,
  ...componentCommands,
  ...styleCommands,
  ...annotationCommands,
  ...figjamCommands,
  ...diagramCommands,
  ...editCommands,
};

/** Runs one relayed command; never throws (a failure is an answer too). */
export async function runCommand(tool: string, args: unknown): Promise<PluginAnswer> {
  const handler = Object.prototype.hasOwnProperty.call(commands, tool) ? commands[tool] : undefined;
  if (!handler) return { ok: false, error: { code: "unsupported", message: `This version of the MCP Bridge plugin does not know the command ${tool}: update the plugin` } };
  try {
    const result = await handler((args ?? {}) as Args);
    // Each edit is one step in the file's undo history (Figma otherwise merges a plugin's edits);
    // reads are the get_/scan_/export_ commands.
    if (!/^(get|scan|export)_/.test(tool)) figma.commitUndo();
    return { ok: true, result };
  } catch (err) {
    if (err instanceof CommandError) return { ok: false, error: { code: err.code, message: err.message } };
    const message = err instanceof Error ? err.message : String(err);
    return { ok: false, error: { code: "invalid_input", message: `Figma refused ${tool}: ${message}` } };
  }
}
