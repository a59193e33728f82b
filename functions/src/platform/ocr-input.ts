// What tesseract is given, prepared from a screenshot: tesseract reads dark text on a light
// background, with some margin around it, at a text height of ~20–30 px. Screens break all three:
// dark themes and dark panels (light text on dark), text that touches the window's edge, and 11–13 px
// UI fonts. So: grayscale; every region whose background is dark is inverted (the background is
// estimated per tile, so a dark code panel on a light page turns light alone); the image is
// upscaled (windows and small screens 1.75×, larger ones 1.5×: OCR_UPSCALE_SMALL / _LARGE); and a white border
// is added. Boxes found on the prepared image map back with `toOriginal`.
import { envNumber } from "../core/env.js";
import { DECODE_LIMIT } from "../core/pixels.js";

/** Images up to this width are upscaled by OCR_UPSCALE_SMALL (OCR_UPSCALE_MAX_WIDTH). */
const UPSCALE_MAX_WIDTH = envNumber("OCR_UPSCALE_MAX_WIDTH", 1600);
/** Scale for windows and small screens (at 2× tesseract misread a terminal's first word at the window's edge). */
const UPSCALE_SMALL = envNumber("OCR_UPSCALE_SMALL", 1.75, { min: 1 });
/** Scale for images wider than that (OCR_UPSCALE_LARGE; 1 = as they are): 12 px UI text and a terminal's small bitmap font on a full-HD screen read (at 1.25× the bitmap font's letters at a window's edge are lost). */
const UPSCALE_LARGE = envNumber("OCR_UPSCALE_LARGE", 1.5, { min: 1 });
/** White border added on every side, in prepared pixels. */
const BORDER = 24;
/** Side of the tiles the background is estimated on. */
const TILE = 24;

export interface OcrInput {
  image: Buffer;
  /** Prepared pixels per original pixel. */
  scale: number;
  border: number;
}

export interface PrepareOptions {
  scale?: number;
  /** false: only grayscale and scale (what plain OCR gets; the bench compares). */
  normalize?: boolean;
}

export async function prepareForOcr(png: Buffer, opts: PrepareOptions = {}): Promise<OcrInput> {
  const { default: sharp } = await import("sharp");
  const { data, info } = await sharp(png, DECODE_LIMIT).flatten({ background: "#ffffff" }).grayscale().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const scale = opts.scale ?? (width <= UPSCALE_MAX_WIDTH ? UPSCALE_SMALL : UPSCALE_LARGE);
  const normalize = opts.normalize ?? true;
  const gray = normalize ? lightBackground(data, width, height) : data;
  let image = sharp(gray, { ...DECODE_LIMIT, raw: { width, height, channels: 1 } });
  if (scale !== 1) image = image.resize({ width: Math.round(width * scale), kernel: "lanczos3" });
  const border = normalize ? BORDER : 0;
  if (border) image = image.extend({ top: border, bottom: border, left: border, right: border, background: "#ffffff" });
  // One gray channel (extend and resize would hand on three): a third of the bytes to encode and for tesseract to decode.
  return { image: await image.toColourspace("b-w").png({ compressionLevel: 1 }).toBuffer(), scale, border };
}

/** A box on the prepared image, in the original's pixels (rounded outwards). */
export function toOriginal(input: Pick<OcrInput, "scale" | "border">, box: { x0: number; y0: number; x1: number; y1: number }) {
  const x = Math.max(0, Math.floor((box.x0 - input.border) / input.scale));
  const y = Math.max(0, Math.floor((box.y0 - input.border) / input.scale));
  return { x, y, w: Math.ceil((box.x1 - input.border) / input.scale) - x, h: Math.ceil((box.y1 - input.border) / input.scale) - y };
}

/**
 * Inverts every pixel whose surroundings are dark. The background of a tile is its most common
 * gray level (text, however dense or bold, covers less of it than the background does), counted
 * over the 3×3 tiles around it so a panel's edge does not flicker, except that a tile which is
 * itself clearly light stays as it is; light text on dark becomes dark text on light.
 */
function lightBackground(gray: Buffer, width: number, height: number): Buffer {
  const BINS = 16;
  const tw = Math.ceil(width / TILE);
  const th = Math.ceil(height / TILE);
  const hist = new Uint32Array(tw * th * BINS);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / TILE) * tw;
    for (let x = 0; x < width; x++) hist[(row + Math.floor(x / TILE)) * BINS + (gray[y * width + x]! >> 4)]!++;
  }
  const dark = new Uint8Array(tw * th);
  let any = false;
  const sum = new Uint32Array(BINS);
  for (let ty = 0; ty < th; ty++) {
    for (let tx = 0; tx < tw; tx++) {
      sum.fill(0);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const x = tx + dx;
          const y = ty + dy;
          if (x < 0 || y < 0 || x >= tw || y >= th) continue;
          const t = (y * tw + x) * BINS;
          for (let b = 0; b < BINS; b++) sum[b]! += hist[t + b]!;
        }
      }
      let mode = 0;
      for (let b = 1; b < BINS; b++) if (sum[b]! > sum[mode]!) mode = b;
      // A tile that is itself clearly light keeps its background whatever its neighbours are (a
      // window's first word, drawn at its edge on a dark desktop).
      const t = (ty * tw + tx) * BINS;
      let own = 0;
      let total = 0;
      for (let b = 0; b < BINS; b++) {
        total += hist[t + b]!;
        if (hist[t + b]! > hist[t + own]!) own = b;
      }
      const clearlyLight = own >= 12 && hist[t + own]! >= total * 0.4;
      if (mode < BINS / 2 && !clearlyLight) {
        dark[ty * tw + tx] = 1;
        any = true;
      }
    }
  }
  if (!any) return gray;
  const out = Buffer.from(gray);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / TILE) * tw;
    for (let x = 0; x < width; x++) if (dark[row + Math.floor(x / TILE)]) out[y * width + x] = 255 - out[y * width + x]!;
  }
  return out;
}
