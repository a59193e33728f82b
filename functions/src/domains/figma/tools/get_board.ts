// get_board: a FigJam board (or a design page) as its items: stickies, shapes with text, connectors
// and what they connect, sections and what they hold, text — in document order, paged.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { BOARD_TYPES, cursorArg, limitArg, nodeId, READ } from "../schema.js";

export const getBoard = figmaTool({
  name: "get_board",
  title: "Get FigJam board",
  description:
    "The items of a FigJam board (the current page, or one section with nodeId), in document order with a section's items after it: " +
    "stickies (text, colour as hex, author when shown, wide), shapes with text (shapeType, text, colour), connectors (from and to: the connected node's id, name and type, or a point; " +
    "line type, end caps, label), sections (name, childCount; their items carry sectionId), text and other layers (type, name). Every item has id, x, y, width, height. " +
    "`types` keeps only some kinds; `counts` counts every kind. Paged: when truncated is true, call again with cursor = nextCursor.",
  args: {
    nodeId: nodeId("A section (or page) to read instead of the whole current page").optional(),
    types: z.array(z.enum(BOARD_TYPES)).min(1).max(BOARD_TYPES.length).optional().describe("Only these kinds of items"),
    limit: limitArg(200, 1000),
    cursor: cursorArg,
  },
  annotations: READ,
});
