// set_item_spacing: the gap between auto-layout children (and between wrapped rows).
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

export const setItemSpacing = figmaTool({
  name: "set_item_spacing",
  title: "Set item spacing",
  description: "Sets the gap between an auto-layout frame's children (itemSpacing) and, when it wraps, between its rows (counterAxisSpacing).",
  args: {
    nodeId: nodeId("The auto-layout frame"),
    itemSpacing: z.number().min(-10_000).max(10_000).optional().describe("Gap between children"),
    counterAxisSpacing: z.number().min(0).max(10_000).optional().describe("Gap between wrapped rows"),
  },
  annotations: UPDATE,
});
