// Shapes the fotos tools and resources share (structuredContent and resource JSON).
import { z } from "zod";
import type { OcrResult } from "../../platform/ocr.js";
import { SCREENSHOT_MODES } from "./screenshots.js";

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
});

export const screenshotUri = (id: string) => `screenshots://${id}`;

/** OCR as the tool and resource return it: no line indexes. */
export const publicOcr = (r: OcrResult) => ({ language: r.language, engine: r.engine, text: r.text, regions: r.regions });
