// The copy of a screenshot a model gets: long side at most 1568 px (what Claude reads without
// resizing it again) and small enough that the base64 image plus its text stay under the ~1 MB
// clients accept per result. PNG when that fits, else JPEG at the highest quality that fits.
// The full-resolution original stays behind screenshots://{id}.
import type { ImageContent } from "@modelcontextprotocol/server";
import { envNumber } from "../../core/env.js";
import { DECODE_LIMIT } from "../../core/pixels.js";

/** Longest side of the model's copy (FOTOS_MODEL_IMAGE_SIDE, default 1568). */
export const MODEL_IMAGE_SIDE = envNumber("FOTOS_MODEL_IMAGE_SIDE", 1568, { min: 64 });
/** Bytes of the model's copy before base64 (600 KB → ~800 KB base64, under Claude's ~1 MB per result). */
export const MODEL_IMAGE_BYTES = envNumber("FOTOS_MODEL_IMAGE_BYTES", 600_000, { min: 10_000 });

export interface ModelImage {
  data: Buffer;
  mimeType: "image/png" | "image/jpeg";
  width: number;
  height: number;
}

/** Downscales (never upscales) and re-encodes an image for a model. */
export async function modelImage(image: Buffer, maxSide = MODEL_IMAGE_SIDE, maxBytes = MODEL_IMAGE_BYTES): Promise<ModelImage> {
  const { default: sharp } = await import("sharp");
  const meta = await sharp(image, DECODE_LIMIT).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  const fits = Math.max(width, height) <= maxSide;
  if (fits && meta.format === "png" && image.length <= maxBytes) return { data: image, mimeType: "image/png", width, height };

  const resized = sharp(image, DECODE_LIMIT).resize({ width: maxSide, height: maxSide, fit: "inside", withoutEnlargement: true });
  const { data: png, info } = await resized.clone().png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true });
  if (png.length <= maxBytes) return { data: png, mimeType: "image/png", width: info.width, height: info.height };
  for (const quality of [85, 75, 60, 45, 30]) {
    const jpeg = await resized.clone().flatten({ background: "#ffffff" }).jpeg({ quality, mozjpeg: true }).toBuffer();
    if (jpeg.length <= maxBytes) return { data: jpeg, mimeType: "image/jpeg", width: info.width, height: info.height };
  }
  // A pathological image (noise): halve the size until it fits.
  let side = Math.floor(Math.max(info.width, info.height) / 2);
  for (;;) {
    const { data, info: small } = await sharp(image, DECODE_LIMIT)
      .resize({ width: side, height: side, fit: "inside" })
      .flatten({ background: "#ffffff" })
      .jpeg({ quality: 30 })
      .toBuffer({ resolveWithObject: true });
    if (data.length <= maxBytes || side <= 64) return { data, mimeType: "image/jpeg", width: small.width, height: small.height };
    side = Math.floor(side / 2);
  }
}

/** The model's copy as an MCP image content block. */
export async function modelImageContent(image: Buffer): Promise<ImageContent> {
  const { data, mimeType } = await modelImage(image);
  return { type: "image", data: data.toString("base64"), mimeType };
}
