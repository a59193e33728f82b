import { z } from "zod";
import { tool } from "../../../mcp/define.js";
import { annotationsSchema } from "../annotate/schema.js";
import { renderAnnotations } from "../annotate/render.js";
import { backendOf } from "../backend.js";
import { modelImageContent } from "../image.js";

export const annotateScreenshotTool = tool(
  {
    name: "annotate_screenshot",
    title: "Annotate a screenshot",
    description:
      "Draws annotations on a screenshot in array order and returns the annotated image (PNG). Types: rect and ellipse (x, y, width, height), " +
      "arrow (points from tail to head, or x, y, width, height from tail to head), text (x, y = top-left, text; height = font size, default 16), " +
      "blur (x, y, width, height: the region is blurred). color defaults to #FF0000, stroke_width to 2. Coordinates are the screenshot's pixels; " +
      "parts outside the image are clipped. The result is stored as a new screenshot (its id is returned); the original is unchanged.",
    inputSchema: z.object({
      screenshot_id: z.string().min(1).max(100).describe("ID of the screenshot to annotate"),
      annotations: annotationsSchema.describe("Annotations, drawn in this order"),
    }),
    outputSchema: z.object({
      screenshot_id: z.string().describe("ID of the new, annotated screenshot"),
      source_id: z.string(),
      width: z.number(),
      height: z.number(),
      annotations: z.number(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  async ({ screenshot_id, annotations }, ctx) => {
    const fotos = backendOf(ctx);
    const { png } = await fotos.load(screenshot_id);
    await fotos.useQuota("annotation");
    const annotated = await renderAnnotations(png, annotations);
    const meta = await fotos.save(annotated, { mode: "annotated", sourceId: screenshot_id });
    const data = { screenshot_id: meta.id, source_id: screenshot_id, width: meta.width, height: meta.height, annotations: annotations.length };
    return {
      data,
      text: `Annotated screenshot ${meta.id} (${meta.width}×${meta.height}, ${annotations.length} annotation${annotations.length === 1 ? "" : "s"}) made from ${screenshot_id}. Full resolution: screenshots://${meta.id}`,
      content: [await modelImageContent(annotated)],
    };
  },
);
