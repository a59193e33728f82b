// What the fotos domain publishes to other hosts of its server (`fotos-agent mcp`, the desktop
// agent's on-device redaction): its definitions, the backend contract, and the shared code they
// run on. desktop-agent/ imports functions/src only through this file and contracts/ (deploy:check
// holds it to that), so what the agent bundles is chosen here, not picked file by file.
export { fotosServer, VISION_INSTRUCTIONS } from "./definition.js";
export type { BackendFactory, CapturedScreenshot, FotosBackend } from "./backend.js";
export { captureRedaction, settingsFrom, type Settings } from "./settings.js";
export { captureError, MAX_DELAY_MS, MAX_LIST, MAX_PNG_BYTES, pngSize, SCREENSHOT_ID, screenshotNotFound, windowTitleRequired, type CaptureArgs, type NewScreenshot, type ScreenshotMeta } from "./screenshots.js";
export { redactionInfo, redactScreenshot } from "./pii/redact-screen.js";
export { summarize } from "./pii/summary.js";
export type { RedactionInfo } from "./pii/types.js";
// The server, its scope and the shared helpers the definitions run on.
export { createServer } from "../../mcp/server.js";
export { newScope } from "../../handler/scope.js";
export { OPEN, type DomainDefinition, type ErrorResult, type RequestContext, type StructuredResult } from "../../mcp/define.js";
export { ToolError, unauthenticated, unavailable } from "../../core/errors.js";
export { envNumber } from "../../core/env.js";
export { DECODE_LIMIT } from "../../core/pixels.js";
export { createLogger } from "../../core/log.js";
export type { OcrLanguage, OcrResult } from "../../platform/ocr.js";
export { TesseractOcr } from "../../platform/ocr-tesseract.js";
export { sayWhereKeysAreSet, visionAdapter } from "../../platform/vision-llm.js";
