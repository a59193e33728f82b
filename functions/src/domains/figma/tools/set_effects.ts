// set_effects: shadows and blurs, replacing the layer's effects.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { color, nodeId, UPDATE } from "../schema.js";

const effect = z.object({
  type: z.enum(["DROP_SHADOW", "INNER_SHADOW", "LAYER_BLUR", "BACKGROUND_BLUR"]).describe("The effect"),
  radius: z.number().min(0).max(1000).describe("Blur radius"),
  color: color.optional().describe("Shadow colour (default black at 25 %)"),
  x: z.number().min(-10_000).max(10_000).optional().describe("Shadow offset X (default 0)"),
  y: z.number().min(-10_000).max(10_000).optional().describe("Shadow offset Y (default 4)"),
  spread: z.number().min(-10_000).max(10_000).optional().describe("Shadow spread (default 0)"),
  visible: z.boolean().optional(),
});

export const setEffects = figmaTool({
  name: "set_effects",
  title: "Set effects",
  description: "Replaces a layer's effects: drop and inner shadows (colour, offset, blur radius, spread) and layer or background blurs. An empty list removes them.",
  args: { nodeId: nodeId(), effects: z.array(effect).max(8).describe("The effects, in Figma's order (0–8)") },
  annotations: UPDATE,
});
