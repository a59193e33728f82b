// Exported images are made fit for a model where they arrive (the plugin's result post): at most
// MAX_IMAGE_SIDE a side and small enough to be stored and returned in one result. sharp is loaded
// only for images.
import { MAX_IMAGE_SIDE } from "../../mcp/content.js";
import { decodable, DECODE_LIMIT, MAX_DECODE_PIXELS } from "../../core/pixels.js";
import { ToolError } from "../../core/errors.js";

/** Stored bytes of one image: Firestore documents hold 1 MiB, base64 grows by a third. */
const MAX_STORED_IMAGE_BYTES = 600 * 1024;

interface ExportedImage {
  kind: "image";
  mimeType: string;
  base64: string;
  [key: string]: unknown;
}

const isImage = (v: unknown): v is ExportedImage =>
  !!v && typeof v === "object" && (v as ExportedImage).kind === "image" && typeof (v as ExportedImage).base64 === "string";

/** Downscales an exported PNG/JPG in a plugin result; anything else passes unchanged. */
export async function fitExportForModel(result: unknown): Promise<unknown> {
  if (!isImage(result) || !/^image\/(png|jpeg)$/.test(result.mimeType)) return result;
  const { default: sharp } = await import("sharp");
  const input = Buffer.from(result.base64, "base64");
  const meta = await sharp(input).metadata(); // the header only: nothing is decoded yet
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  if (!decodable(width, height)) {
    throw new ToolError("too_large", `The exported image is ${width}×${height} pixels; at most ${MAX_DECODE_PIXELS / 1_000_000} megapixels are accepted: export a smaller node or at a lower scale`);
  }
  if (Math.max(width, height) <= MAX_IMAGE_SIDE && input.length <= MAX_STORED_IMAGE_BYTES) return { ...result, width, height, downscaled: false };
  let side = MAX_IMAGE_SIDE;
  let out = await sharp(input, DECODE_LIMIT).resize({ width: side, height: side, fit: "inside", withoutEnlargement: true }).png({ compressionLevel: 9 }).toBuffer();
  let mimeType = "image/png";
  while (out.length > MAX_STORED_IMAGE_BYTES && side > 200) {
    out = await sharp(input, DECODE_LIMIT).resize({ width: side, height: side, fit: "inside", withoutEnlargement: true }).jpeg({ quality: 80 }).toBuffer();
    mimeType = "image/jpeg";
    side = Math.round(side * 0.75);
  }
  const fitted = await sharp(out, DECODE_LIMIT).metadata();
  return { ...result, mimeType, base64: out.toString("base64"), width: fitted.width, height: fitted.height, originalWidth: width, originalHeight: height, downscaled: true };
}
