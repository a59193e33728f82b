// create_paint_style: a local colour style.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { color, CREATE } from "../schema.js";

export const createPaintStyle = figmaTool({
  name: "create_paint_style",
  title: "Create paint style",
  description: 'Creates a local colour style ("Brand/Primary") of one solid colour. Apply it with apply_style.',
  args: {
    name: z.string().trim().min(1).max(200).describe("The style's name"),
    color,
    description: z.string().max(2000).optional(),
  },
  annotations: CREATE,
});
