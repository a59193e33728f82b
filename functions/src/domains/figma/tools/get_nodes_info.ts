// get_nodes_info: several layers at once (no children), and which ids were not found.
import { figmaTool } from "../figma-tool.js";
import { nodeIds, READ } from "../schema.js";

export const getNodesInfo = figmaTool({
  name: "get_nodes_info",
  title: "Get nodes info",
  description: "Details of several layers at once (as get_node_info with depth 0), in the order asked; ids that do not exist are listed in notFound.",
  args: { nodeIds: nodeIds(100) },
  annotations: READ,
});
