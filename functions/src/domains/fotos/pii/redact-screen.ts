// The whole redaction of one screenshot, the same wherever it runs (the fotos function, and the
// desktop agent before an upload): OCR → detection → solid boxes → OCR of the redacted image once
// more → whatever still matches is covered too. The result says whether that second reading came
// back clean. No Firebase here: the agent bundles this file with the OCR engine it is given.
// The second reading covers the rows around each box (two line heights above and below, the whole
// width, so every line keeps its context), those bands stacked into one image: elsewhere the image
// is as it was, and reads as it did.
import type { OcrEngine, OcrResult } from "../../../platform/ocr.js";
import { detectPii, type DetectOptions, type Detection } from "./detect.js";
import { decodePixels, encodePixels, fillDetections, type Pixels } from "./redact.js";
import type { RedactionInfo } from "./types.js";

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
  const pixels = await decodePixels(png);
  fillDetections(pixels, detections);
  // The redacted image is encoded while the re-check reads it (two threads: sharp's and the OCR's).
  const [encoded, recheck] = await Promise.all([encodePixels(pixels), readChangedBand(engine, pixels, detections)]);
  const again = await detectPii(recheck, opts);
  if (!again.length) return { png: encoded, detections, recheck: { ran: true, clean: true, found: 0 } };
  fillDetections(pixels, again);
  detections.push(...again);
  return { png: await encodePixels(pixels), detections, recheck: { ran: true, clean: false, found: again.length } };
}

/** OCR of the areas around the boxes, stacked into one image; words come back in the image's pixels. */
async function readChangedBand(engine: OcrEngine, pixels: Pixels, boxes: Detection[]): Promise<OcrResult> {
  const { width, height, channels, data } = pixels;
  const areas = areasAround(boxes, width, height);
  const rows = areas.reduce((n, a) => n + a.h, 0);
  if (rows >= height) return engine.recognize(await encodePixels(pixels, 1), "eng");
  // Each area on its own strip, left-aligned; the rest of a strip white (opaque).
  const canvasWidth = Math.max(...areas.map((a) => a.w));
  const band = Buffer.alloc(canvasWidth * rows * channels, 255);
  const strips: { from: number; area: Area }[] = [];
  let from = 0;
  for (const area of areas) {
    strips.push({ from, area });
    for (let y = 0; y < area.h; y++) {
      const src = ((area.y + y) * width + area.x) * channels;
      data.copy(band, (from + y) * canvasWidth * channels, src, src + area.w * channels);
    }
    from += area.h;
  }
  const result = await engine.recognize(await encodePixels({ data: band, width: canvasWidth, height: rows, channels }, 1), "eng");
  // Each word back to its area (the strip its top is on).
  const stripOf = (y: number) => strips.findLast((s) => s.from <= y) ?? strips[0]!;
  return {
    ...result,
    regions: result.regions.map((r) => {
      const { from: f, area } = stripOf(r.y);
      return { ...r, x: r.x + area.x, y: r.y - f + area.y };
    }),
  };
}

interface Area {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Each box with one and a half line heights above and below and three to each side (what changed,
 * and the words beside it a reading uses), overlapping ones merged, top to bottom.
 */
function areasAround(boxes: Detection[], width: number, height: number): Area[] {
  const line = Math.max(...boxes.map((b) => b.h));
  let areas: Area[] = boxes.map((b) => clip({ x: b.x - 3 * line, y: b.y - 1.5 * line, w: b.w + 6 * line, h: b.h + 3 * line }, width, height));
  // Merge until no two overlap (a merge can make a new overlap).
  for (let merged = true; merged; ) {
    merged = false;
    const out: Area[] = [];
    for (const a of areas) {
      const k = out.findIndex((o) => a.x < o.x + o.w && o.x < a.x + a.w && a.y < o.y + o.h && o.y < a.y + a.h);
      if (k < 0) {
        out.push(a);
        continue;
      }
      const o = out[k]!;
      const x = Math.min(o.x, a.x);
      const y = Math.min(o.y, a.y);
      out[k] = { x, y, w: Math.max(o.x + o.w, a.x + a.w) - x, h: Math.max(o.y + o.h, a.y + a.h) - y };
      merged = true;
    }
    areas = out;
  }
  return areas.sort((a, b) => a.y - b.y);
}

function clip(a: Area, width: number, height: number): Area {
  const x = Math.max(0, Math.round(a.x));
  const y = Math.max(0, Math.round(a.y));
  return { x, y, w: Math.min(width, Math.round(a.x + a.w)) - x, h: Math.min(height, Math.round(a.y + a.h)) - y };
}
