import { z } from "zod";
import { tool } from "../../../mcp/define.js";
import { OCR_LANGUAGES, ocrLanguage, type OcrLanguage } from "../../../platform/ocr.js";
import { invalidInput } from "../../../core/errors.js";
import { backendOf, type FotosBackend } from "../backend.js";
import { publicOcr } from "../schema.js";
import { screenshotOrCapture } from "../source.js";

const region = z.object({ text: z.string(), x: z.number(), y: z.number(), w: z.number(), h: z.number(), confidence: z.number() });

export const ocrScreenshotTool = tool(
  {
    name: "ocr_screenshot",
    title: "Read the text in a screenshot (OCR)",
    description:
      "Extracts the text of a screenshot with OCR: the full text plus every word with its bounding box (x, y, w, h in the screenshot's pixels) and confidence (0-1). " +
      `Without screenshot_id a new fullscreen screenshot is captured first (needs the Fotos agent running). language: ${OCR_LANGUAGES.join(", ")} (default: the one chosen in settings://current, else eng). Results are cached per screenshot and language.`,
    inputSchema: z.object({
      screenshot_id: z.string().min(1).max(100).optional().describe("ID of a screenshot; if omitted, a new fullscreen capture is taken first"),
      language: z.string().min(1).max(20).optional().describe(`OCR language code: ${OCR_LANGUAGES.join(", ")} (default: ai.ocrLanguage from settings://current, else eng)`),
    }),
    outputSchema: z.object({
      screenshot_id: z.string(),
      language: z.string(),
      engine: z.string(),
      text: z.string(),
      regions: z.array(region),
      cached: z.boolean(),
    }),
    annotations: { readOnlyHint: false, openWorldHint: false, idempotentHint: true },
  },
  async ({ screenshot_id, language }, ctx) => {
    const fotos = backendOf(ctx);
    const lang = language !== undefined ? ocrLanguage(language) : await languageFromSettings(fotos);
    const { meta, png } = await screenshotOrCapture(fotos, ctx, screenshot_id);
    const { result, cached } = await fotos.ocr(meta, png, lang);
    return { data: { screenshot_id: meta.id, ...publicOcr(result), cached } };
  },
);

/** The language stored in settings://current (ai.ocrLanguage), else eng; a bad stored value says where it comes from. */
async function languageFromSettings(fotos: FotosBackend): Promise<OcrLanguage> {
  const stored = (await fotos.aiChoice()).ocrLanguage;
  if (stored === undefined) return "eng";
  try {
    return ocrLanguage(stored);
  } catch {
    throw invalidInput(`The OCR language in your settings (ai.ocrLanguage "${stored}") is not supported: pass language (one of ${OCR_LANGUAGES.join(", ")}) or change the setting`);
  }
}
