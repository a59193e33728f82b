// create_sticky: a FigJam sticky note.
import { z } from "zod";
import { STICKY_COLORS, type StickyColor } from "../../../contracts/figma-plugin.js";
import { figmaTool } from "../figma-tool.js";
import { color, coordinate, CREATE, parentArg } from "../schema.js";

const NAMES = Object.keys(STICKY_COLORS) as [StickyColor, ...StickyColor[]];

export const createSticky = figmaTool({
  name: "create_sticky",
  title: "Create sticky",
  description: `Adds a sticky note to a FigJam board at x, y (in a section with parentId): its text, a FigJam colour (${NAMES.join(", ")}) or r, g, b, a, wide or square, author shown or not. FigJam only. Returns the sticky.`,
  args: {
    text: z.string().min(1).max(10_000).describe("The sticky's text"),
    x: coordinate("X position").optional(),
    y: coordinate("Y position").optional(),
    color: z.union([z.enum(NAMES), color]).optional().describe(`A FigJam sticky colour (${NAMES.join(", ")}) or r, g, b, a from 0 to 1 (default: FigJam's)`),
    wide: z.boolean().optional().describe("A wide sticky instead of a square one"),
    showAuthor: z.boolean().optional().describe("Show the author's name on the sticky"),
    parentId: parentArg,
  },
  annotations: CREATE,
});
