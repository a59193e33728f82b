// What a screenshot is, wherever it is kept (the function's Firestore + Cloud Storage, or the
// temporary folder of `fotos-agent mcp`): its metadata, capture modes, size limits, the PNG checks
// every incoming image passes, and the not-found sentence. No storage code here.
import { envNumber } from "../../core/env.js";
import { invalidInput, ToolError, unavailable } from "../../core/errors.js";
import type { RedactionInfo } from "./pii/types.js";

import { CAPTURE_MODES, type CaptureMode } from "../../contracts/fotos-agent.js";

export { CAPTURE_MODES, type CaptureMode } from "../../contracts/fotos-agent.js";
export const SCREENSHOT_MODES = [...CAPTURE_MODES, "upload", "annotated", "redacted"] as const;
export type ScreenshotMode = (typeof SCREENSHOT_MODES)[number];

export interface ScreenshotMeta {
  id: string;
  width: number;
  height: number;
  /** ISO 8601 (UTC). */
  createdAt: string;
  mode: ScreenshotMode;
  monitorIndex?: number;
  windowTitle?: string;
  /** The screenshot this one was made from (annotated, redacted). */
  sourceId?: string;
  /** Size of the original PNG. */
  bytes: number;
  /** When the screenshot and its image are deleted (ISO 8601). */
  expiresAt: string;
  /** Set when PII was redacted: where, what was found (types and boxes), the re-check. */
  redaction?: RedactionInfo;
}

export interface NewScreenshot {
  mode: ScreenshotMode;
  monitorIndex?: number;
  windowTitle?: string;
  sourceId?: string;
  redaction?: RedactionInfo;
}

/** Days a screenshot is kept before the scheduled cleanup deletes it (FOTOS_RETENTION_DAYS, default 7). */
export const RETENTION_DAYS = envNumber("FOTOS_RETENTION_DAYS", 7, { min: 0.0001 });
/** Largest original accepted (25 MB: a 3×4K composite PNG stays below it). */
export const MAX_PNG_BYTES = 25 * 1024 * 1024;
/** Largest upload in pixels: 8K (7680×4320, 33 Mpx) and a 3×4K composite (25 Mpx) fit. */
export const MAX_UPLOAD_PIXELS = 36_000_000;

/**
 * Every PNG that arrives from outside (a user's upload, an agent's capture) is decoded once before
 * it is stored: a damaged file, or a small file claiming a huge canvas (16000×16000 px compresses
 * to under 1 MB and decodes to 1 GB), is refused here instead of failing, or exhausting the
 * instance's memory, in every tool that reads it later.
 */
export async function checkUploadedPng(png: Buffer | undefined): Promise<{ width: number; height: number }> {
  if (!png?.length) throw invalidInput("The body must be the PNG image (Content-Type: image/png)");
  const size = pngSize(png);
  if (size.width * size.height > MAX_UPLOAD_PIXELS) {
    throw new ToolError("too_large", `The PNG is ${size.width}×${size.height} pixels; at most ${MAX_UPLOAD_PIXELS / 1_000_000} megapixels are accepted (e.g. 7680×4320): crop or downscale it`);
  }
  const { default: sharp } = await import("sharp");
  try {
    // Every row decoded, streamed into a thumbnail: little memory.
    await sharp(png, { failOn: "error", limitInputPixels: MAX_UPLOAD_PIXELS }).resize(16, 16, { fit: "inside" }).raw().toBuffer();
  } catch {
    throw invalidInput("The PNG could not be decoded (it is damaged or truncated): upload the complete file");
  }
  return size;
}

/** list_screenshots returns at most this many. */
export const MAX_LIST = 100;

export const SCREENSHOT_ID = /^[A-Za-z0-9-]{1,64}$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The error for an id that is unknown, expired or someone else's: the same sentence for all three. */
export const screenshotNotFound = (id: string) =>
  new ToolError("not_found", `Screenshot not found: ${JSON.stringify(id)}. list_screenshots shows the ids of your screenshots`);

/** Width and height of a PNG, or an error saying why the bytes are not one. */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.length < 33 || !png.subarray(0, 8).equals(PNG_SIGNATURE) || png.toString("latin1", 12, 16) !== "IHDR") {
    throw invalidInput("The image is not a PNG (it must start with the PNG signature and an IHDR chunk)");
  }
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  if (!width || !height) throw invalidInput("The PNG has no pixels (width or height 0)");
  return { width, height };
}

/** take_screenshot's arguments (the seed's names). */
export interface CaptureArgs {
  mode?: CaptureMode;
  monitor_index?: number;
  window_title?: string;
  delay_ms?: number;
  /** Redact PII on the computer before the image leaves it (the desktop agent); `region` for phone numbers. */
  redact?: { region: string };
}

/** Longest delay_ms accepted (5 minutes: Claude's clients give a call about 300 s). */
export const MAX_DELAY_MS = 240_000;

export const windowTitleRequired = () =>
  invalidInput('Invalid input: window_title is required when mode is "window" (a part of the window\'s title, case-insensitive)');

/** A capture failure in the capturing code's own words; the status says what kind of failure it was. */
export function captureError(text: string): ToolError {
  const clean = text.replace(/\s+/g, " ").trim().replace(/[.]$/, "").slice(0, 500);
  if (/^No window/i.test(clean)) return new ToolError("not_found", clean);
  if (/display server/i.test(clean)) return unavailable(clean);
  if (/paused/i.test(clean)) return new ToolError("conflict", clean);
  return unavailable(clean);
}


export { quoted } from "../../core/device-name.js";
