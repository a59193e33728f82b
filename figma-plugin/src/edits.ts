/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// The edits designers make beyond shapes and text: pages, hug/fill sizing, effects, image fills,
// groups and boolean operations, components from layers, variables in collections with modes, paint
// and text styles, prototype reactions. Each is one command (one undo step, commands.ts); what
// Figma would refuse obscurely is refused first with a sentence.
import { detail } from "./describe.js";
import { CommandError, need, node, sceneNode, solid, WEIGHT_STYLES, type Handler, type RGBA } from "./kit.js";

declare const figma: PluginAPI;

/** Several layers that share one parent (Figma groups and combines only siblings' worth of layers). */
async function layers(ids: string[]): Promise<{ nodes: SceneNode[]; parent: BaseNode & ChildrenMixin }> {
  const nodes = await Promise.all(ids.map(sceneNode));
  const parent = nodes[0]!.parent;
  if (!parent || !("appendChild" in parent)) throw new CommandError("invalid_input", `Node ${ids[0]} has no parent to group in`);
  return { nodes, parent: parent as BaseNode & ChildrenMixin };
}

type EffectArg = { type: Effect["type"]; color?: RGBA; x?: number; y?: number; radius: number; spread?: number; visible?: boolean };

function effect(e: EffectArg): Effect {
  if (e.type === "DROP_SHADOW" || e.type === "INNER_SHADOW") {
    const c = e.color ?? { r: 0, g: 0, b: 0, a: 0.25 };
    return { type: e.type, color: { r: c.r, g: c.g, b: c.b, a: c.a ?? 1 }, offset: { x: e.x ?? 0, y: e.y ?? 4 }, radius: e.radius, spread: e.spread ?? 0, visible: e.visible ?? true, blendMode: "NORMAL" };
  }
  return { type: e.type, radius: e.radius, visible: e.visible ?? true } as Effect;
}

async function collectionOf(ref: string): Promise<VariableCollection> {
  const all = await figma.variables.getLocalVariableCollectionsAsync();
  const found = all.find((c) => c.id === ref) ?? all.find((c) => c.name === ref);
  if (!found) throw new CommandError("not_found", `No variable collection ${JSON.stringify(ref)} in this file: get_variable_defs lists them (or create one with create_variable_collection)`);
  return found;
}

export const editCommands: Record<string, Handler> = {
  async create_page({ name, switchTo }) {
    const page = figma.createPage();
    page.name = name;
    if (switchTo) await figma.setCurrentPageAsync(page);
    return { created: { id: page.id, name: page.name, type: "PAGE" }, currentPage: figma.currentPage.id };
  },

  async set_sizing({ nodeId, horizontal, vertical }) {
    const n = await sceneNode(nodeId);
    need(n, "layoutSizingHorizontal", "auto-layout sizing");
    const s = n as SceneNode & { layoutSizingHorizontal: "FIXED" | "HUG" | "FILL"; layoutSizingVertical: "FIXED" | "HUG" | "FILL"; layoutMode?: string };
    const inAutoLayout = !!n.parent && "layoutMode" in n.parent && (n.parent as FrameNode).layoutMode !== "NONE";
    const hugs = n.type === "TEXT" || (s.layoutMode !== undefined && s.layoutMode !== "NONE");
    for (const [axis, value] of [["horizontal", horizontal], ["vertical", vertical]] as const) {
      if (value === "FILL" && !inAutoLayout) throw new CommandError("invalid_input", `FILL (${axis}) needs the layer to sit in an auto-layout frame: node ${nodeId}'s parent has no auto-layout`);
      if (value === "HUG" && !hugs) throw new CommandError("invalid_input", `HUG (${axis}) applies to auto-layout frames and text: call set_layout_mode on node ${nodeId} first`);
    }
    if (horizontal) s.layoutSizingHorizontal = horizontal;
    if (vertical) s.layoutSizingVertical = vertical;
    return { updated: { ...(await detail(n)), layoutSizingHorizontal: s.layoutSizingHorizontal, layoutSizingVertical: s.layoutSizingVertical } };
  },

  async set_effects({ nodeId, effects }) {
    const n = await sceneNode(nodeId);
    need(n, "effects", "effects");
    (n as BlendMixin & SceneNode).effects = (effects as EffectArg[]).map(effect);
    return { updated: { id: n.id, name: n.name, effects: (n as BlendMixin & SceneNode).effects.map((e) => ({ type: e.type, ...("radius" in e ? { radius: e.radius } : {}) })) } };
  },

  async set_image_fill({ nodeId, imageBase64, scaleMode = "FILL" }) {
    const n = await sceneNode(nodeId);
    need(n, "fills", "fills");
    let image: Image;
    try {
      image = figma.createImage(figma.base64Decode(imageBase64));
    } catch {
      throw new CommandError("invalid_input", "imageBase64 is not a PNG, JPG or GIF image Figma can read (at most 4096 px a side)");
    }
    (n as GeometryMixin & SceneNode).fills = [{ type: "IMAGE", imageHash: image.hash, scaleMode }];
    return { updated: { id: n.id, name: n.name, imageHash: image.hash, scaleMode } };
  },

  async group_nodes({ nodeIds, name }) {
    const { nodes, parent } = await layers(nodeIds);
    const group = figma.group(nodes, parent);
    if (name) group.name = name;
    return { created: await detail(group), children: nodes.map((c) => c.id) };
  },

  async ungroup_node({ nodeId }) {
    const n = await sceneNode(nodeId);
    if (n.type !== "GROUP") throw new CommandError("invalid_input", `Node ${nodeId} is a ${n.type}, not a group`);
    const freed = figma.ungroup(n);
    return { ungrouped: nodeId, children: freed.map((c) => c.id) };
  },

  async boolean_operation({ nodeIds, operation, name }) {
    const { nodes, parent } = await layers(nodeIds);
    const op = { UNION: figma.union, SUBTRACT: figma.subtract, INTERSECT: figma.intersect, EXCLUDE: figma.exclude }[operation as "UNION"];
    const result = op.call(figma, nodes, parent);
    if (name) result.name = name;
    return { created: { ...(await detail(result)), booleanOperation: result.booleanOperation } };
  },

  async create_component_from_node({ nodeId }) {
    const n = await sceneNode(nodeId);
    if (n.type === "COMPONENT" || n.type === "COMPONENT_SET" || n.type === "INSTANCE") throw new CommandError("invalid_input", `Node ${nodeId} is already a ${n.type.toLowerCase().replace("_", " ")}`);
    const component = figma.createComponentFromNode(n);
    return { created: await detail(component) };
  },

  async create_variable_collection({ name, modes }) {
    const existing = await figma.variables.getLocalVariableCollectionsAsync();
    if (existing.some((c) => c.name === name)) throw new CommandError("conflict", `A variable collection named ${JSON.stringify(name)} already exists`);
    const c = figma.variables.createVariableCollection(name);
    const [first, ...rest] = (modes as string[] | undefined) ?? [];
    if (first) c.renameMode(c.modes[0]!.modeId, first);
    for (const m of rest) c.addMode(m);
    return { created: { id: c.id, name: c.name, modes: c.modes.map((m) => ({ modeId: m.modeId, name: m.name })), defaultModeId: c.defaultModeId } };
  },

  async create_variable({ collection, name, type, values }) {
    const c = await collectionOf(collection);
    const byMode = new Map(c.modes.map((m) => [m.name, m.modeId]));
    const given = Object.entries((values ?? {}) as Record<string, unknown>);
    const unknown = given.filter(([mode]) => !byMode.has(mode)).map(([mode]) => mode);
    if (unknown.length) throw new CommandError("invalid_input", `Collection ${JSON.stringify(c.name)} has no mode ${unknown.map((m) => JSON.stringify(m)).join(", ")}: its modes are ${c.modes.map((m) => JSON.stringify(m.name)).join(", ")}`);
    let v: Variable;
    try {
      v = figma.variables.createVariable(name, c, type);
    } catch (err) {
      throw new CommandError("conflict", `Figma refused the variable ${JSON.stringify(name)}: ${err instanceof Error ? err.message : String(err)}`);
    }
    for (const [mode, value] of given) v.setValueForMode(byMode.get(mode)!, type === "COLOR" ? { ...(value as RGBA), a: (value as RGBA).a ?? 1 } : (value as VariableValue));
    return { created: { id: v.id, name: v.name, type: v.resolvedType, collection: c.name, valuesByMode: Object.fromEntries(c.modes.map((m) => [m.name, v.valuesByMode[m.modeId]])) } };
  },

  async create_paint_style({ name, color, description }) {
    const style = figma.createPaintStyle();
    style.name = name;
    style.paints = [solid(color)];
    if (description) style.description = description;
    return { created: { id: style.id, name: style.name, type: "PAINT" } };
  },

  async create_text_style({ name, fontFamily = "Inter", fontWeight = 400, fontSize, lineHeight, letterSpacing, description }) {
    const fontName = { family: fontFamily, style: WEIGHT_STYLES[Math.round(fontWeight / 100) * 100] ?? "Regular" };
    try {
      await figma.loadFontAsync(fontName);
    } catch {
      throw new CommandError("unsupported", `The font ${fontName.family} ${fontName.style} is not available in Figma here: pick another family or weight`);
    }
    const style = figma.createTextStyle();
    style.name = name;
    style.fontName = fontName;
    style.fontSize = fontSize;
    if (typeof lineHeight === "number") style.lineHeight = { unit: "PIXELS", value: lineHeight };
    if (typeof letterSpacing === "number") style.letterSpacing = { unit: "PIXELS", value: letterSpacing };
    if (description) style.description = description;
    return { created: { id: style.id, name: style.name, type: "TEXT", fontName, fontSize } };
  },

  async set_reactions({ nodeId, reactions }) {
    const n = await sceneNode(nodeId);
    if (!("setReactionsAsync" in n)) throw new CommandError("invalid_input", `Node ${nodeId} (${n.type}) cannot have prototype interactions`);
    const list: Reaction[] = [];
    for (const r of reactions as { trigger: "ON_CLICK" | "ON_HOVER" | "ON_PRESS" | "AFTER_TIMEOUT"; timeoutMs?: number; action: "NAVIGATE" | "OVERLAY" | "SWAP" | "BACK" | "CLOSE" | "URL"; destinationId?: string; url?: string; transition?: "INSTANT" | "DISSOLVE" | "SMART_ANIMATE"; durationMs?: number }[]) {
      const trigger: Trigger = r.trigger === "AFTER_TIMEOUT" ? { type: "AFTER_TIMEOUT", timeout: (r.timeoutMs ?? 800) / 1000 } : { type: r.trigger };
      let action: Action;
      if (r.action === "BACK" || r.action === "CLOSE") action = { type: r.action };
      else if (r.action === "URL") action = { type: "URL", url: r.url! };
      else {
        const dest = await node(r.destinationId!);
        if (dest.type !== "FRAME" && dest.type !== "COMPONENT" && dest.type !== "INSTANCE") throw new CommandError("invalid_input", `The destination ${dest.id} is a ${dest.type}: prototypes navigate to frames`);
        const transition: Transition | null = !r.transition || r.transition === "INSTANT" ? null : { type: r.transition, easing: { type: "EASE_OUT" }, duration: (r.durationMs ?? 300) / 1000 };
        const navigation = r.action === "OVERLAY" ? "OVERLAY" : r.action === "SWAP" ? "SWAP" : "NAVIGATE";
        // The typings' `Navigation` alias collides with the DOM's Navigation interface (lib "DOM" is on for the window).
        action = { type: "NODE", destinationId: dest.id, navigation: navigation as unknown as Extract<Action, { type: "NODE" }>["navigation"], transition };
      }
      list.push({ trigger, actions: [action] });
    }
    await (n as ReactionMixin & SceneNode).setReactionsAsync(list);
    return { updated: { id: n.id, name: n.name, reactions: (n as ReactionMixin & SceneNode).reactions } };
  },
};
