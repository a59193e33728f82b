// screenshots://{id}/ocr — the cached OCR of a screenshot (the newest, whichever language), or,
// when none exists yet, OCR in English run now and cached.
import { resourceTemplate } from "../../../mcp/signed-in.js";
import { jsonText } from "../../../mcp/content.js";
import { cachedOcr, ocrScreenshot, publicOcr } from "../ocr-cache.js";
import { loadScreenshot, getScreenshotMeta } from "../store.js";
import { uidOf } from "../source.js";

export const screenshotOcrResource = resourceTemplate(
  {
    name: "screenshot-ocr",
    uriTemplate: "screenshots://{id}/ocr",
    title: "OCR of a screenshot",
    description: "Text and per-word regions of a screenshot: the cached OCR result (from ocr_screenshot), or English OCR run on demand and cached.",
    mimeType: "application/json",
  },
  async (uri, { id }, ctx) => {
    const uid = uidOf(ctx);
    const screenshotId = id ?? ""; // already decoded by the server (a second decode could throw on "%")
    await getScreenshotMeta(uid, screenshotId); // not found (or expired) before any cache lookup
    let result = await cachedOcr(uid, screenshotId);
    let cached = true;
    if (!result) {
      const { meta, png } = await loadScreenshot(uid, screenshotId);
      ({ result, cached } = await ocrScreenshot(uid, meta, png, "eng"));
    }
    return { contents: [{ uri: uri.href, mimeType: "application/json", text: jsonText({ screenshot_id: screenshotId, ...publicOcr(result), cached }) }] };
  },
);
