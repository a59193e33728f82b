// create_text: a new text layer (loads the font first, as Figma requires).
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { color, coordinate, CREATE, parentArg } from "../schema.js";

export const createText = figmaTool({
  name: "create_text",
  title: "Create text",
  description:
    "Creates a text layer at x, y with the given text, font size (default 14), font weight (100–900, default 400, in the Inter family) and colour (default black). Returns the new node's id.",
  args: {
    x: coordinate("X position"),
    y: coordinate("Y position"),
    text: z.string().max(50_000).describe("The text"),
    fontSize: z.number().min(1).max(1000).default(14).describe("Font size (default 14)"),
    fontWeight: z.number().int().min(100).max(900).default(400).describe("Font weight 100–900 (default 400)"),
    fontColor: color.optional(),
    name: z.string().max(200).optional().describe("Layer name (default: the text)"),
    parentId: parentArg,
  },
  annotations: CREATE,
});
