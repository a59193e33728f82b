// ungroup_node: a group's layers back into its parent.
import { figmaTool } from "../figma-tool.js";
import { DELETE, nodeId } from "../schema.js";

export const ungroupNode = figmaTool({
  name: "ungroup_node",
  title: "Ungroup",
  description: "Removes a group, keeping its layers where they are in its parent. Returns their ids.",
  args: { nodeId: nodeId("The group") },
  annotations: DELETE,
});
