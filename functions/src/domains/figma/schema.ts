// Arguments the figma tools share. Node ids are Figma's ("12:34", instance sublayers "I12:34;5:6"),
// or a link to the layer as Figma copies it (links.ts turns it into the id and picks its file's session).
import { z } from "zod";
import { looksLikeLink, NODE_ID } from "./links.js";

export const nodeId = (what = "The node's id") =>
  z
    .string()
    .trim()
    .max(2000)
    .refine((v) => NODE_ID.test(v) || looksLikeLink(v), {
      error: 'nodeId must be a Figma node id such as "12:34" (as get_selection or get_document_info return it) or a Figma link to the layer (https://www.figma.com/design/…?node-id=12-34)',
    })
    .describe(`${what}: a node id such as "12:34", or a Figma link to the layer`);

export const nodeIds = (max: number) => z.array(nodeId()).min(1).max(max).describe(`Node ids (1–${max})`);

/** The optional session/room id every tool takes (the seed's explicit `room-…` id). */
export const sessionArgs = {
  sessionId: z
    .string()
    .max(2000)
    .optional()
    .describe('Room id of the Figma session to use ("room-…"), or a Figma link to the file; omit when the user has one session open. list_sessions shows them'),
  roomId: z.string().max(2000).optional().describe("Same as sessionId (either name works)"),
};

const unit = z.number().min(0).max(1);
/** A colour as Figma's plugin API takes it: r, g, b (and alpha) from 0 to 1. */
export const rgba = {
  r: unit.describe("Red, 0–1"),
  g: unit.describe("Green, 0–1"),
  b: unit.describe("Blue, 0–1"),
  a: unit.default(1).describe("Opacity, 0–1 (default 1)"),
};
export const color = z.object({ r: unit, g: unit, b: unit, a: unit.default(1) }).describe("Colour with r, g, b, a from 0 to 1");

export const coordinate = (name: string) => z.number().min(-1_000_000).max(1_000_000).describe(name);
export const size = (name: string) => z.number().min(0.01).max(100_000).describe(name);

export const cursorArg = z.string().max(200).optional().describe("nextCursor of the previous page (omit to start)");
export const limitArg = (def: number, max: number) => z.number().int().min(1).max(max).default(def).describe(`Items per page, 1–${max} (default ${def})`);
export const parentArg = nodeId("Where to put it: a frame, group, component or page id (default: the current page)").optional();

export const READ = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;
export const CREATE = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false } as const;
export const UPDATE = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;
export const DELETE = { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false } as const;

/** The kinds of items get_board lists (FigJam's own, plus what boards and pages share). */
export const BOARD_TYPES = ["STICKY", "SHAPE_WITH_TEXT", "CONNECTOR", "SECTION", "TEXT", "FRAME", "GROUP", "RECTANGLE", "ELLIPSE", "VECTOR", "LINE", "STAMP", "TABLE", "CODE_BLOCK", "WIDGET", "INSTANCE", "MEDIA", "EMBED", "LINK_UNFURL"] as const;
