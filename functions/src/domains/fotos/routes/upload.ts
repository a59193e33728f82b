// POST /screenshots — a signed-in user uploads a PNG (raw body, ≤ 25 MB) as a new screenshot, for
// people without the desktop agent; every vision tool then works on it by id.
//   curl -X POST -H "Authorization: Bearer <token>" -H "Content-Type: image/png" \
//        --data-binary @shot.png <fotos URL>/screenshots   → 201 {screenshot_id, width, height, …}
// The PNG is decoded once before it is stored: a damaged file, or a small file claiming a huge
// canvas (16000×16000 px compresses to under 1 MB and decodes to 1 GB), is refused here instead
// of failing, or exhausting the instance's memory, in every tool that reads it later.
import { SIGNED_IN, type HttpRoute } from "../../../mcp/define.js";
import { invalidInput, tooLarge } from "../../../mcp/errors.js";
import { MAX_PNG_BYTES, pngSize, saveScreenshot } from "../store.js";
import { uidOf } from "../source.js";

/** Largest upload in pixels: 8K (7680×4320, 33 Mpx) and a 3×4K composite (25 Mpx) fit. */
export const MAX_UPLOAD_PIXELS = 36_000_000;

export const uploadRoute: HttpRoute = {
  method: "POST",
  path: "/screenshots",
  description: "Signed-in user: upload a PNG (raw body, at most 25 MB and 36 megapixels) as a new screenshot, for use without the desktop agent → 201 {screenshot_id, width, height}",
  access: SIGNED_IN,
  body: { type: "binary", maxBytes: MAX_PNG_BYTES },
  async handle(req, ctx) {
    const uid = uidOf(ctx);
    const png = req.rawBody;
    if (!png?.length) throw invalidInput("The body must be the PNG image (Content-Type: image/png)");
    const { width, height } = pngSize(png); // a PNG, before anything is stored
    if (width * height > MAX_UPLOAD_PIXELS) {
      throw tooLarge(`The PNG is ${width}×${height} pixels; at most ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels are accepted (e.g. 7680×4320): crop or downscale it`);
    }
    await decodable(png);
    const meta = await saveScreenshot(uid, png, { mode: "upload" });
    return {
      status: 201,
      body: { screenshot_id: meta.id, width: meta.width, height: meta.height, created_at: meta.createdAt, expires_at: meta.expiresAt, uri: `screenshots://${meta.id}` },
    };
  },
};

/** Decodes every row (streamed, shrunk to a thumbnail: little memory); a damaged PNG is an input error. */
async function decodable(png: Buffer): Promise<void> {
  const { default: sharp } = await import("sharp");
  try {
    await sharp(png, { failOn: "error", limitInputPixels: MAX_UPLOAD_PIXELS }).resize(16, 16, { fit: "inside" }).raw().toBuffer();
  } catch {
    throw invalidInput("The PNG could not be decoded (it is damaged or truncated): upload the complete file");
  }
}
