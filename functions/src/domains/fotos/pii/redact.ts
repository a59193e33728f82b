// Covers detected PII so it cannot be read back: a solid fill over each box with a margin (OCR
// boxes hug the glyphs and can be a little short; anti-aliased edges, descenders and a character
// OCR missed at either end must go too). Solid, not blurred: blurred or pixelated text can often
// be read back (by eye for large text, or by matching candidate strings rendered and blurred the
// same way), and a fill leaves nothing to recover. Black, except on a dark background, where a
// black box would vanish and nobody could tell that something was covered: there mid gray.
// The image is decoded once into its pixels, filled there and encoded once (the re-check reads
// the filled pixels before they are encoded).
import type { Detection } from "./detect.js";
import { DECODE_LIMIT } from "../../../core/pixels.js";

const FILL = 0;
const FILL_ON_DARK = 128;

/** Decoded pixels: 1–4 channels of 8 bits (gray, gray+alpha, RGB, RGBA), row by row. */
export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

type Rect = { x: number; y: number; w: number; h: number };

/** The rectangle a detection is covered with: its box plus a margin, clipped to the image. */
export function coverBox(d: Detection, width: number, height: number): Rect {
  const padY = Math.max(3, Math.round(d.h * 0.3));
  const padX = Math.max(4, Math.round(d.h * 0.6));
  const x = Math.max(0, d.x - padX);
  const y = Math.max(0, d.y - padY);
  return { x, y, w: Math.min(width, d.x + d.w + padX) - x, h: Math.min(height, d.y + d.h + padY) - y };
}

export async function decodePixels(png: Buffer): Promise<Pixels> {
  const { default: sharp } = await import("sharp");
  const { data, info } = await sharp(png, DECODE_LIMIT).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

export async function encodePixels(p: Pixels, compressionLevel?: number): Promise<Buffer> {
  const { default: sharp } = await import("sharp");
  const { width, height, channels } = p;
  return sharp(p.data, { ...DECODE_LIMIT, raw: { width, height, channels: channels as 1 | 2 | 3 | 4 } }).png({ compressionLevel }).toBuffer();
}

/** Fills every detection's cover box in place; each fill's shade is chosen on the pixels as they were. */
export function fillDetections(p: Pixels, detections: Detection[]): void {
  const rects = detections.map((d) => coverBox(d, p.width, p.height)).filter((r) => r.w > 0 && r.h > 0);
  const shades = rects.map((r) => (meanLevel(p, r) < 80 ? FILL_ON_DARK : FILL));
  rects.forEach((r, k) => fill(p, r, shades[k]!));
}

/** The redacted image; the input itself when there is nothing to cover. */
export async function redact(png: Buffer, detections: Detection[]): Promise<Buffer> {
  if (!detections.length) return png;
  const pixels = await decodePixels(png);
  fillDetections(pixels, detections);
  return encodePixels(pixels);
}

const hasAlpha = (channels: number) => channels === 2 || channels === 4;

function fill(p: Pixels, r: Rect, level: number): void {
  const { data, width, channels } = p;
  const color = hasAlpha(channels) ? channels - 1 : channels;
  for (let y = r.y; y < r.y + r.h; y++) {
    for (let x = r.x; x < r.x + r.w; x++) {
      const i = (y * width + x) * channels;
      for (let c = 0; c < color; c++) data[i + c] = level;
      if (color < channels) data[i + color] = 255;
    }
  }
}

/** Mean gray level (0–255, on white where transparent) of a rectangle: the background a box sits on (text covers little of it). */
function meanLevel(p: Pixels, r: Rect): number {
  const { data, width, channels } = p;
  const rgb = channels >= 3;
  let sum = 0;
  for (let y = r.y; y < r.y + r.h; y++) {
    for (let x = r.x; x < r.x + r.w; x++) {
      const i = (y * width + x) * channels;
      const level = rgb ? 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]! : data[i]!;
      const alpha = hasAlpha(channels) ? data[i + channels - 1]! / 255 : 1;
      sum += level * alpha + 255 * (1 - alpha);
    }
  }
  return sum / (r.w * r.h);
}
