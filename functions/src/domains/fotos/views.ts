// The fotos domain's view in the conversation (built from views/screenshot.ts).
import { viewResource } from "../../mcp/view.js";

export const SCREENSHOT_VIEW = viewResource({
  domain: "fotos",
  name: "screenshot",
  title: "Screenshot",
  description: "The screenshot at full resolution (read through the server) with what the tool did over it: redaction boxes with their types, OCR words to hover, the annotations drawn.",
});

const VIEWED = ["take_screenshot", "ocr_screenshot", "annotate_screenshot", "auto_redact_pii"];

/**
 * The function's tools with their view. Only the function serves views: `fotos-agent mcp` (the same
 * definitions over stdio) has no built views to serve, so its tools stay as they are.
 */
export function withScreenshotView<T extends { name: string }>(tools: T[]): (T & { ui?: { resourceUri: string } })[] {
  return tools.map((t) => (VIEWED.includes(t.name) ? { ...t, ui: { resourceUri: SCREENSHOT_VIEW.uri } } : t));
}
