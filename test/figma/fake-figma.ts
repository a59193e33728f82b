// A model of the Figma plugin API, enough for the MCP Bridge plugin's commands: a document of
// pages, frames, text, rectangles, vectors, components, component sets (variants) and instances;
// selection; local styles that layers refer to by id; variables in collections with modes, bound
// to layer and paint properties and resolved per layer (explicit modes inherit down the tree);
// component properties (variant, boolean, text, instance swap) that instances override; Dev Mode
// annotations with categories; fonts that must be loaded before text is written (as in Figma);
// exportAsync rendering a real PNG or SVG; FigJam boards (editorType "figjam": stickies, shapes with
// text and connectors with text sublayers whose font must be loaded, connectors that must end on
// an existing layer, sections); commitUndo counted as undo steps. Nodes carry only the properties
// their type has in Figma, so `"x" in node`-style checks behave.
import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";

type Paint = { type: "SOLID"; color: { r: number; g: number; b: number }; opacity?: number; visible?: boolean };
type FontName = { family: string; style: string };

const CONTAINERS = new Set(["DOCUMENT", "PAGE", "FRAME", "GROUP", "COMPONENT", "COMPONENT_SET", "INSTANCE", "SECTION", "BOOLEAN_OPERATION"]);
const SCENE = new Set(["BOOLEAN_OPERATION", "FRAME", "GROUP", "COMPONENT", "COMPONENT_SET", "INSTANCE", "RECTANGLE", "TEXT", "ELLIPSE", "VECTOR", "SECTION", "STICKY", "SHAPE_WITH_TEXT", "CONNECTOR"]);
/** FigJam objects whose text is a sublayer (`node.text`), not the node itself. */
const SUBLAYERED = new Set(["STICKY", "SHAPE_WITH_TEXT", "CONNECTOR"]);
/** Only FigJam lets a plugin create these. */
const FIGJAM_ONLY: Record<string, string> = { createSticky: "STICKY", createShapeWithText: "SHAPE_WITH_TEXT", createConnector: "CONNECTOR" };
const GEOMETRY = new Set(["BOOLEAN_OPERATION", "FRAME", "COMPONENT", "COMPONENT_SET", "INSTANCE", "RECTANGLE", "TEXT", "ELLIPSE", "VECTOR"]);
const CORNERS = new Set(["FRAME", "COMPONENT", "COMPONENT_SET", "INSTANCE", "RECTANGLE"]);
const AUTO_LAYOUT = new Set(["FRAME", "COMPONENT", "COMPONENT_SET", "INSTANCE"]);
/** Layers that sit in a parent's auto-layout (sizing, positioning, constraints). */
const LAYOUT_CHILD = new Set(["BOOLEAN_OPERATION", "FRAME", "GROUP", "COMPONENT", "COMPONENT_SET", "INSTANCE", "RECTANGLE", "TEXT", "ELLIPSE", "VECTOR"]);
const WEIGHTS: Record<string, number> = { Thin: 100, "Extra Light": 200, Light: 300, Regular: 400, Medium: 500, "Semi Bold": 600, Bold: 700, "Extra Bold": 800, Black: 900 };
/** Which variable type a bindable field takes (Figma refuses others). */
const NUMBER_FIELDS = new Set([
  "width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight", "itemSpacing", "counterAxisSpacing", "paddingLeft", "paddingRight", "paddingTop",
  "paddingBottom", "topLeftRadius", "topRightRadius", "bottomLeftRadius", "bottomRightRadius", "strokeWeight", "opacity",
]);
const TEXT_FIELDS: Record<string, string> = { fontFamily: "STRING", fontStyle: "STRING", fontSize: "FLOAT", fontWeight: "FLOAT", letterSpacing: "FLOAT", lineHeight: "FLOAT", paragraphSpacing: "FLOAT", paragraphIndent: "FLOAT" };
type Alias = { type: "VARIABLE_ALIAS"; id: string };
/** The layers Figma lets carry Dev Mode annotations (not groups, sections or pages). */
const ANNOTATED = new Set(["COMPONENT", "COMPONENT_SET", "ELLIPSE", "FRAME", "INSTANCE", "RECTANGLE", "TEXT", "VECTOR"]);
export const AVAILABLE_FONT_FAMILIES = ["Inter"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FakeNode = Record<string, any> & { id: string; type: string; name: string; parent: FakeNode | null };

export interface FakeFigmaOptions {
  fileName: string;
  fileKey?: string;
  user: { id: string; name: string };
  /** "figjam": a FigJam board (one page with a section, stickies, a shape and a connector). */
  editorType?: "figma" | "figjam";
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A real PNG of one colour (what an export of a filled frame looks like, roughly). */
export function solidPng(width: number, height: number, rgb: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", header), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

export function createFakeFigma(opts: FakeFigmaOptions) {
  const mixed = Symbol("figma.mixed");
  const byId = new Map<string, FakeNode>();
  const loadedFonts = new Set<string>();
  let counter = 100;
  const fontKey = (f: FontName) => `${f.family}|${f.style}`;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const collections = new Map<string, any>();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const variables = new Map<string, any>();
  const annotationCategories = [
    { id: "AC:1", label: "Development", color: "BLUE", isPreset: true },
    { id: "AC:2", label: "Interaction", color: "GREEN", isPreset: true },
    { id: "AC:3", label: "Accessibility", color: "ORANGE", isPreset: true },
  ];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const allStyles = (): any[] => [...paintStyles, ...textStyles, ...effectStyles, ...gridStyles];
  function styleById(id: string, type: string) {
    const style = allStyles().find((st) => st.id === id);
    if (!style) throw new Error(`Style ${id} not found`);
    if (style.type !== type) throw new Error(`Style ${id} is a ${style.type} style, not ${type}`);
    return style;
  }

  function walk(node: FakeNode, visit: (n: FakeNode) => void): void {
    for (const child of node.children ?? []) {
      visit(child);
      walk(child, visit);
    }
  }

  function make(type: string, props: Record<string, unknown> = {}, id = `1:${++counter}`): FakeNode {
    const node: FakeNode = { id, type, name: type.charAt(0) + type.slice(1).toLowerCase(), parent: null, removed: false };
    if (CONTAINERS.has(type)) {
      node.children = [];
      node.appendChild = (child: FakeNode) => {
        if (child.parent) child.parent.children.splice(child.parent.children.indexOf(child), 1);
        child.parent = node;
        node.children.push(child);
      };
      node.findAll = (pred: (n: FakeNode) => boolean) => {
        const out: FakeNode[] = [];
        walk(node, (n) => pred(n) && out.push(n));
        return out;
      };
      node.findAllWithCriteria = ({ types }: { types: string[] }) => node.findAll((n: FakeNode) => types.includes(n.type));
    }
    if (SCENE.has(type)) {
      Object.assign(node, { x: 0, y: 0, width: 100, height: 100, visible: true, opacity: 1 });
      node.resize = (w: number, h: number) => {
        if (!(w >= 0.01 && h >= 0.01)) throw new Error("Invalid size");
        node.width = w;
        node.height = h;
      };
      node.remove = () => {
        if (node.parent) node.parent.children.splice(node.parent.children.indexOf(node), 1);
        node.parent = null;
        node.removed = true;
        byId.delete(node.id);
        walk(node, (n) => byId.delete(n.id));
      };
      node.clone = () => {
        const copy = cloneTree(node);
        node.parent?.appendChild(copy);
        return copy;
      };
      node.exportAsync = async (settings: { format: string; constraint?: { type: string; value: number } }) => {
        const fill = (node.fills?.[0] as Paint | undefined)?.color ?? { r: 1, g: 1, b: 1 };
        if (settings.format === "SVG_STRING") {
          const hex = `#${[fill.r, fill.g, fill.b].map((c) => Math.round(c * 255).toString(16).padStart(2, "0")).join("")}`;
          return `<svg xmlns="http://www.w3.org/2000/svg" width="${node.width}" height="${node.height}"><rect width="${node.width}" height="${node.height}" fill="${hex}"/></svg>`;
        }
        const scale = settings.constraint?.type === "SCALE" ? settings.constraint.value : 1;
        const png = solidPng(Math.max(1, Math.round(node.width * scale)), Math.max(1, Math.round(node.height * scale)), [fill.r, fill.g, fill.b].map((c) => Math.round(c * 255)) as [number, number, number]);
        return new Uint8Array(png);
      };
    }
    if (GEOMETRY.has(type)) {
      // Writing paints directly detaches their style, as in Figma.
      let fills: unknown[] = [];
      let strokes: unknown[] = [];
      Object.defineProperty(node, "fills", { enumerable: true, get: () => fills, set: (v: unknown[]) => ((fills = v), (node.fillStyleId = "")) });
      Object.defineProperty(node, "strokes", { enumerable: true, get: () => strokes, set: (v: unknown[]) => ((strokes = v), (node.strokeStyleId = "")) });
      Object.assign(node, { strokeWeight: 1, strokeAlign: "INSIDE", dashPattern: [], effects: [], fillStyleId: "", strokeStyleId: "", effectStyleId: "", blendMode: "PASS_THROUGH", isMask: false });
      node.setFillStyleIdAsync = async (styleId: string) => {
        const style = styleById(styleId, "PAINT");
        fills = structuredClone(style.paints);
        node.fillStyleId = styleId;
      };
      node.setStrokeStyleIdAsync = async (styleId: string) => {
        const style = styleById(styleId, "PAINT");
        strokes = structuredClone(style.paints);
        node.strokeStyleId = styleId;
      };
      node.setEffectStyleIdAsync = async (styleId: string) => {
        node.effects = structuredClone(styleById(styleId, "EFFECT").effects);
        node.effectStyleId = styleId;
      };
    }
    if (SCENE.has(type)) {
      // Variables bound to the layer's own fields; paints carry theirs (boundVariables merges both).
      node._bindings = {} as Record<string, Alias | Alias[]>;
      node.explicitVariableModes = {} as Record<string, string>;
      node.componentPropertyReferences = null;
      node.isAsset = type === "VECTOR";
      node.rotation = 0;
      Object.defineProperty(node, "boundVariables", {
        get: () => {
          const out: Record<string, unknown> = { ...node._bindings };
          for (const key of ["fills", "strokes"]) {
            const aliases = (node[key] ?? []).map((p: { boundVariables?: { color?: Alias } }) => p.boundVariables?.color).filter(Boolean);
            if (aliases.length) out[key] = aliases;
          }
          return out;
        },
      });
      Object.defineProperty(node, "resolvedVariableModes", {
        get: () => {
          const modes: Record<string, string> = {};
          for (const c of collections.values()) modes[c.id] = c.defaultModeId;
          const chain: FakeNode[] = [];
          for (let n: FakeNode | null = node; n; n = n.parent) chain.unshift(n);
          for (const n of chain) Object.assign(modes, n.explicitVariableModes ?? {});
          return modes;
        },
      });
      node.setExplicitVariableModeForCollection = (collection: string | { id: string }, modeId: string) => {
        const c = collections.get(typeof collection === "string" ? collection : collection.id);
        if (!c || !c.modes.some((m: { modeId: string }) => m.modeId === modeId)) throw new Error("Invalid mode for this collection");
        node.explicitVariableModes = { ...node.explicitVariableModes, [c.id]: modeId };
      };
      node.setBoundVariable = (field: string, variable: string | { id: string } | null) => {
        const v = variable === null ? null : variables.get(typeof variable === "string" ? variable : variable.id);
        if (variable !== null && !v) throw new Error("Variable not found");
        const textField = TEXT_FIELDS[field];
        if (textField && type !== "TEXT") throw new Error(`Cannot bind ${field} on a ${type}`);
        const expected = textField ?? (NUMBER_FIELDS.has(field) ? "FLOAT" : field === "visible" ? "BOOLEAN" : field === "characters" ? "STRING" : undefined);
        if (!expected || (!textField && !(field in node))) throw new Error(`Cannot bind ${field} on a ${type}`);
        if (v && v.resolvedType !== expected) throw new Error(`Mismatched variable resolved type for ${field}`);
        if (!v) {
          delete node._bindings[field];
          return;
        }
        const { value } = v.resolveForConsumer(node);
        if (field === "characters") node.characters = value; // throws on an unloaded font, as in Figma
        else if (field === "lineHeight" || field === "letterSpacing") node[field] = { unit: "PIXELS", value };
        else node[field] = value;
        node._bindings[field] = textField ? [{ type: "VARIABLE_ALIAS", id: v.id }] : { type: "VARIABLE_ALIAS", id: v.id };
      };
    }
    if (ANNOTATED.has(type)) {
      let annotations: unknown[] = [];
      Object.defineProperty(node, "annotations", {
        enumerable: true,
        get: () => annotations,
        set: (list: { label?: string; labelMarkdown?: string; properties?: { type: string }[]; categoryId?: string }[]) => {
          for (const a of list) {
            if (a.label !== undefined && a.labelMarkdown !== undefined) throw new Error("Cannot set both label and labelMarkdown");
            if (a.categoryId && !annotationCategories.some((c) => c.id === a.categoryId)) throw new Error(`Invalid annotation category id: ${a.categoryId}`);
          }
          annotations = Object.freeze(list.map((a) => Object.freeze(structuredClone(a)))) as unknown[];
        },
      });
    }
    if (LAYOUT_CHILD.has(type)) {
      Object.assign(node, {
        layoutSizingHorizontal: "FIXED",
        layoutSizingVertical: "FIXED",
        layoutPositioning: "AUTO",
        layoutAlign: "INHERIT",
        layoutGrow: 0,
        constraints: { horizontal: "MIN", vertical: "MIN" },
        minWidth: null,
        maxWidth: null,
        minHeight: null,
        maxHeight: null,
      });
    }
    if (CORNERS.has(type)) {
      let radius = 0;
      Object.assign(node, { topLeftRadius: 0, topRightRadius: 0, bottomRightRadius: 0, bottomLeftRadius: 0 });
      Object.defineProperty(node, "cornerRadius", {
        enumerable: true,
        get: () => {
          const all = [node.topLeftRadius, node.topRightRadius, node.bottomRightRadius, node.bottomLeftRadius];
          return all.every((r) => r === all[0]) ? all[0] : mixed;
        },
        set: (r: number) => {
          radius = r;
          node.topLeftRadius = node.topRightRadius = node.bottomRightRadius = node.bottomLeftRadius = radius;
        },
      });
    }
    if (AUTO_LAYOUT.has(type)) {
      Object.assign(node, {
        layoutMode: "NONE",
        layoutWrap: "NO_WRAP",
        itemSpacing: 0,
        counterAxisSpacing: 0,
        paddingTop: 0,
        paddingRight: 0,
        paddingBottom: 0,
        paddingLeft: 0,
        primaryAxisAlignItems: "MIN",
        counterAxisAlignItems: "MIN",
        counterAxisAlignContent: "AUTO",
        primaryAxisSizingMode: "FIXED",
        counterAxisSizingMode: "FIXED",
        itemReverseZIndex: false,
        strokesIncludedInLayout: false,
        clipsContent: type !== "INSTANCE" && type !== "COMPONENT_SET",
        gridStyleId: "",
      });
    }
    if (SUBLAYERED.has(type)) {
      // FigJam's text sublayer: Inter Medium, which must be loaded before writing (as in Figma).
      let characters = "";
      const text: Record<string, unknown> = { fontName: { family: "Inter", style: "Medium" }, fontSize: 16, fills: [{ type: "SOLID", color: { r: 0, g: 0, b: 0 } }] };
      Object.defineProperty(text, "characters", {
        enumerable: true,
        get: () => characters,
        set: (value: string) => {
          const f = text.fontName as FontName;
          if (!loadedFonts.has(fontKey(f))) throw new Error(`Cannot write to node with unloaded font "${f.family} ${f.style}"`);
          characters = value;
        },
      });
      node.text = text;
    }
    if (type === "STICKY" || type === "SHAPE_WITH_TEXT") node.fills = [{ type: "SOLID", color: { r: 0.9, g: 0.9, b: 0.9 }, opacity: 1 }];
    if (type === "STICKY") Object.assign(node, { width: 240, height: 240, authorVisible: true, authorName: opts.user.name, isWideWidth: false });
    if (type === "SHAPE_WITH_TEXT") Object.assign(node, { width: 208, height: 208, shapeType: "SQUARE" });
    if (type === "CONNECTOR") {
      Object.assign(node, { connectorLineType: "ELBOWED", connectorStartStrokeCap: "NONE", connectorEndStrokeCap: "ARROW_LINES" });
      for (const end of ["connectorStart", "connectorEnd"]) {
        let value: unknown = { position: { x: 0, y: 0 } };
        Object.defineProperty(node, end, {
          enumerable: true,
          get: () => value,
          set: (v: { endpointNodeId?: string; magnet?: string; position?: unknown }) => {
            if (v.endpointNodeId !== undefined) {
              const target = byId.get(v.endpointNodeId);
              if (!target || !SCENE.has(target.type) || target.type === "CONNECTOR") throw new Error(`Invalid endpoint node: ${v.endpointNodeId}`);
            }
            value = structuredClone(v);
          },
        });
      }
    }
    if (SCENE.has(type) && type !== "SECTION" && !SUBLAYERED.has(type)) {
      node.reactions = [];
      node.setReactionsAsync = async (list: { actions?: { type: string; destinationId?: string | null }[] }[]) => {
        for (const r of list) {
          for (const a of r.actions ?? []) {
            if (a.type === "NODE" && !["FRAME", "COMPONENT", "INSTANCE"].includes(byId.get(a.destinationId ?? "")?.type ?? "")) throw new Error(`Invalid destination ${a.destinationId}`);
          }
        }
        node.reactions = structuredClone(list);
      };
    }
    if (type === "VECTOR") {
      node.vectorNetwork = { vertices: [], segments: [], regions: [] };
      node.setVectorNetworkAsync = async (network: { vertices: { x: number; y: number }[]; segments: { start: number; end: number }[] }) => {
        for (const s of network.segments) if (!network.vertices[s.start] || !network.vertices[s.end]) throw new Error("Invalid vector network: a segment refers to a missing vertex");
        node.vectorNetwork = structuredClone({ regions: [], ...network });
      };
    }
    if (type === "SECTION") {
      let fills: unknown[] = [{ type: "SOLID", color: { r: 1, g: 1, b: 1 }, opacity: 1 }];
      Object.defineProperty(node, "fills", { enumerable: true, get: () => fills, set: (v: unknown[]) => (fills = v) });
      node.sectionContentsHidden = false;
      node.resizeWithoutConstraints = node.resize;
    }
    if (type === "TEXT") {
      let characters = "";
      node.fontSize = 14;
      node.fontName = { family: "Inter", style: "Regular" };
      Object.defineProperty(node, "characters", {
        enumerable: true,
        get: () => characters,
        set: (value: string) => {
          // Figma refuses to edit text whose font was not loaded first.
          if (!loadedFonts.has(fontKey(node.fontName))) throw new Error(`Cannot write to node with unloaded font "${node.fontName.family} ${node.fontName.style}"`);
          characters = value;
        },
      });
      node.getRangeAllFontNames = () => [node.fontName];
      Object.assign(node, {
        textAlignHorizontal: "LEFT",
        textAlignVertical: "TOP",
        textAutoResize: "WIDTH_AND_HEIGHT",
        lineHeight: { unit: "AUTO" },
        letterSpacing: { unit: "PERCENT", value: 0 },
        textCase: "ORIGINAL",
        textDecoration: "NONE",
        paragraphSpacing: 0,
        textStyleId: "",
      });
      Object.defineProperty(node, "fontWeight", { get: () => WEIGHTS[node.fontName.style.replace(/ Italic$/, "")] ?? 400 });
      // One styled segment unless the model was given spans ({start, end, fontName, fontSize, fills…}).
      node.getStyledTextSegments = (fields: string[]) => {
        const whole = { start: 0, end: characters.length };
        const spans: Record<string, unknown>[] = node._spans ?? [whole];
        return spans.map((span) => {
          const seg: Record<string, unknown> = { characters: characters.slice(span.start as number, span.end as number), start: span.start, end: span.end };
          for (const f of fields) {
            const own = f === "fontWeight" ? WEIGHTS[String(((span.fontName ?? node.fontName) as FontName).style)] : node[f];
            seg[f] = structuredClone(span[f] ?? own);
          }
          return seg;
        });
      };
      node.setTextStyleIdAsync = async (styleId: string) => {
        const style = styleById(styleId, "TEXT");
        if (!loadedFonts.has(fontKey(style.fontName))) throw new Error(`Cannot apply a text style with unloaded font "${style.fontName.family} ${style.fontName.style}"`);
        node.fontName = structuredClone(style.fontName);
        node.fontSize = style.fontSize;
        node.lineHeight = structuredClone(style.lineHeight);
        node.letterSpacing = structuredClone(style.letterSpacing);
        node.textStyleId = styleId;
      };
    }
    if (type === "COMPONENT" || type === "COMPONENT_SET") {
      node.key = props.key ?? Buffer.from(id.padEnd(20, "0")).toString("hex").slice(0, 40);
      node.description = "";
      node.remote = false;
      node._propDefs = {} as Record<string, { type: string; defaultValue: string | boolean; preferredValues?: unknown[] }>;
      const isVariant = () => type === "COMPONENT" && node.parent?.type === "COMPONENT_SET";
      Object.defineProperty(node, "componentPropertyDefinitions", {
        get: () => {
          if (isVariant()) throw new Error("Can only get definitions of a component set or non-variant component");
          const defs: Record<string, unknown> = {};
          if (type === "COMPONENT_SET") {
            const options = new Map<string, string[]>();
            for (const v of node.children) for (const [k, val] of Object.entries(v.variantProperties as Record<string, string>)) options.set(k, [...new Set([...(options.get(k) ?? []), val])]);
            const first = node.children[0]?.variantProperties ?? {};
            for (const [k, opts] of options) defs[k] = { type: "VARIANT", defaultValue: first[k], variantOptions: opts };
          }
          return { ...defs, ...structuredClone(node._propDefs) };
        },
      });
      node.addComponentProperty = (name: string, propType: string, defaultValue: string | boolean) => {
        if (isVariant()) throw new Error("Cannot add properties to a variant: add them to its component set");
        if (propType === "VARIANT") throw new Error("Variant properties come from the variants' names");
        const key = `${name}#${++counter}:0`;
        node._propDefs[key] = { type: propType, defaultValue };
        return key;
      };
      if (type === "COMPONENT") {
        // "Size=Large, State=Default" → {Size: "Large", State: "Default"} when inside a component set.
        Object.defineProperty(node, "variantProperties", {
          get: () => (isVariant() ? Object.fromEntries(node.name.split(/,\s*/).map((kv: string) => kv.split("=").map((x) => x.trim()))) : null),
        });
        node.createInstance = () => {
          const instance = make("INSTANCE", { name: node.name, width: node.width, height: node.height, fills: structuredClone(node.fills) });
          for (const k of ["layoutMode", "itemSpacing", "paddingTop", "paddingRight", "paddingBottom", "paddingLeft", "primaryAxisAlignItems", "counterAxisAlignItems", "topLeftRadius", "topRightRadius", "bottomRightRadius", "bottomLeftRadius", "strokes", "strokeWeight", "effects"]) {
            instance[k] = structuredClone(node[k]);
          }
          instance._bindings = structuredClone(node._bindings);
          instance.mainComponent = node;
          for (const child of node.children) instance.appendChild(cloneTree(child));
          return instance;
        };
      } else {
        Object.defineProperty(node, "defaultVariant", { get: () => node.children[0] });
      }
    }
    if (type === "INSTANCE") {
      node.getMainComponentAsync = async () => node.mainComponent ?? null;
      node._overrides = {} as Record<string, string | boolean>;
      const definitionsOwner = () => (node.mainComponent?.parent?.type === "COMPONENT_SET" ? node.mainComponent.parent : node.mainComponent);
      Object.defineProperty(node, "variantProperties", { get: () => node.mainComponent?.variantProperties ?? null });
      Object.defineProperty(node, "componentProperties", {
        get: () => {
          const owner = definitionsOwner();
          if (!owner) return {};
          const out: Record<string, unknown> = {};
          for (const [k, def] of Object.entries(owner.componentPropertyDefinitions as Record<string, { type: string; defaultValue: unknown }>)) {
            const value = def.type === "VARIANT" ? node.mainComponent.variantProperties[k] : (node._overrides[k] ?? def.defaultValue);
            out[k] = { type: def.type, value };
          }
          return out;
        },
      });
      node.setProperties = (properties: Record<string, string | boolean>) => {
        const owner = definitionsOwner();
        const defs = (owner?.componentPropertyDefinitions ?? {}) as Record<string, { type: string; variantOptions?: string[] }>;
        for (const k of Object.keys(properties)) if (!defs[k]) throw new Error(`Could not find a component property with name: '${k}'`);
        const variantChanges = Object.entries(properties).filter(([k]) => defs[k]!.type === "VARIANT");
        if (variantChanges.length) {
          const wanted = { ...node.mainComponent.variantProperties, ...Object.fromEntries(variantChanges) };
          const match = owner.children.find((v: FakeNode) => Object.entries(wanted).every(([k, val]) => v.variantProperties[k] === val));
          if (!match) throw new Error(`Unable to find a variant with those property values`);
          node.mainComponent = match;
          node.width = match.width;
          node.height = match.height;
        }
        for (const [k, value] of Object.entries(properties)) {
          const def = defs[k]!;
          if (def.type === "VARIANT") continue;
          if (def.type === "INSTANCE_SWAP" && byId.get(String(value))?.type !== "COMPONENT") throw new Error(`Invalid value for instance swap property '${k}'`);
          node._overrides[k] = value;
          walk(node, (layer) => {
            const refs = layer.componentPropertyReferences ?? {};
            if (refs.characters === k) layer.characters = value; // needs the layer's font loaded, as in Figma
            if (refs.visible === k) layer.visible = value;
            if (refs.mainComponent === k) layer.mainComponent = byId.get(String(value));
          });
        }
      };
    }
    const { characters, parent, ...rest } = props as { characters?: string; parent?: FakeNode };
    Object.assign(node, rest);
    if (characters !== undefined) {
      loadedFonts.add(fontKey(node.fontName));
      node.characters = characters;
    }
    byId.set(id, node);
    parent?.appendChild(node);
    return node;
  }

  /** A group or boolean layer holding `nodes`, in `parent` where the first of them was. */
  function combine(type: string, nodes: FakeNode[], parent: FakeNode): FakeNode {
    if (!nodes.length) throw new Error("Cannot group zero nodes");
    const at = Math.max(0, parent.children.indexOf(nodes[0]));
    const n = make(type, { name: type === "GROUP" ? "Group" : "Boolean" });
    const xs = nodes.map((c) => c.x), ys = nodes.map((c) => c.y);
    Object.assign(n, { x: Math.min(...xs), y: Math.min(...ys), width: Math.max(...nodes.map((c) => c.x + c.width)) - Math.min(...xs), height: Math.max(...nodes.map((c) => c.y + c.height)) - Math.min(...ys) });
    for (const c of nodes) n.appendChild(c);
    parent.children.splice(Math.min(at, parent.children.length), 0, n);
    n.parent = parent;
    return n;
  }

  const NOT_COPIED = new Set(["id", "type", "parent", "children", "removed", "mainComponent", "key", "characters", "boundVariables", "resolvedVariableModes", "fontWeight", "componentProperties", "variantProperties", "componentPropertyDefinitions", "defaultVariant"]);
  function cloneTree(source: FakeNode): FakeNode {
    const props: Record<string, unknown> = {};
    for (const k of Object.keys(source)) {
      const v = source[k];
      if (NOT_COPIED.has(k) || typeof v === "function" || typeof v === "symbol") continue;
      props[k] = structuredClone(v);
    }
    if (source.type === "TEXT") props.characters = source.characters;
    const copy = make(source.type, props);
    if (source.type === "INSTANCE") copy.mainComponent = source.mainComponent;
    for (const child of source.children ?? []) copy.appendChild(cloneTree(child));
    return copy;
  }

  // --- The document -------------------------------------------------------------------------
  const editorType = opts.editorType ?? "figma";
  const document = make("DOCUMENT", { name: opts.fileName }, "0:0");
  const home = make("PAGE", { name: editorType === "figjam" ? "Page 1" : "Home", parent: document, selection: [] }, "0:1");
  let undoSteps = 0;
  /** Images made with createImage: hash → bytes. */
  const images = new Map<string, number>();
  if (editorType === "figjam") {
    // A retro board: a section holding two stickies, a shape beside it, a connector from the shape to a sticky.
    const ideas = make("SECTION", { name: "Ideas", parent: home, x: 0, y: 0, width: 800, height: 400 }, "5:1");
    const sticky = (id: string, x: number, text: string, color: Paint["color"]) => {
      const n = make("STICKY", { name: text, parent: ideas, x, y: 80, fills: [{ type: "SOLID", color, opacity: 1 }] }, id);
      loadedFonts.add("Inter|Medium");
      n.text.characters = text;
      return n;
    };
    sticky("5:2", 40, "Ship faster", { r: 1, g: 0.91, b: 0.64 });
    sticky("5:3", 320, "Fewer meetings", { r: 0.66, g: 0.85, b: 1 });
    const goal = make("SHAPE_WITH_TEXT", { name: "Goal", parent: home, x: 1000, y: 100, shapeType: "DIAMOND" }, "5:4");
    goal.text.characters = "Q3 goal";
    const link = make("CONNECTOR", { name: "Connector", parent: home }, "5:5");
    link.connectorStart = { endpointNodeId: "5:4", magnet: "AUTO" };
    link.connectorEnd = { endpointNodeId: "5:2", magnet: "AUTO" };
    loadedFonts.clear();
  }
  const white: Paint[] = [{ type: "SOLID", color: { r: 1, g: 1, b: 1 }, opacity: 1 }];
  if (editorType === "figma") {
    const library = make("PAGE", { name: "Components", parent: document, selection: [] }, "0:2");
    const hero = make("FRAME", { name: "Hero", parent: home, x: 0, y: 0, width: 1440, height: 900, fills: white }, "1:1");
    const title = make("TEXT", { name: "Title", parent: hero, x: 120, y: 200, width: 600, height: 64, fontSize: 48, characters: "Welcome" }, "1:2");
    make("TEXT", { name: "Subtitle", parent: hero, x: 120, y: 280, width: 600, height: 24, characters: "Design at the speed of thought" }, "1:3");
    make("RECTANGLE", { name: "Card", parent: hero, x: 120, y: 400, width: 320, height: 200, fills: [{ type: "SOLID", color: { r: 0.2, g: 0.4, b: 0.8 } }] }, "1:4");
    const button = make("COMPONENT", { name: "Button", parent: library, x: 0, y: 0, width: 160, height: 48, key: "b".repeat(40) }, "2:1");
    make("TEXT", { name: "Label", parent: button, x: 16, y: 12, width: 128, height: 24, characters: "Click me" }, "2:2");
    make("COMPONENT", { name: "Badge", parent: library, x: 200, y: 0, width: 64, height: 24, key: "c".repeat(40) }, "2:3");
    const instance = button.createInstance();
    instance.x = 120;
    instance.y = 640;
    hero.appendChild(instance);
    const list = make("FRAME", { name: "List", parent: home, x: 1600, y: 0, width: 400, height: 8000, layoutMode: "VERTICAL" }, "1:5");
    for (let i = 1; i <= 250; i++) make("TEXT", { name: `Row ${i}`, parent: list, width: 400, height: 20, characters: `Row ${i}` }, `3:${i}`);
    make("FRAME", { name: "Poster", parent: home, x: 0, y: 1000, width: 3000, height: 2000, fills: [{ type: "SOLID", color: { r: 0.9, g: 0.3, b: 0.1 } }] }, "1:6");
    home.selection = [title];
  }

  const paintStyles = [
    { id: "S:brand,", key: "k-brand", name: "Brand/Primary", description: "Main brand colour", type: "PAINT", paints: [{ type: "SOLID", color: { r: 0.2, g: 0.4, b: 0.8 }, opacity: 1 }] },
    { id: "S:ink,", key: "k-ink", name: "Ink", description: "", type: "PAINT", paints: [{ type: "SOLID", color: { r: 0, g: 0, b: 0 }, opacity: 1 }] },
  ];
  const textStyles = [
    { id: "S:h1,", key: "k-h1", name: "Heading/H1", description: "", type: "TEXT", fontName: { family: "Inter", style: "Bold" }, fontSize: 48, lineHeight: { unit: "AUTO" }, letterSpacing: { unit: "PIXELS", value: 0 } },
  ];
  const effectStyles = [{ id: "S:shadow,", key: "k-shadow", name: "Shadow/Card", description: "", type: "EFFECT", effects: [{ type: "DROP_SHADOW", color: { r: 0, g: 0, b: 0, a: 0.1 }, offset: { x: 0, y: 2 }, radius: 8, spread: 0, visible: true, blendMode: "NORMAL" }] }];
  const gridStyles = [{ id: "S:grid,", key: "k-grid", name: "Grid/12", description: "", type: "GRID", layoutGrids: [{ pattern: "COLUMNS" }] }];

  const api = {
    mixed,
    root: document,
    currentPage: home,
    editorType,
    /** Each call closes one step of the undo history (counted: what a test checks). */
    commitUndo() {
      undoSteps++;
    },
    currentUser: { id: opts.user.id, name: opts.user.name, photoUrl: null, color: "#000", sessionId: 1 },
    fileKey: opts.fileKey,
    async getNodeByIdAsync(id: string) {
      return byId.get(id) ?? null;
    },
    createFrame: () => {
      const n = make("FRAME", { name: "Frame", fills: white });
      home.appendChild(n);
      return n;
    },
    createRectangle: () => {
      const n = make("RECTANGLE", { name: "Rectangle", fills: [{ type: "SOLID", color: { r: 0.85, g: 0.85, b: 0.85 } }] });
      home.appendChild(n);
      return n;
    },
    ...Object.fromEntries(
      Object.entries(FIGJAM_ONLY).map(([creator, type]) => [
        creator,
        () => {
          if (editorType !== "figjam") throw new Error(`${creator}() is only available in FigJam`);
          const n = make(type, { name: type === "STICKY" ? "Sticky" : type === "CONNECTOR" ? "Connector" : "Shape" });
          api.currentPage.appendChild(n);
          return n;
        },
      ]),
    ),
    createPage: () => make("PAGE", { name: "Page", parent: document, selection: [] }),
    async setCurrentPageAsync(page: FakeNode) {
      api.currentPage = page;
    },
    createImage(bytes: Uint8Array) {
      const b = Buffer.from(bytes);
      const png = b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
      if (!png && !(b[0] === 0xff && b[1] === 0xd8) && b.subarray(0, 3).toString("latin1") !== "GIF") throw new Error("Image type is unsupported");
      const hash = createHash("sha1").update(b).digest("hex");
      images.set(hash, b.length);
      return { hash };
    },
    base64Decode: (text: string) => new Uint8Array(Buffer.from(text, "base64")),
    // Grouping and boolean operations: a new container where the first layer was, holding the layers.
    group: (nodes: FakeNode[], parent: FakeNode) => combine("GROUP", nodes, parent),
    ungroup: (group: FakeNode) => {
      const parent = group.parent!;
      const kids = [...group.children];
      const at = parent.children.indexOf(group);
      for (const k of kids) group.children.splice(group.children.indexOf(k), 1);
      parent.children.splice(at, 1, ...kids);
      for (const k of kids) k.parent = parent;
      group.parent = null;
      group.removed = true;
      byId.delete(group.id);
      return kids;
    },
    ...Object.fromEntries(["union", "subtract", "intersect", "exclude"].map((op) => [op, (nodes: FakeNode[], parent: FakeNode) => {
      const n = combine("BOOLEAN_OPERATION", nodes, parent);
      n.booleanOperation = op.toUpperCase();
      return n;
    }])),
    createComponentFromNode: (source: FakeNode) => {
      if (source.type === "COMPONENT" || source.type === "INSTANCE") throw new Error("Cannot create a component from a component or instance");
      const parent = source.parent!;
      const at = parent.children.indexOf(source);
      const props: Record<string, unknown> = {};
      for (const k of ["name", "x", "y", "width", "height", "fills", "strokes", "layoutMode", "itemSpacing", "paddingTop", "paddingRight", "paddingBottom", "paddingLeft"]) if (k in source) props[k] = structuredClone(source[k]);
      const component = make("COMPONENT", props);
      for (const child of [...(source.children ?? [])]) component.appendChild(child);
      component.parent?.children.splice(component.parent.children.indexOf(component), 1);
      source.remove();
      parent.children.splice(at, 0, component);
      component.parent = parent;
      return component;
    },
    createPaintStyle: () => {
      const style = { id: `S:${++counter},`, key: `k${counter}`, name: "", description: "", type: "PAINT", paints: [] as (typeof paintStyles)[number]["paints"] };
      paintStyles.push(style);
      return style;
    },
    createTextStyle: () => {
      let fontName: FontName = { family: "Inter", style: "Regular" };
      const style = { id: `S:${++counter},`, key: `k${counter}`, name: "", description: "", type: "TEXT", fontSize: 12, lineHeight: { unit: "AUTO" } as unknown, letterSpacing: { unit: "PERCENT", value: 0 } as unknown } as Record<string, unknown>;
      Object.defineProperty(style, "fontName", {
        enumerable: true,
        get: () => fontName,
        set: (f: FontName) => {
          if (!loadedFonts.has(fontKey(f))) throw new Error(`Font "${f.family} ${f.style}" is not loaded`);
          fontName = f;
        },
      });
      textStyles.push(style as (typeof textStyles)[number]);
      return style;
    },
    createVector: () => {
      const n = make("VECTOR", { name: "Vector" });
      api.currentPage.appendChild(n);
      return n;
    },
    // An SVG becomes a frame of vectors in Figma; the model keeps the source on one vector.
    createNodeFromSvg: (svg: string) => {
      if (!/^<svg[\s>]/.test(svg.trim())) throw new Error("Failed to parse SVG");
      const frame = make("FRAME", { name: "svg", fills: [] });
      make("VECTOR", { name: "Vector", parent: frame, svgSource: svg });
      api.currentPage.appendChild(frame);
      return frame;
    },
    createSection: () => {
      const n = make("SECTION", { name: "Section" });
      api.currentPage.appendChild(n);
      return n;
    },
    createText: () => {
      const n = make("TEXT", { name: "Text", fills: [{ type: "SOLID", color: { r: 0, g: 0, b: 0 } }] });
      home.appendChild(n);
      return n;
    },
    async loadFontAsync(font: FontName) {
      if (!AVAILABLE_FONT_FAMILIES.includes(font.family)) throw new Error(`The font "${font.family} ${font.style}" could not be loaded`);
      loadedFonts.add(fontKey(font));
    },
    async loadAllPagesAsync() {},
    async getLocalPaintStylesAsync() {
      return paintStyles;
    },
    async getLocalTextStylesAsync() {
      return textStyles;
    },
    async getLocalEffectStylesAsync() {
      return effectStyles;
    },
    async getLocalGridStylesAsync() {
      return gridStyles;
    },
    async getStyleByIdAsync(id: string) {
      return allStyles().find((st) => st.id === id) ?? null;
    },
    variables: {
      async getVariableByIdAsync(id: string) {
        return variables.get(id) ?? null;
      },
      async getVariableCollectionByIdAsync(id: string) {
        return collections.get(id) ?? null;
      },
      async getLocalVariablesAsync(type?: string) {
        return [...variables.values()].filter((v) => !type || v.resolvedType === type);
      },
      async getLocalVariableCollectionsAsync() {
        return [...collections.values()];
      },
      createVariableCollection(name: string) {
        const cid = `VariableCollectionId:${++counter}:0`;
        const firstMode = `${counter}:0`;
        const collection = {
          id: cid,
          name,
          modes: [{ modeId: firstMode, name: "Mode 1" }],
          defaultModeId: firstMode,
          get variableIds() {
            return [...variables.values()].filter((v) => v.variableCollectionId === cid).map((v) => v.id);
          },
          addMode(modeName: string) {
            const modeId = `${++counter}:1`;
            this.modes.push({ modeId, name: modeName });
            for (const v of variables.values()) if (v.variableCollectionId === cid) v.valuesByMode[modeId] = structuredClone(v.valuesByMode[firstMode]);
            return modeId;
          },
          renameMode(modeId: string, modeName: string) {
            const m = this.modes.find((x: { modeId: string }) => x.modeId === modeId);
            if (!m) throw new Error("Mode not found");
            m.name = modeName;
          },
        };
        collections.set(cid, collection);
        return collection;
      },
      createVariable(name: string, collection: { id: string }, resolvedType: string) {
        const c = collections.get(collection.id);
        if ([...variables.values()].some((v) => v.variableCollectionId === c.id && v.name === name)) throw new Error(`A variable named ${name} already exists in this collection`);
        const vid = `VariableID:${++counter}:0`;
        const variable = {
          id: vid,
          name,
          key: `vk${counter}`,
          description: "",
          remote: false,
          resolvedType,
          variableCollectionId: c.id,
          valuesByMode: Object.fromEntries(c.modes.map((m: { modeId: string }) => [m.modeId, resolvedType === "COLOR" ? { r: 0, g: 0, b: 0, a: 1 } : resolvedType === "FLOAT" ? 0 : resolvedType === "BOOLEAN" ? false : ""])),
          codeSyntax: {} as Record<string, string>,
          scopes: ["ALL_SCOPES"],
          setValueForMode(modeId: string, value: unknown) {
            if (!(modeId in this.valuesByMode)) throw new Error("Invalid mode id");
            this.valuesByMode[modeId] = structuredClone(value);
          },
          setVariableCodeSyntax(platform: string, value: string) {
            this.codeSyntax[platform] = value;
          },
          // The value where `consumer` is: the mode its tree sets for this collection (or the default), aliases followed.
          resolveForConsumer(consumer: FakeNode): { value: unknown; resolvedType: string } {
            const modeId = consumer.resolvedVariableModes?.[c.id] ?? c.defaultModeId;
            let value = this.valuesByMode[modeId];
            if (value && typeof value === "object" && value.type === "VARIABLE_ALIAS") value = variables.get(value.id).resolveForConsumer(consumer).value;
            return { value, resolvedType };
          },
        };
        variables.set(vid, variable);
        return variable;
      },
      createVariableAlias(variable: { id: string }) {
        return { type: "VARIABLE_ALIAS", id: variable.id };
      },
      // Returns a copy of the paint bound to the variable (its colour becomes the variable's default-mode value).
      setBoundVariableForPaint(paint: Record<string, unknown>, field: string, variable: { id: string } | null) {
        if (field !== "color" || paint.type !== "SOLID") throw new Error("Only the color of a solid paint can be bound");
        const copy = structuredClone(paint);
        if (!variable) {
          delete copy.boundVariables;
          return copy;
        }
        const v = variables.get(variable.id);
        if (!v || v.resolvedType !== "COLOR") throw new Error("Mismatched variable resolved type for color");
        let value = v.valuesByMode[collections.get(v.variableCollectionId).defaultModeId];
        if (value?.type === "VARIABLE_ALIAS") value = variables.get(value.id).valuesByMode[collections.get(variables.get(value.id).variableCollectionId).defaultModeId];
        copy.color = { r: value.r, g: value.g, b: value.b };
        copy.boundVariables = { color: { type: "VARIABLE_ALIAS", id: v.id } };
        return copy;
      },
    },
    annotations: {
      async getAnnotationCategoriesAsync() {
        return annotationCategories.map((c) => ({ ...c }));
      },
    },
    async importComponentByKeyAsync(key: string) {
      const found = document.findAll((n: FakeNode) => n.type === "COMPONENT" && n.key === key)[0];
      if (!found) throw new Error(`Component with key ${key} not found`);
      return found;
    },
    base64Encode: (bytes: Uint8Array) => Buffer.from(bytes).toString("base64"),
  };
  /** Adds a layer directly (fixtures): props as Figma has them, optional id and parent. */
  const add = (type: string, props: Record<string, unknown> = {}, id?: string) => make(type, props, id);
  return { api, byId, add, styles: { paintStyles, textStyles, effectStyles, gridStyles }, undoSteps: () => undoSteps };
}

/** The document as plain data (what a test compares). */
export function snapshot(node: FakeNode): unknown {
  const out: Record<string, unknown> = { id: node.id, type: node.type, name: node.name };
  for (const k of ["x", "y", "width", "height", "visible", "characters", "fills", "strokes", "strokeWeight", "fillStyleId", "strokeStyleId", "effectStyleId", "textStyleId", "effects", "annotations", "explicitVariableModes", "layoutMode", "layoutWrap", "itemSpacing", "counterAxisSpacing", "paddingTop", "paddingRight", "paddingBottom", "paddingLeft", "primaryAxisAlignItems", "counterAxisAlignItems", "topLeftRadius", "topRightRadius", "bottomRightRadius", "bottomLeftRadius", "fontSize", "fontName"]) {
    if (k in node) out[k] = node[k];
  }
  if (node.dashPattern?.length) out.dashPattern = node.dashPattern;
  if (node.reactions?.length) out.reactions = node.reactions;
  if (node.booleanOperation) out.booleanOperation = node.booleanOperation;
  for (const k of ["layoutSizingHorizontal", "layoutSizingVertical"]) if (node[k] && node[k] !== "FIXED") out[k] = node[k];
  for (const k of ["vectorNetwork", "shapeType", "connectorStart", "connectorEnd", "connectorLineType", "connectorStartStrokeCap", "connectorEndStrokeCap", "isWideWidth", "authorVisible"]) {
    if (k in node) out[k] = node[k];
  }
  if (node.text) out.text = node.text.characters;
  if (node.mainComponent) out.mainComponentId = node.mainComponent.id;
  if (node.type === "INSTANCE") out.componentProperties = node.componentProperties;
  if (node.boundVariables && Object.keys(node.boundVariables).length) out.boundVariables = node.boundVariables;
  if (node.children) out.children = node.children.map(snapshot);
  return out;
}
