// The screenshot a vision tool works on: a stored one by id, or — where the seed says "if
// omitted, a new fullscreen capture is taken first" — a fresh fullscreen capture.
import type { RequestContext } from "../../mcp/define.js";
import { unauthenticated } from "../../core/errors.js";
import type { FotosBackend } from "./backend.js";
import type { ScreenshotMeta } from "./screenshots.js";
import { captureRedaction } from "./settings.js";

export function uidOf(ctx: RequestContext): string {
  const uid = ctx.caller?.uid;
  if (!uid) throw unauthenticated();
  return uid;
}

export async function screenshotOrCapture(
  fotos: FotosBackend,
  ctx: RequestContext,
  id: string | undefined,
): Promise<{ meta: ScreenshotMeta; png: Buffer; captured: boolean }> {
  if (id !== undefined) return { ...(await fotos.load(id)), captured: false };
  // The person's redact-before-upload setting holds here too: the capture leaves the computer redacted.
  const { meta, png } = await fotos.capture({ mode: "fullscreen", ...captureRedaction(await fotos.settings()) }, ctx);
  return { meta, png, captured: true };
}
