// resize_node: a layer to width × height.
import { figmaTool } from "../figma-tool.js";
import { nodeId, size, UPDATE } from "../schema.js";

export const resizeNode = figmaTool({
  name: "resize_node",
  title: "Resize node",
  description: "Resizes a layer to width × height.",
  args: { nodeId: nodeId(), width: size("New width"), height: size("New height") },
  annotations: UPDATE,
});
