// set_corner_radius: all corners, or only some.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

export const setCornerRadius = figmaTool({
  name: "set_corner_radius",
  title: "Set corner radius",
  description: "Sets a layer's corner radius; with corners [topLeft, topRight, bottomRight, bottomLeft] only the corners marked true.",
  args: {
    nodeId: nodeId(),
    radius: z.number().min(0).max(100_000).describe("Radius"),
    corners: z.array(z.boolean()).length(4).optional().describe("Which corners: [topLeft, topRight, bottomRight, bottomLeft] (default all)"),
  },
  annotations: UPDATE,
});
