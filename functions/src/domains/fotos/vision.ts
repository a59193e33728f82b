// What this part of the domain adds to the fotos index: OCR, annotation, redaction, analysis,
// the OCR resource and the four prompts (one import and three spreads in index.ts).
import { analyzeScreenshotTool } from "./tools/analyze_screenshot.js";
import { annotateScreenshotTool } from "./tools/annotate_screenshot.js";
import { autoRedactPiiTool } from "./tools/auto_redact_pii.js";
import { ocrScreenshotTool } from "./tools/ocr_screenshot.js";
import { screenshotOcrResource } from "./resources/ocr.js";
import { visionPrompts } from "./prompts/prompts.js";

export const visionTools = [ocrScreenshotTool, annotateScreenshotTool, analyzeScreenshotTool, autoRedactPiiTool];
export const visionResources = [screenshotOcrResource];
export { visionPrompts };
