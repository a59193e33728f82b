// create_shape_with_text: a FigJam shape (rectangle, diamond, database…) with text inside.
import { z } from "zod";
import { FIGJAM_SHAPES } from "../../../contracts/figma-plugin.js";
import { figmaTool } from "../figma-tool.js";
import { color, coordinate, CREATE, parentArg, size } from "../schema.js";

export const createShapeWithText = figmaTool({
  name: "create_shape_with_text",
  title: "Create shape with text",
  description: "Adds a FigJam shape with text at x, y (in a section with parentId): shapeType (ROUNDED_RECTANGLE by default, SQUARE, ELLIPSE, DIAMOND, ENG_DATABASE, …), size, fill. FigJam only. Returns the shape.",
  args: {
    shapeType: z.enum(FIGJAM_SHAPES).default("ROUNDED_RECTANGLE").describe("The shape (default ROUNDED_RECTANGLE)"),
    text: z.string().max(10_000).optional().describe("The text inside"),
    x: coordinate("X position").optional(),
    y: coordinate("Y position").optional(),
    width: size("Width").optional(),
    height: size("Height").optional(),
    fillColor: color.optional(),
    name: z.string().max(200).optional().describe("Layer name"),
    parentId: parentArg,
  },
  annotations: CREATE,
});
