// boolean_operation: union, subtract, intersect or exclude layers into one shape.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { CREATE, nodeIds } from "../schema.js";

export const booleanOperation = figmaTool({
  name: "boolean_operation",
  title: "Boolean operation",
  description: "Combines shapes into one boolean layer: UNION, SUBTRACT (the first minus the others), INTERSECT or EXCLUDE, in the first layer's parent. Returns the new layer.",
  args: {
    nodeIds: nodeIds(100).min(2),
    operation: z.enum(["UNION", "SUBTRACT", "INTERSECT", "EXCLUDE"]).describe("The operation"),
    name: z.string().min(1).max(200).optional().describe("The new layer's name"),
  },
  annotations: CREATE,
});
