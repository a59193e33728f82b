/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// What every command file shares: the `figma` global, errors with a code the function maps to an
// MCP error, node lookups that say what to do when a node is missing, paging, fonts.
import type { PluginErrorCode } from "../../functions/src/contracts/figma-plugin.js";

// Only the API's types are referenced above (not its globals, which would clash with Node's in the
// test program); Figma defines `figma`, a model of it does in tests.
declare const figma: PluginAPI;

export class CommandError extends Error {
  constructor(
    readonly code: PluginErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export type Args = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
export type Handler = (args: Args) => Promise<unknown>;

export interface RGBA {
  r: number;
  g: number;
  b: number;
  a?: number;
}

export const fileName = () => figma.root.name;

export async function node(id: string): Promise<BaseNode> {
  const found = await figma.getNodeByIdAsync(id);
  if (!found) throw new CommandError("not_found", `Node ${id} not found in "${fileName()}": it may have been deleted; call get_selection or get_document_info for current ids`);
  return found;
}

export async function sceneNode(id: string): Promise<SceneNode> {
  const found = await node(id);
  if (found.type === "DOCUMENT" || found.type === "PAGE") throw new CommandError("invalid_input", `Node ${id} is a ${found.type.toLowerCase()}, not a layer`);
  return found as SceneNode;
}

export async function parentFor(parentId: string | undefined): Promise<BaseNode & ChildrenMixin> {
  if (!parentId) return figma.currentPage;
  const parent = await node(parentId);
  if (!("appendChild" in parent) || parent.type === "DOCUMENT" || parent.type === "INSTANCE") {
    throw new CommandError("invalid_input", `Node ${parentId} (${parent.type}) cannot contain layers: use a frame, group, component, section or page`);
  }
  return parent as BaseNode & ChildrenMixin;
}

export function need<K extends string>(n: BaseNode, prop: K, what: string): asserts n is BaseNode & Record<K, unknown> {
  if (!(prop in n)) throw new CommandError("invalid_input", `Node ${n.id} (${n.type}) has no ${what}`);
}

export function autoLayoutFrame(n: BaseNode): FrameNode | ComponentNode | ComponentSetNode | InstanceNode {
  if (!("layoutMode" in n)) throw new CommandError("invalid_input", `Node ${n.id} (${n.type}) is not a frame: auto-layout applies to frames, components and instances`);
  return n as FrameNode;
}

export function requireAutoLayout(n: BaseNode): FrameNode {
  const frame = autoLayoutFrame(n) as FrameNode;
  if (frame.layoutMode === "NONE") throw new CommandError("invalid_input", `Frame ${n.id} has no auto-layout: call set_layout_mode first`);
  return frame;
}

export const solid = (c: RGBA): SolidPaint => ({ type: "SOLID", color: { r: c.r, g: c.g, b: c.b }, opacity: c.a ?? 1 });

export const WEIGHT_STYLES: Record<number, string> = {
  100: "Thin",
  200: "Extra Light",
  300: "Light",
  400: "Regular",
  500: "Medium",
  600: "Semi Bold",
  700: "Bold",
  800: "Extra Bold",
  900: "Black",
};

export async function loadFontsOf(text: TextNode): Promise<void> {
  const fonts = text.fontName === figma.mixed ? text.getRangeAllFontNames(0, text.characters.length) : [text.fontName as FontName];
  try {
    await Promise.all(fonts.map((f) => figma.loadFontAsync(f)));
  } catch {
    throw new CommandError("unsupported", `The font of text node ${text.id} (${fonts.map((f) => `${f.family} ${f.style}`).join(", ")}) is not available on this computer: install it or change the layer's font`);
  }
}

export async function textNode(id: string): Promise<TextNode> {
  const n = await node(id);
  if (n.type !== "TEXT") throw new CommandError("invalid_input", `Node ${id} is a ${n.type}, not a text layer`);
  return n;
}

/** Offset paging over a list: cursors are the offset as a string. */
export function page<T>(items: T[], limit: number, cursor: string | undefined): { items: T[]; nextCursor?: string; truncated: boolean; total: number } {
  let start = 0;
  if (cursor !== undefined) {
    if (!/^\d{1,9}$/.test(cursor)) throw new CommandError("invalid_input", "Invalid cursor: pass the nextCursor of the previous response unchanged, or omit cursor to start over");
    start = Number(cursor);
  }
  const slice = items.slice(start, start + limit);
  const end = start + slice.length;
  return end < items.length ? { items: slice, nextCursor: String(end), truncated: true, total: items.length } : { items: slice, truncated: false, total: items.length };
}

export function place(n: SceneNode, args: Args): void {
  if ("x" in n && typeof args.x === "number") n.x = args.x;
  if ("y" in n && typeof args.y === "number") n.y = args.y;
}

