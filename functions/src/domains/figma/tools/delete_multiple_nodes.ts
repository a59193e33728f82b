// delete_multiple_nodes: removes several layers; reports each.
import { figmaTool } from "../figma-tool.js";
import { DELETE, nodeIds } from "../schema.js";

export const deleteMultipleNodes = figmaTool({
  name: "delete_multiple_nodes",
  title: "Delete multiple nodes",
  description: "Deletes up to 200 layers; the answer lists which were deleted and which were not found.",
  args: { nodeIds: nodeIds(200) },
  annotations: DELETE,
});
