// set_annotations: write Dev Mode annotations on a layer (replace its list, or append to it).
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

const PROPERTY_TYPES = [
  "width", "height", "maxWidth", "minWidth", "maxHeight", "minHeight", "fills", "strokes", "effects", "strokeWeight", "cornerRadius",
  "textStyleId", "textAlignHorizontal", "fontFamily", "fontStyle", "fontSize", "fontWeight", "lineHeight", "letterSpacing", "itemSpacing",
  "padding", "layoutMode", "alignItems", "opacity", "mainComponent",
] as const;

export const setAnnotations = figmaTool({
  name: "set_annotations",
  title: "Set annotations",
  description:
    "Writes Dev Mode annotations on a layer: each a note (label, or labelMarkdown with **bold**, lists, links), pinned properties Dev Mode shows with their values, and an optional category by label. " +
    'mode "replace" (default) sets the layer\'s list to these (an empty list removes them all); "append" adds them.',
  args: {
    nodeId: nodeId("The layer"),
    annotations: z
      .array(
        z.object({
          label: z.string().min(1).max(5_000).optional().describe("Plain-text note"),
          labelMarkdown: z.string().min(1).max(5_000).optional().describe("Note in Markdown (instead of label)"),
          properties: z.array(z.enum(PROPERTY_TYPES)).max(20).optional().describe("Properties to pin, e.g. [\"width\", \"fills\"]"),
          category: z.string().max(100).optional().describe("An annotation category's label, e.g. \"Development\" (get_annotations lists them)"),
        }),
      )
      .max(50)
      .describe("The annotations"),
    mode: z.enum(["replace", "append"]).default("replace").describe('"replace" (default) or "append"'),
  },
  annotations: UPDATE,
});
