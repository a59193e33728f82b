import { z } from "zod";
import { tool } from "../../../mcp/define.js";
import { PII_TYPES } from "../pii/types.js";
import { summarize } from "../pii/summary.js";
import { redactionInfo } from "../pii/redact-screen.js";
import { modelImageContent } from "../image.js";
import { detectionSchema } from "../schema.js";
import { backendOf } from "../backend.js";
import { redactStored } from "../source.js";


export const autoRedactPiiTool = tool(
  {
    name: "auto_redact_pii",
    title: "Redact personal data in a screenshot",
    description:
      `Finds personal data and secrets in a screenshot with OCR (${PII_TYPES.join(", ")}) and covers each one with a solid box, then reads the redacted image once more and covers whatever still matches. ` +
      "Returns the redacted image, the detections (type and box in the screenshot's pixels) and whether that re-check came back clean. The redacted copy is stored as a new screenshot; " +
      "when nothing is found the original is returned unchanged with an empty detections array.",
    inputSchema: z.object({
      screenshot_id: z.string().min(1).max(100).describe("ID of the screenshot to redact"),
    }),
    outputSchema: z.object({
      screenshot_id: z.string().describe("ID of the redacted copy (the original's id when nothing was found)"),
      source_id: z.string(),
      redacted: z.boolean(),
      detections: z.array(detectionSchema),
      recheck: z
        .enum(["clean", "found_more", "not_needed"])
        .describe("OCR of the redacted image: clean (no PII read back), found_more (more was found and covered too), not_needed (nothing was found, nothing changed)"),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  },
  async ({ screenshot_id }, ctx) => {
    const fotos = backendOf(ctx);
    const [{ meta, png }, settings] = await Promise.all([fotos.load(screenshot_id), fotos.settings()]);
    await fotos.useQuota("redaction");
    const out = await redactStored(fotos, meta, png, settings);
    if (!out.detections.length) {
      return {
        data: { screenshot_id, source_id: screenshot_id, redacted: false, detections: [], recheck: "not_needed" as const },
        text: `No personal data found in screenshot ${screenshot_id}; the image is unchanged.`,
        content: [await modelImageContent(png)],
      };
    }
    const copy = await fotos.save(out.png, { mode: "redacted", sourceId: screenshot_id, redaction: redactionInfo("function", out) });
    const recheck = out.recheck.clean ? ("clean" as const) : ("found_more" as const);
    const checked = out.recheck.clean
      ? "A second OCR of the redacted copy read no personal data."
      : `A second OCR of the redacted copy found ${out.recheck.found} more, now covered too.`;
    return {
      data: { screenshot_id: copy.id, source_id: screenshot_id, redacted: true, detections: out.detections, recheck },
      text: `Redacted ${summarize(out.detections)} in screenshot ${screenshot_id}; the redacted copy is screenshot ${copy.id} (screenshots://${copy.id}). ${checked}\n\n${JSON.stringify({ detections: out.detections })}`,
      content: [await modelImageContent(out.png)],
    };
  },
);
