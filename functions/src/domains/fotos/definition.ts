// The fotos MCP server's members and identity — the six tools, four resources and four prompts of
// the seed — independent of where they run: the `fotos` function serves them with the cloud
// backend (index.ts), `fotos-agent mcp` over stdio with a local one. See backend.ts.
import { visionPrompts } from "./prompts/prompts.js";
import { screenshotOcrResource } from "./resources/ocr.js";
import { recentScreenshots, screenshotResource } from "./resources/screenshots.js";
import { currentSettings } from "./resources/settings.js";
import { analyzeScreenshotTool } from "./tools/analyze_screenshot.js";
import { annotateScreenshotTool } from "./tools/annotate_screenshot.js";
import { autoRedactPiiTool } from "./tools/auto_redact_pii.js";
import { listScreenshots } from "./tools/list_screenshots.js";
import { ocrScreenshotTool } from "./tools/ocr_screenshot.js";
import { takeScreenshot } from "./tools/take_screenshot.js";

export const fotosServer = {
  name: "fotos",
  serverName: "fotos",
  title: "Fotos",
  description: "AI-powered screenshot capture, annotation, and analysis",
  tools: [takeScreenshot, listScreenshots, ocrScreenshotTool, annotateScreenshotTool, analyzeScreenshotTool, autoRedactPiiTool],
  resources: [recentScreenshots, screenshotResource, currentSettings, screenshotOcrResource],
  prompts: visionPrompts,
};

/** What the tools do besides capturing (the same words wherever the server runs). */
export const VISION_INSTRUCTIONS = [
  "ocr_screenshot {screenshot_id?, language eng|deu|jpn} reads the text with word boxes (also screenshots://{id}/ocr);",
  "annotate_screenshot draws arrows, boxes, ellipses, text and blurs and stores the result as a new screenshot;",
  "auto_redact_pii covers emails, phone numbers, SSNs, card numbers, API keys and IP addresses before you share a screenshot;",
  "analyze_screenshot {prompt, provider claude|openai|gemini|ollama} asks a vision model. Tools that take an optional screenshot_id capture a new fullscreen screenshot when it is omitted.",
].join(" ");
