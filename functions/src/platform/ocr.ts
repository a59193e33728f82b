// OCR of screenshots behind one interface, whichever engine runs:
// - "vision": Cloud Vision documentTextDetection (@google-cloud/vision) — production;
// - "tesseract" (embedded default): tesseract.js with language data shipped as npm packages.
// Selected by OCR_ENGINE=vision|tesseract; when unset: vision in a deployed function (Cloud Run
// sets K_SERVICE; the emulator also sets FUNCTIONS_EMULATOR) or when VISION_API_ENDPOINT is set,
// tesseract everywhere else. Every result is in the original image's pixels.
import { isDeployed } from "../core/where.js";
import type { OcrEngine, OcrEngineName, OcrLanguage, OcrResult } from "./ocr-result.js";

export { joinLines, lineText, OCR_LANGUAGES, ocrLanguage, splitAtGaps, type OcrEngine, type OcrEngineName, type OcrLanguage, type OcrRegion, type OcrResult } from "./ocr-result.js";

export function configuredOcrEngine(env: NodeJS.ProcessEnv = process.env): OcrEngineName {
  const value = (env.OCR_ENGINE || (isDeployed(env) || env.VISION_API_ENDPOINT ? "vision" : "tesseract")).trim().toLowerCase();
  if (value === "vision" || value === "tesseract") return value;
  throw new Error(`OCR_ENGINE must be "vision" or "tesseract", not "${value}"`);
}

let shared: Promise<OcrEngine> | undefined;

/** The OCR engine of this process (created once; the client or warm workers are reused). */
export function ocrEngine(): Promise<OcrEngine> {
  shared ??= createOcrEngine(configuredOcrEngine()).catch((err) => {
    shared = undefined;
    throw err;
  });
  return shared;
}

export async function createOcrEngine(name: OcrEngineName): Promise<OcrEngine> {
  if (name === "vision") {
    const { VisionOcr } = await import("./ocr-vision.js");
    return new VisionOcr();
  }
  const { TesseractOcr } = await import("./ocr-tesseract.js");
  return new TesseractOcr();
}

/** Runs OCR with this process's engine. */
export async function recognize(png: Buffer, language: OcrLanguage): Promise<OcrResult> {
  return (await ocrEngine()).recognize(png, language);
}
