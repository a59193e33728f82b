// POST /screenshots — a signed-in user uploads a PNG (raw body, ≤ 25 MB) as a new screenshot, for
// people without the desktop agent; every vision tool then works on it by id.
//   curl -X POST -H "Authorization: Bearer <token>" -H "Content-Type: image/png" \
//        --data-binary @shot.png <fotos URL>/screenshots   → 201 {screenshot_id, width, height, …}
// The PNG is decoded once before it is stored: a damaged file, or a small file claiming a huge
// canvas (16000×16000 px compresses to under 1 MB and decodes to 1 GB), is refused here instead
// of failing, or exhausting the instance's memory, in every tool that reads it later.
// With an Idempotency-Key header, the same upload sent again answers the first one (200, same id).
import { SIGNED_IN } from "../../../mcp/define.js";
import { route } from "../../../http/route.js";
import { checkUploadedPng, MAX_PNG_BYTES } from "../store.js";
import { idempotencyKey, saveUploadOnce } from "../uploads.js";
import { uidOf } from "../source.js";
import { QUOTAS } from "../../../platform/quota.js";

export { MAX_UPLOAD_PIXELS } from "../store.js";

export const uploadRoute = route({
  method: "POST",
  path: "/screenshots",
  description: "Signed-in user: upload a PNG (raw body, at most 25 MB and 36 megapixels) as a new screenshot, for use without the desktop agent → 201 {screenshot_id, width, height}; with an Idempotency-Key header a repeat answers the first upload (200)",
  access: SIGNED_IN,
  body: { type: "binary", maxBytes: MAX_PNG_BYTES },
  async handle(req, ctx) {
    const uid = uidOf(ctx);
    const png = req.rawBody;
    const key = idempotencyKey(req.headers);
    await checkUploadedPng(png);
    const { meta, repeated } = await saveUploadOnce(uid, key, png, { mode: "upload" }, QUOTAS.uploads);
    return {
      status: repeated ? 200 : 201,
      body: { screenshot_id: meta.id, width: meta.width, height: meta.height, created_at: meta.createdAt, expires_at: meta.expiresAt, uri: `screenshots://${meta.id}` },
    };
  },
});
