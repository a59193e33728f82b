// get_node_info: one layer in detail, with its children to a depth.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, READ } from "../schema.js";

export const getNodeInfo = figmaTool({
  name: "get_node_info",
  title: "Get node info",
  description:
    "One layer in detail: type, name, position, size, fills, strokes, corner radius, auto-layout, text and font for text layers, component for instances, and its children to `depth` levels (default 1). " +
    "Large subtrees are cut after maxNodes (truncated: true).",
  args: {
    nodeId: nodeId(),
    depth: z.number().int().min(0).max(20).default(1).describe("Levels of children to include (default 1)"),
    maxNodes: z.number().int().min(1).max(2000).default(300).describe("Most layers to include (default 300)"),
  },
  annotations: READ,
});
