// POST /screenshots — a signed-in user uploads a PNG (raw body, ≤ 25 MB) as a new screenshot, for
// people without the desktop agent; every vision tool then works on it by id.
//   curl -X POST -H "Authorization: Bearer <token>" -H "Content-Type: image/png" \
//        --data-binary @shot.png <fotos URL>/screenshots   → 201 {screenshot_id, width, height, …}
import { SIGNED_IN, type HttpRoute } from "../../../mcp/define.js";
import { invalidInput } from "../../../mcp/errors.js";
import { MAX_PNG_BYTES, pngSize, saveScreenshot } from "../store.js";
import { uidOf } from "../source.js";

export const uploadRoute: HttpRoute = {
  method: "POST",
  path: "/screenshots",
  description: "Signed-in user: upload a PNG (raw body, at most 25 MB) as a new screenshot, for use without the desktop agent → 201 {screenshot_id, width, height}",
  access: SIGNED_IN,
  body: { type: "binary", maxBytes: MAX_PNG_BYTES },
  async handle(req, ctx) {
    const uid = uidOf(ctx);
    const png = req.rawBody;
    if (!png?.length) throw invalidInput("The body must be the PNG image (Content-Type: image/png)");
    pngSize(png); // a PNG, before anything is stored
    const meta = await saveScreenshot(uid, png, { mode: "upload" });
    return {
      status: 201,
      body: { screenshot_id: meta.id, width: meta.width, height: meta.height, created_at: meta.createdAt, expires_at: meta.expiresAt, uri: `screenshots://${meta.id}` },
    };
  },
};
