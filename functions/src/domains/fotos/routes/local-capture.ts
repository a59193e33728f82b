// POST /captures?mode=…&monitor_index=…&window_title=… — `fotos-agent mcp` in bridged mode (its
// `fotos-mcp` device token) stores a capture it took on the user's computer, with the capture's
// mode, so it is listed like any other (list_screenshots, screenshots://recent). Raw PNG body,
// the same checks as every incoming image. ?redaction=<JSON>: it was redacted there before upload.
// With an Idempotency-Key header (the agent sends one), a repeat answers the first upload (200).
import { device } from "../../../mcp/define.js";
import { route } from "../../../http/route.js";
import { parseInput } from "../../../mcp/validation.js";
import { QUOTAS } from "../../../platform/quota.js";
import { checkUploadedPng, MAX_PNG_BYTES } from "../store.js";
import { idempotencyKey, saveUploadOnce } from "../uploads.js";
import { deviceRedaction } from "../schema.js";
import { LOCAL_CAPTURE_PATH, localCaptureQuerySchema, type LocalCaptured } from "../../../contracts/fotos-agent.js";
import type { ScreenshotMeta } from "../screenshots.js";
import { settingsDoc } from "../cloud.js";
import { settingsFrom } from "../settings.js";
import { conflict } from "../../../core/errors.js";

export const localCaptureRoute = route({
  method: "POST",
  path: LOCAL_CAPTURE_PATH,
  description: "fotos-agent mcp (bridged, fotos-mcp device token): store a screenshot it captured on the user's computer → 201 {screenshot_id, …metadata}",
  access: device("fotos-mcp"),
  body: { type: "binary", maxBytes: MAX_PNG_BYTES },
  async handle(req, ctx) {
    const { mode, monitor_index, window_title, redaction: reported } = parseInput(localCaptureQuerySchema, req.query);
    const uid = ctx.caller.uid;
    const key = idempotencyKey(req.headers);
    await checkUploadedPng(req.rawBody);
    const redaction = deviceRedaction(reported);
    if (!redaction && settingsFrom((await settingsDoc(uid).get()).data()).capture.redactBeforeUpload) {
      // Never stored: the person asked for captures not to leave the computer unredacted.
      throw conflict("This capture was not redacted on the computer, and your settings ask for that (capture.redactBeforeUpload), so it was not stored: update fotos-agent (npx fotos-agent@latest mcp) and try again");
    }
    const { meta, repeated } = await saveUploadOnce(
      uid,
      key,
      req.rawBody,
      {
        ...(redaction ? { redaction } : {}),
        mode,
        ...(mode === "monitor" ? { monitorIndex: monitor_index ?? 0 } : {}),
        ...(mode === "window" && window_title ? { windowTitle: window_title } : {}),
      },
      QUOTAS.uploads,
    );
    return { status: repeated ? 200 : 201, body: { screenshot_id: meta.id, ...meta } satisfies LocalCaptured & ScreenshotMeta };
  },
});
