// What this part of the domain adds to the fotos index: OCR, annotation, redaction, analysis,
// the OCR resource and the four prompts (one import and four spreads in index.ts).
import { analyzeScreenshotTool } from "./tools/analyze_screenshot.js";
import { annotateScreenshotTool } from "./tools/annotate_screenshot.js";
import { autoRedactPiiTool } from "./tools/auto_redact_pii.js";
import { ocrScreenshotTool } from "./tools/ocr_screenshot.js";
import { screenshotOcrResource } from "./resources/ocr.js";
import { visionPrompts } from "./prompts/prompts.js";
import { uploadRoute } from "./routes/upload.js";

export const visionTools = [ocrScreenshotTool, annotateScreenshotTool, analyzeScreenshotTool, autoRedactPiiTool];
export const visionResources = [screenshotOcrResource];
export const visionRoutes = [uploadRoute];
export { visionPrompts };

export const VISION_INSTRUCTIONS = [
  "ocr_screenshot {screenshot_id?, language eng|deu|jpn} reads the text with word boxes (also screenshots://{id}/ocr);",
  "annotate_screenshot draws arrows, boxes, ellipses, text and blurs and stores the result as a new screenshot;",
  "auto_redact_pii covers emails, phone numbers, SSNs, card numbers, API keys and IP addresses before you share a screenshot;",
  "analyze_screenshot {prompt, provider claude|openai|gemini|ollama} asks a vision model. Tools that take an optional screenshot_id capture a new fullscreen screenshot when it is omitted.",
].join(" ");
