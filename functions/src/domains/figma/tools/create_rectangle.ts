// create_rectangle: a new rectangle.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { color, coordinate, CREATE, parentArg, size } from "../schema.js";

export const createRectangle = figmaTool({
  name: "create_rectangle",
  title: "Create rectangle",
  description: "Creates a rectangle at x, y with width and height, optionally named, filled and with a corner radius. Returns the new node's id.",
  args: {
    x: coordinate("X position"),
    y: coordinate("Y position"),
    width: size("Width"),
    height: size("Height"),
    name: z.string().max(200).default("Rectangle").describe("Layer name (default Rectangle)"),
    parentId: parentArg,
    fillColor: color.optional(),
    cornerRadius: z.number().min(0).max(100_000).optional().describe("Corner radius"),
  },
  annotations: CREATE,
});
