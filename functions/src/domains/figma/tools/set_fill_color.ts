// set_fill_color: one solid fill.
import { figmaTool } from "../figma-tool.js";
import { nodeId, rgba, UPDATE } from "../schema.js";

export const setFillColor = figmaTool({
  name: "set_fill_color",
  title: "Set fill color",
  description: "Replaces a layer's fills with one solid colour (r, g, b, a from 0 to 1).",
  args: { nodeId: nodeId(), ...rgba },
  annotations: UPDATE,
});
