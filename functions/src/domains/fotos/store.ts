// Screenshots of one user: the original PNG in Cloud Storage under the owner's path, the metadata
// in Firestore under the owner (docs/fotos.md):
//   users/{uid}/screenshots/{id}           ScreenshotMeta + storagePath (Timestamps for the dates)
//   gs://<bucket>/users/{uid}/screenshots/{id}.png
// Every function takes the owner's uid: an id of someone else's screenshot is simply not found.
import { randomUUID } from "node:crypto";
import { Timestamp, type DocumentData } from "firebase-admin/firestore";
import { envNumber } from "../../core/env.js";
import { invalidInput, ToolError } from "../../core/errors.js";
import { firestore } from "../../platform/firebase.js";
import { deleteObject, getObject, putObject } from "../../platform/storage.js";

export const CAPTURE_MODES = ["fullscreen", "monitor", "window"] as const;
export type CaptureMode = (typeof CAPTURE_MODES)[number];
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
}

export interface NewScreenshot {
  mode: ScreenshotMode;
  monitorIndex?: number;
  windowTitle?: string;
  sourceId?: string;
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

const ID = /^[A-Za-z0-9-]{1,64}$/;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const screenshots = (uid: string) => firestore().collection("users").doc(uid).collection("screenshots");
export const blobPath = (uid: string, id: string) => `users/${uid}/screenshots/${id}.png`;

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

function toMeta(id: string, d: DocumentData): ScreenshotMeta {
  const meta: ScreenshotMeta = {
    id,
    width: d.width,
    height: d.height,
    createdAt: (d.createdAt as Timestamp).toDate().toISOString(),
    mode: d.mode,
    bytes: d.bytes,
    expiresAt: (d.expiresAt as Timestamp).toDate().toISOString(),
  };
  if (typeof d.monitorIndex === "number") meta.monitorIndex = d.monitorIndex;
  if (typeof d.windowTitle === "string") meta.windowTitle = d.windowTitle;
  if (typeof d.sourceId === "string") meta.sourceId = d.sourceId;
  return meta;
}

/** Stores a PNG as a new screenshot of `uid` (image first, so metadata never points at nothing). */
export async function saveScreenshot(uid: string, png: Buffer, meta: NewScreenshot): Promise<ScreenshotMeta> {
  if (png.length > MAX_PNG_BYTES) throw new ToolError("too_large", `The image is ${(png.length / 1048576).toFixed(1)} MB; at most 25 MB is accepted`);
  const { width, height } = pngSize(png);
  const id = randomUUID();
  const now = Date.now();
  const createdAt = Timestamp.fromMillis(now);
  const expiresAt = Timestamp.fromMillis(now + RETENTION_DAYS * 86_400_000);
  const path = blobPath(uid, id);
  await putObject(path, png, "image/png");
  const data = {
    width,
    height,
    createdAt,
    mode: meta.mode,
    monitorIndex: meta.monitorIndex,
    windowTitle: meta.windowTitle,
    sourceId: meta.sourceId,
    bytes: png.length,
    expiresAt,
    storagePath: path,
  };
  await screenshots(uid).doc(id).set(data);
  return toMeta(id, data);
}

/** Metadata of one screenshot of `uid`; unknown, expired or foreign ids → screenshotNotFound. */
export async function getScreenshotMeta(uid: string, id: string): Promise<ScreenshotMeta> {
  if (!ID.test(id)) throw screenshotNotFound(id);
  const snap = await screenshots(uid).doc(id).get();
  if (!snap.exists || (snap.get("expiresAt") as Timestamp).toMillis() <= Date.now()) throw screenshotNotFound(id);
  return toMeta(snap.id, snap.data()!);
}

/** Metadata and the original PNG of one screenshot of `uid`. */
export async function loadScreenshot(uid: string, id: string): Promise<{ meta: ScreenshotMeta; png: Buffer }> {
  if (!ID.test(id)) throw screenshotNotFound(id);
  // Both at once: the metadata decides, the image download does not wait for it.
  const [meta, png] = await Promise.all([getScreenshotMeta(uid, id), getObject(blobPath(uid, id))]);
  if (!png) throw screenshotNotFound(id); // the cleanup is deleting it right now
  return { meta, png };
}

/** The newest `limit` screenshots of `uid`, newest first (expired ones left out). */
export async function listScreenshots(uid: string, limit: number): Promise<ScreenshotMeta[]> {
  const n = Math.max(0, Math.min(Math.floor(limit), MAX_LIST));
  if (n === 0) return [];
  const snap = await screenshots(uid).orderBy("createdAt", "desc").limit(n).get();
  const now = Date.now();
  // Expired ones are the oldest (retention is the same for all), so dropping them keeps the order.
  return snap.docs.filter((d) => (d.get("expiresAt") as Timestamp).toMillis() > now).map((d) => toMeta(d.id, d.data()));
}

/** Deletes expired screenshots of every user with their images and cached OCR; returns how many. */
export async function deleteExpiredScreenshots(now = new Date(), batch = 200): Promise<number> {
  let deleted = 0;
  for (;;) {
    const snap = await firestore().collectionGroup("screenshots").where("expiresAt", "<=", Timestamp.fromDate(now)).limit(batch).get();
    if (snap.empty) return deleted;
    await Promise.all(
      snap.docs.map(async (doc) => {
        const path = doc.get("storagePath");
        if (typeof path === "string") await deleteObject(path);
        await firestore().recursiveDelete(doc.ref); // with its cached OCR (ocr/{language}): the text outlives nothing
      }),
    );
    deleted += snap.size;
    if (snap.size < batch) return deleted;
  }
}
