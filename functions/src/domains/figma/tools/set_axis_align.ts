// set_axis_align: how an auto-layout frame aligns its children.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

export const setAxisAlign = figmaTool({
  name: "set_axis_align",
  title: "Set axis align",
  description: "Sets how an auto-layout frame aligns its children along its direction (primaryAxisAlignItems) and across it (counterAxisAlignItems).",
  args: {
    nodeId: nodeId("The auto-layout frame"),
    primaryAxisAlignItems: z.enum(["MIN", "MAX", "CENTER", "SPACE_BETWEEN"]).optional().describe("MIN, MAX, CENTER or SPACE_BETWEEN"),
    counterAxisAlignItems: z.enum(["MIN", "MAX", "CENTER", "BASELINE"]).optional().describe("MIN, MAX, CENTER or BASELINE"),
  },
  annotations: UPDATE,
});
