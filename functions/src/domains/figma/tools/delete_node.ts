// delete_node: removes one layer.
import { figmaTool } from "../figma-tool.js";
import { DELETE, nodeId } from "../schema.js";

export const deleteNode = figmaTool({
  name: "delete_node",
  title: "Delete node",
  description: "Deletes a layer and everything inside it (the user can undo in Figma).",
  args: { nodeId: nodeId() },
  annotations: DELETE,
});
