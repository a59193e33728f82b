import { z } from "zod";
import { tool } from "../../../mcp/define.js";
import { detectPii, PII_TYPES } from "../pii/detect.js";
import { redact } from "../pii/redact.js";
import { backendOf } from "../backend.js";
import { modelImageContent } from "../image.js";

export const autoRedactPiiTool = tool(
  {
    name: "auto_redact_pii",
    title: "Redact personal data in a screenshot",
    description:
      `Finds personal data and secrets in a screenshot with OCR (${PII_TYPES.join(", ")}) and covers each one with a solid box. ` +
      "Returns the redacted image and the detections (type and box in the screenshot's pixels). The redacted copy is stored as a new screenshot; " +
      "when nothing is found the original is returned unchanged with an empty detections array.",
    inputSchema: z.object({
      screenshot_id: z.string().min(1).max(100).describe("ID of the screenshot to redact"),
    }),
    outputSchema: z.object({
      screenshot_id: z.string().describe("ID of the redacted copy (the original's id when nothing was found)"),
      source_id: z.string(),
      redacted: z.boolean(),
      detections: z.array(z.object({ type: z.enum(PII_TYPES), x: z.number(), y: z.number(), w: z.number(), h: z.number() })),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  async ({ screenshot_id }, ctx) => {
    const fotos = backendOf(ctx);
    const { meta, png } = await fotos.load(screenshot_id);
    const { result } = await fotos.ocr(meta, png, "eng");
    const detections = detectPii(result);
    if (!detections.length) {
      return {
        data: { screenshot_id, source_id: screenshot_id, redacted: false, detections: [] },
        text: `No personal data found in screenshot ${screenshot_id}; the image is unchanged.`,
        content: [await modelImageContent(png)],
      };
    }
    const redactedPng = await redact(png, detections);
    const copy = await fotos.save(redactedPng, { mode: "redacted", sourceId: screenshot_id });
    const counts = Object.entries(detections.reduce<Record<string, number>>((acc, d) => ({ ...acc, [d.type]: (acc[d.type] ?? 0) + 1 }), {}))
      .map(([type, n]) => `${n} ${type}`)
      .join(", ");
    return {
      data: { screenshot_id: copy.id, source_id: screenshot_id, redacted: true, detections },
      text: `Redacted ${detections.length} item${detections.length === 1 ? "" : "s"} (${counts}) in screenshot ${screenshot_id}; the redacted copy is screenshot ${copy.id} (screenshots://${copy.id}).\n\n${JSON.stringify({ detections })}`,
      content: [await modelImageContent(redactedPng)],
    };
  },
);
