// move_node: a layer to x, y.
import { figmaTool } from "../figma-tool.js";
import { coordinate, nodeId, UPDATE } from "../schema.js";

export const moveNode = figmaTool({
  name: "move_node",
  title: "Move node",
  description: "Moves a layer to x, y (in its parent's coordinates).",
  args: { nodeId: nodeId(), x: coordinate("New X"), y: coordinate("New Y") },
  annotations: UPDATE,
});
