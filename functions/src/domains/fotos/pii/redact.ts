// Covers detected PII so it cannot be read back: a solid fill over each box, padded a little
// (OCR boxes hug the glyphs; anti-aliased edges and descenders must go too). A blur is not
// redaction: blurred text can often be recovered.
import type { Detection } from "./detect.js";

const FILL = "#000000";

/** The redacted image; the input itself when there is nothing to cover. */
export async function redact(png: Buffer, detections: Detection[]): Promise<Buffer> {
  if (!detections.length) return png;
  const { default: sharp } = await import("sharp");
  const meta = await sharp(png).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const rects = detections
    .map((d) => {
      const pad = Math.max(3, Math.round(d.h * 0.2));
      const x = Math.max(0, d.x - pad);
      const y = Math.max(0, d.y - pad);
      const w = Math.min(width, d.x + d.w + pad) - x;
      const h = Math.min(height, d.y + d.h + pad) - y;
      return w > 0 && h > 0 ? `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${FILL}"/>` : "";
    })
    .join("");
  const overlay = Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${rects}</svg>`);
  return sharp(png).composite([{ input: overlay, top: 0, left: 0 }]).png().toBuffer();
}
