// Draws annotations onto a PNG with sharp, in array order: shapes and text as SVG overlays,
// `blur` as a real Gaussian blur of the pixels under it (so a blur after a rect blurs the rect).
// Everything outside the image is clipped (SVG clips at the canvas; blur boxes are intersected).
// Text uses the fonts shipped in functions/assets/fonts (see fonts.ts), else the system's.
import { ensureFonts, FONT_FAMILY } from "./fonts.js";
import type { Annotation } from "./schema.js";
import { DECODE_LIMIT } from "../../../core/pixels.js";

interface Raw {
  data: Buffer;
  width: number;
  height: number;
}

// Rendering holds the whole image as raw RGBA, several copies at a time: an 8K screenshot
// (33 Mpx) peaks at ~530 MB. With 80 requests per 1 GiB instance, renders share a budget of
// pixels in flight (one oversized render still runs alone) instead of crashing the instance.
const PIXEL_BUDGET = 40_000_000;
let pixelsInFlight = 0;
const waiting: (() => void)[] = [];

async function withPixelBudget<T>(pixels: number, work: () => Promise<T>): Promise<T> {
  while (pixelsInFlight > 0 && pixelsInFlight + pixels > PIXEL_BUDGET) await new Promise<void>((wake) => waiting.push(wake));
  pixelsInFlight += pixels;
  try {
    return await work();
  } finally {
    pixelsInFlight -= pixels;
    waiting.splice(0).forEach((wake) => wake());
  }
}

export async function renderAnnotations(png: Buffer, annotations: Annotation[]): Promise<Buffer> {
  ensureFonts();
  const { default: sharp } = await import("sharp");
  const { width = 0, height = 0 } = await sharp(png, DECODE_LIMIT).metadata();
  return withPixelBudget(width * height, () => render(png, annotations));
}

async function render(png: Buffer, annotations: Annotation[]): Promise<Buffer> {
  const { default: sharp } = await import("sharp");
  const { data, info } = await sharp(png, DECODE_LIMIT).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let image: Raw = { data, width: info.width, height: info.height };
  let pending: string[] = [];

  const fromRaw = (img: Raw) => sharp(img.data, { ...DECODE_LIMIT, raw: { width: img.width, height: img.height, channels: 4 } });
  const flush = async () => {
    if (!pending.length) return;
    const svg = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">${pending.join("")}</svg>`);
    image = { ...image, data: await fromRaw(image).composite([{ input: svg, top: 0, left: 0 }]).raw().toBuffer() };
    pending = [];
  };

  for (const a of annotations) {
    if (a.type === "blur") {
      await flush();
      const box = clip(a.x!, a.y!, a.width!, a.height!, image.width, image.height);
      if (!box) continue;
      const sigma = Math.min(40, Math.max(6, Math.min(box.width, box.height) / 3));
      // Raw pixels in and out: no PNG round trip per blur (200 blurs on a full HD screenshot).
      const blurred = await fromRaw(image).extract(box).blur(sigma).raw().toBuffer();
      const raw = { width: box.width, height: box.height, channels: 4 as const };
      image = { ...image, data: await fromRaw(image).composite([{ input: blurred, raw, left: box.left, top: box.top }]).raw().toBuffer() };
    } else {
      pending.push(svgFor(a));
    }
  }
  await flush();
  return fromRaw(image).png().toBuffer();
}

function clip(x: number, y: number, w: number, h: number, width: number, height: number) {
  const left = Math.max(0, Math.floor(x));
  const top = Math.max(0, Math.floor(y));
  const right = Math.min(width, Math.ceil(x + w));
  const bottom = Math.min(height, Math.ceil(y + h));
  return right > left && bottom > top ? { left, top, width: right - left, height: bottom - top } : undefined;
}

// Characters XML 1.0 cannot hold (C0 controls but tab/newline/CR, U+FFFE/U+FFFF, lone
// surrogates) would make the SVG unparseable; they are dropped, not an internal error.
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const esc = (s: string) => s.replace(XML_INVALID, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const n = (v: number) => Math.round(v * 100) / 100;

function svgFor(a: Annotation): string {
  const color = esc(a.color);
  const stroke = `stroke="${color}" stroke-width="${n(a.stroke_width)}" fill="none"`;
  switch (a.type) {
    case "rect":
      return `<rect x="${n(a.x!)}" y="${n(a.y!)}" width="${n(a.width!)}" height="${n(a.height!)}" ${stroke}/>`;
    case "ellipse":
      return `<ellipse cx="${n(a.x! + a.width! / 2)}" cy="${n(a.y! + a.height! / 2)}" rx="${n(a.width! / 2)}" ry="${n(a.height! / 2)}" ${stroke}/>`;
    case "text": {
      const size = a.height && a.height > 0 ? a.height : 16;
      const lines = a.text!.split("\n");
      const tspans = lines.map((line, i) => `<tspan x="${n(a.x!)}" dy="${i === 0 ? 0 : n(size * 1.2)}">${esc(line)}</tspan>`).join("");
      return `<text x="${n(a.x!)}" y="${n(a.y! + size * 0.8)}" font-family="${FONT_FAMILY}" font-size="${n(size)}" fill="${color}" xml:space="preserve">${tspans}</text>`;
    }
    case "arrow": {
      const points = a.points ?? [
        { x: a.x!, y: a.y! },
        { x: a.x! + a.width!, y: a.y! + a.height! },
      ];
      const line = `<polyline points="${points.map((p) => `${n(p.x)},${n(p.y)}`).join(" ")}" ${stroke} stroke-linecap="round" stroke-linejoin="round"/>`;
      return line + arrowHead(points, a.stroke_width, color);
    }
    default:
      return "";
  }
}

/** A filled triangle at the last point, pointing along the last segment of non-zero length. */
function arrowHead(points: { x: number; y: number }[], strokeWidth: number, color: string): string {
  const tip = points[points.length - 1]!;
  let from = points[points.length - 2]!;
  for (let i = points.length - 2; i >= 0 && from.x === tip.x && from.y === tip.y; i--) from = points[i]!;
  const angle = Math.atan2(tip.y - from.y, tip.x - from.x);
  const length = Math.max(14, strokeWidth * 5);
  const spread = Math.PI / 6;
  const left = { x: tip.x - length * Math.cos(angle - spread), y: tip.y - length * Math.sin(angle - spread) };
  const right = { x: tip.x - length * Math.cos(angle + spread), y: tip.y - length * Math.sin(angle + spread) };
  return `<polygon points="${n(tip.x)},${n(tip.y)} ${n(left.x)},${n(left.y)} ${n(right.x)},${n(right.y)}" fill="${color}"/>`;
}
