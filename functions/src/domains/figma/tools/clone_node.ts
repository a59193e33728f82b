// clone_node: a copy of a layer beside it (or at x, y).
import { figmaTool } from "../figma-tool.js";
import { coordinate, CREATE, nodeId } from "../schema.js";

export const cloneNode = figmaTool({
  name: "clone_node",
  title: "Clone node",
  description: "Duplicates a layer (in the same parent), optionally placed at x, y. Returns the copy's id.",
  args: { nodeId: nodeId(), x: coordinate("X of the copy").optional(), y: coordinate("Y of the copy").optional() },
  annotations: CREATE,
});
