// The whole redaction of one screenshot, the same wherever it runs (the fotos function, and the
// desktop agent before an upload): OCR → detection → solid boxes → OCR of the redacted image once
// more → whatever still matches is covered too. The result says whether that second reading came
// back clean. No Firebase here: the agent bundles this file with the OCR engine it is given.
// The second reading covers the band of rows the boxes changed (with two line heights around
// them): elsewhere the image is as it was, and reads as it did.
import type { OcrEngine, OcrResult } from "../../../platform/ocr.js";
import { detectPii, type DetectOptions, type Detection } from "./detect.js";
import { redact } from "./redact.js";
import type { RedactionInfo } from "./types.js";
import { DECODE_LIMIT } from "../../../core/pixels.js";

export interface RedactionResult {
  /** The redacted PNG; the input itself when nothing was found. */
  png: Buffer;
  /** Everything covered: the first reading's detections, then the re-check's. */
  detections: Detection[];
  /**
   * The re-check: OCR of the redacted image read no PII (`clean`), or it found more, which was
   * covered too (`found` items). Not run when the first reading found nothing (the image is unchanged).
   */
  recheck: { ran: boolean; clean: boolean; found: number };
}

/** What a stored screenshot records about its redaction. */
export const redactionInfo = (where: RedactionInfo["where"], r: RedactionResult): RedactionInfo => ({
  where,
  detections: r.detections,
  recheck: !r.recheck.ran ? "not_needed" : r.recheck.clean ? "clean" : "found_more",
});

export interface RedactOptions extends DetectOptions {
  /** The first reading, when the caller already has it (the function's OCR cache). */
  ocr?: OcrResult;
}

export async function redactScreenshot(engine: OcrEngine, png: Buffer, opts: RedactOptions = {}): Promise<RedactionResult> {
  const first = opts.ocr ?? (await engine.recognize(png, "eng"));
  const detections = await detectPii(first, opts);
  if (!detections.length) return { png, detections, recheck: { ran: false, clean: true, found: 0 } };
  let redacted = await redact(png, detections);
  const again = await detectPii(await readChangedBand(engine, redacted, detections), opts);
  if (again.length) {
    redacted = await redact(redacted, again);
    detections.push(...again);
  }
  return { png: redacted, detections, recheck: { ran: true, clean: again.length === 0, found: again.length } };
}

/** OCR of the rows the boxes changed (the whole width, a margin of two line heights), in the image's pixels. */
async function readChangedBand(engine: OcrEngine, png: Buffer, boxes: Detection[]): Promise<OcrResult> {
  const { default: sharp } = await import("sharp");
  const { height = 0, width = 0 } = await sharp(png, DECODE_LIMIT).metadata();
  const margin = 2 * Math.max(...boxes.map((b) => b.h));
  const top = Math.max(0, Math.min(...boxes.map((b) => b.y)) - margin);
  const bottom = Math.min(height, Math.max(...boxes.map((b) => b.y + b.h)) + margin);
  if (top === 0 && bottom === height) return engine.recognize(png, "eng");
  const band = await sharp(png, DECODE_LIMIT).extract({ left: 0, top, width, height: bottom - top }).png({ compressionLevel: 1 }).toBuffer();
  const result = await engine.recognize(band, "eng");
  return { ...result, regions: result.regions.map((r) => ({ ...r, y: r.y + top })) };
}
