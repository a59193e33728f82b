// screenshots://{id}/ocr — the cached OCR of a screenshot (the newest, whichever language), or,
// when none exists yet, OCR in English run now and cached.
import { resourceTemplate } from "../../../mcp/define.js";
import { jsonText } from "../../../mcp/content.js";
import { backendOf } from "../backend.js";
import { publicOcr } from "../schema.js";

export const screenshotOcrResource = resourceTemplate(
  {
    name: "screenshot-ocr",
    uriTemplate: "screenshots://{id}/ocr",
    title: "OCR of a screenshot",
    description: "Text and per-word regions of a screenshot: the cached OCR result (from ocr_screenshot), or English OCR run on demand and cached.",
    mimeType: "application/json",
  },
  async (uri, { id }, ctx) => {
    const fotos = backendOf(ctx);
    const screenshotId = id ?? ""; // already decoded by the server (a second decode could throw on "%")
    await fotos.meta(screenshotId); // not found (or expired) before any cache lookup
    let result = await fotos.cachedOcr(screenshotId);
    let cached = true;
    if (!result) {
      const { meta, png } = await fotos.load(screenshotId);
      ({ result, cached } = await fotos.ocr(meta, png, "eng"));
    }
    return { contents: [{ uri: uri.href, mimeType: "application/json", text: jsonText({ screenshot_id: screenshotId, ...publicOcr(result), cached }) }] };
  },
);
