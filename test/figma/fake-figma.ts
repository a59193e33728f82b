// A model of the Figma plugin API, enough for the MCP Bridge plugin's commands: a document of
// pages, frames, text, rectangles, components and instances; selection; local styles; fonts that
// must be loaded before text is written (as in Figma); exportAsync rendering a real PNG or SVG.
// Nodes carry only the properties their type has in Figma, so `"x" in node`-style checks behave.
import { deflateSync } from "node:zlib";

type Paint = { type: "SOLID"; color: { r: number; g: number; b: number }; opacity?: number; visible?: boolean };
type FontName = { family: string; style: string };

const CONTAINERS = new Set(["DOCUMENT", "PAGE", "FRAME", "GROUP", "COMPONENT", "INSTANCE", "SECTION"]);
const SCENE = new Set(["FRAME", "GROUP", "COMPONENT", "INSTANCE", "RECTANGLE", "TEXT", "ELLIPSE", "SECTION"]);
const GEOMETRY = new Set(["FRAME", "COMPONENT", "INSTANCE", "RECTANGLE", "TEXT", "ELLIPSE"]);
const CORNERS = new Set(["FRAME", "COMPONENT", "INSTANCE", "RECTANGLE"]);
const AUTO_LAYOUT = new Set(["FRAME", "COMPONENT", "INSTANCE"]);
export const AVAILABLE_FONT_FAMILIES = ["Inter"];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type FakeNode = Record<string, any> & { id: string; type: string; name: string; parent: FakeNode | null };

export interface FakeFigmaOptions {
  fileName: string;
  fileKey?: string;
  user: { id: string; name: string };
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
    if (GEOMETRY.has(type)) Object.assign(node, { fills: [], strokes: [], strokeWeight: 1 });
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
      });
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
    }
    if (type === "COMPONENT") {
      node.key = props.key ?? Buffer.from(id.padEnd(20, "0")).toString("hex").slice(0, 40);
      node.description = "";
      node.createInstance = () => {
        const instance = make("INSTANCE", { name: node.name, width: node.width, height: node.height, fills: node.fills });
        instance.mainComponent = node;
        for (const child of node.children) instance.appendChild(cloneTree(child));
        return instance;
      };
    }
    if (type === "INSTANCE") node.getMainComponentAsync = async () => node.mainComponent ?? null;
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

  function cloneTree(source: FakeNode): FakeNode {
    const props: Record<string, unknown> = {};
    for (const k of ["name", "x", "y", "width", "height", "fills", "strokes", "strokeWeight", "visible", "opacity", "fontSize", "fontName", "layoutMode", "itemSpacing"]) {
      if (k in source) props[k] = structuredClone(source[k]);
    }
    if (source.type === "TEXT") props.characters = source.characters;
    const copy = make(source.type, props);
    if (source.type === "INSTANCE") copy.mainComponent = source.mainComponent;
    for (const child of source.children ?? []) copy.appendChild(cloneTree(child));
    return copy;
  }

  // --- The document -------------------------------------------------------------------------
  const document = make("DOCUMENT", { name: opts.fileName }, "0:0");
  const home = make("PAGE", { name: "Home", parent: document, selection: [] }, "0:1");
  const library = make("PAGE", { name: "Components", parent: document, selection: [] }, "0:2");

  const white: Paint[] = [{ type: "SOLID", color: { r: 1, g: 1, b: 1 }, opacity: 1 }];
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

  const paintStyles = [
    { id: "S:brand,", key: "k-brand", name: "Brand/Primary", description: "Main brand colour", type: "PAINT", paints: [{ type: "SOLID", color: { r: 0.2, g: 0.4, b: 0.8 }, opacity: 1 }] },
    { id: "S:ink,", key: "k-ink", name: "Ink", description: "", type: "PAINT", paints: [{ type: "SOLID", color: { r: 0, g: 0, b: 0 }, opacity: 1 }] },
  ];
  const textStyles = [
    { id: "S:h1,", key: "k-h1", name: "Heading/H1", description: "", type: "TEXT", fontName: { family: "Inter", style: "Bold" }, fontSize: 48, lineHeight: { unit: "AUTO" }, letterSpacing: { unit: "PIXELS", value: 0 } },
  ];
  const effectStyles = [{ id: "S:shadow,", key: "k-shadow", name: "Shadow/Card", description: "", type: "EFFECT", effects: [{ type: "DROP_SHADOW" }] }];
  const gridStyles = [{ id: "S:grid,", key: "k-grid", name: "Grid/12", description: "", type: "GRID", layoutGrids: [{ pattern: "COLUMNS" }] }];

  const api = {
    mixed,
    root: document,
    currentPage: home,
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
    async importComponentByKeyAsync(key: string) {
      const found = document.findAll((n: FakeNode) => n.type === "COMPONENT" && n.key === key)[0];
      if (!found) throw new Error(`Component with key ${key} not found`);
      return found;
    },
    base64Encode: (bytes: Uint8Array) => Buffer.from(bytes).toString("base64"),
  };
  return { api, byId };
}

/** The document as plain data (what a test compares). */
export function snapshot(node: FakeNode): unknown {
  const out: Record<string, unknown> = { id: node.id, type: node.type, name: node.name };
  for (const k of ["x", "y", "width", "height", "characters", "fills", "strokes", "strokeWeight", "layoutMode", "layoutWrap", "itemSpacing", "counterAxisSpacing", "paddingTop", "paddingRight", "paddingBottom", "paddingLeft", "primaryAxisAlignItems", "counterAxisAlignItems", "topLeftRadius", "topRightRadius", "bottomRightRadius", "bottomLeftRadius", "fontSize", "fontName"]) {
    if (k in node) out[k] = node[k];
  }
  if (node.mainComponent) out.mainComponentId = node.mainComponent.id;
  if (node.children) out.children = node.children.map(snapshot);
  return out;
}
