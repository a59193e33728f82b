// set_stroke_color: one solid stroke, optionally its weight.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, rgba, UPDATE } from "../schema.js";

export const setStrokeColor = figmaTool({
  name: "set_stroke_color",
  title: "Set stroke color",
  description: "Replaces a layer's strokes with one solid colour (r, g, b, a from 0 to 1) and sets the stroke weight (default 1).",
  args: { nodeId: nodeId(), ...rgba, weight: z.number().min(0).max(1000).default(1).describe("Stroke weight (default 1)") },
  annotations: UPDATE,
});
