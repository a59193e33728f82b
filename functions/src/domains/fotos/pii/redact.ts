// Covers detected PII so it cannot be read back: a solid fill over each box with a margin (OCR
// boxes hug the glyphs and can be a little short; anti-aliased edges, descenders and a character
// OCR missed at either end must go too). Solid, not blurred: blurred or pixelated text can often
// be read back (by eye for large text, or by matching candidate strings rendered and blurred the
// same way), and a fill leaves nothing to recover. Black, except on a dark background, where a
// black box would vanish and nobody could tell that something was covered: there mid gray.
import type { Detection } from "./detect.js";
import { DECODE_LIMIT } from "../../../core/pixels.js";

const FILL = "#000000";
const FILL_ON_DARK = "#808080";

/** The rectangle a detection is covered with: its box plus a margin, clipped to the image. */
export function coverBox(d: Detection, width: number, height: number): { x: number; y: number; w: number; h: number } {
  const padY = Math.max(3, Math.round(d.h * 0.3));
  const padX = Math.max(4, Math.round(d.h * 0.6));
  const x = Math.max(0, d.x - padX);
  const y = Math.max(0, d.y - padY);
  return { x, y, w: Math.min(width, d.x + d.w + padX) - x, h: Math.min(height, d.y + d.h + padY) - y };
}

/** The redacted image; the input itself when there is nothing to cover. */
export async function redact(png: Buffer, detections: Detection[]): Promise<Buffer> {
  if (!detections.length) return png;
  const { default: sharp } = await import("sharp");
  const { data: gray, info } = await sharp(png, DECODE_LIMIT).flatten({ background: "#ffffff" }).grayscale().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const rects = detections
    .map((d) => coverBox(d, width, height))
    .filter((r) => r.w > 0 && r.h > 0)
    .map((r) => `<rect x="${r.x}" y="${r.y}" width="${r.w}" height="${r.h}" fill="${meanLevel(gray, width, r) < 80 ? FILL_ON_DARK : FILL}"/>`)
    .join("");
  const overlay = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${rects}</svg>`);
  return sharp(png, DECODE_LIMIT).composite([{ input: overlay, top: 0, left: 0 }]).png().toBuffer();
}

/** Mean gray level (0–255) of a rectangle: the background a box sits on (text covers little of it). */
function meanLevel(gray: Buffer, width: number, r: { x: number; y: number; w: number; h: number }): number {
  let sum = 0;
  for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) sum += gray[y * width + x]!;
  return sum / (r.w * r.h);
}
