// Shapes the fotos tools and resources share (structuredContent and resource JSON).
import { z } from "zod";
import type { OcrResult } from "../../platform/ocr.js";
import { SCREENSHOT_MODES } from "./screenshots.js";
import { RECHECK, REDACTED_WHERE, type RedactionInfo } from "./pii/types.js";
import { detectionSchema, deviceRedactionSchema } from "../../contracts/fotos-agent.js";
import { invalidInput } from "../../core/errors.js";
import { inputError } from "../../mcp/validation.js";

export { detectionSchema };
export const redactionSchema = z.object({
  where: z.enum(REDACTED_WHERE).describe("device: redacted on the user's computer before upload (the unredacted image never left it); function: a redacted copy made by auto_redact_pii"),
  detections: z.array(detectionSchema).describe("What was covered: type and box (pixels), never the text"),
  recheck: z.enum(RECHECK).describe("OCR of the redacted image: clean, found_more (covered too), not_needed (nothing was found)"),
});

export const screenshotMetaSchema = z.object({
  id: z.string().describe("Screenshot id (UUID); read screenshots://{id} for the full-resolution PNG"),
  width: z.number().int(),
  height: z.number().int(),
  createdAt: z.string().describe("When it was taken (ISO 8601, UTC)"),
  mode: z.enum(SCREENSHOT_MODES),
  monitorIndex: z.number().int().optional(),
  windowTitle: z.string().optional().describe("The window_title asked for (window mode)"),
  sourceId: z.string().optional().describe("The screenshot this one was made from (annotated, redacted)"),
  bytes: z.number().int().describe("Size of the original PNG"),
  expiresAt: z.string().describe("When it will be deleted (ISO 8601)"),
  redaction: redactionSchema.optional().describe("Set when PII was redacted"),
});

/** An upload's ?redaction=<JSON> (contracts/fotos-agent.ts): what the computer found and covered before the upload. */
export function deviceRedaction(raw: unknown): RedactionInfo | undefined {
  if (raw === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(String(raw));
  } catch {
    throw invalidInput("redaction must be JSON: {detections: [{type, x, y, w, h}], recheck}");
  }
  const parsed = deviceRedactionSchema.safeParse(json);
  if (!parsed.success) throw inputError(parsed.error);
  return { where: "device", ...parsed.data };
}

export const screenshotUri = (id: string) => `screenshots://${id}`;

/** OCR as the tool and resource return it: no line indexes. */
export const publicOcr = (r: OcrResult) => ({ language: r.language, engine: r.engine, text: r.text, regions: r.regions });
