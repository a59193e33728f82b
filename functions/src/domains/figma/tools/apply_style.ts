// apply_style: a paint, text, effect or grid style on a layer, by id.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

export const applyStyle = figmaTool({
  name: "apply_style",
  title: "Apply style",
  description:
    "Applies a local style by id (get_styles lists them): a paint style to the fills (target \"fill\", default) or strokes (\"stroke\"), a text style to a text layer, an effect style, or a grid style to a frame.",
  args: {
    nodeId: nodeId("The layer"),
    styleId: z.string().min(1).max(300).describe('The style\'s id as get_styles gives it, e.g. "S:0f3a…,12:3"'),
    target: z.enum(["fill", "stroke"]).optional().describe("For a paint style: fill (default) or stroke"),
  },
  annotations: UPDATE,
});
