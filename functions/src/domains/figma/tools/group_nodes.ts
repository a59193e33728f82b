// group_nodes: several layers into one group.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { CREATE, nodeIds } from "../schema.js";

export const groupNodes = figmaTool({
  name: "group_nodes",
  title: "Group layers",
  description: "Groups layers (in the first one's parent), optionally named. Returns the group.",
  args: { nodeIds: nodeIds(200), name: z.string().min(1).max(200).optional().describe("The group's name") },
  annotations: CREATE,
});
