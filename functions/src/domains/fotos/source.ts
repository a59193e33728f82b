// The screenshot a vision tool works on: a stored one by id, or — where the seed says "if
// omitted, a new fullscreen capture is taken first" — a fresh fullscreen capture.
import type { RequestContext } from "../../mcp/define.js";
import { unauthenticated } from "../../core/errors.js";
import type { FotosBackend } from "./backend.js";
import type { ScreenshotMeta } from "./screenshots.js";
import { redactScreenshot, type RedactionResult } from "./pii/redact-screen.js";
import { captureRedaction, type Settings } from "./settings.js";

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

/** The redaction of a stored screenshot (auto_redact_pii, and analysis under the setting): its cached OCR, then the re-check. */
export async function redactStored(fotos: FotosBackend, meta: ScreenshotMeta, png: Buffer, settings: Settings): Promise<RedactionResult> {
  const { result } = await fotos.ocr(meta, png, "eng");
  return redactScreenshot(await fotos.ocrEngine(), png, { ocr: result, region: settings.ui.region });
}

/**
 * The screenshot as it may be sent to a vision provider (a third party): with the person's
 * capture.redactBeforeUpload on, one that was never redacted (an upload, an annotated copy) is
 * redacted first; no argument of the call can skip that. `redacted` is what was covered, if anything.
 */
export async function screenshotForProvider(
  fotos: FotosBackend,
  ctx: RequestContext,
  id: string | undefined,
): Promise<{ meta: ScreenshotMeta; png: Buffer; redacted?: RedactionResult }> {
  const { meta, png } = await screenshotOrCapture(fotos, ctx, id);
  const settings = await fotos.settings();
  if (!settings.capture.redactBeforeUpload || meta.redaction) return { meta, png };
  const redacted = await redactStored(fotos, meta, png, settings);
  return { meta, png: redacted.png, redacted };
}
