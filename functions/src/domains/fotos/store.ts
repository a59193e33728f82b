// Screenshots of one user: the original PNG in Cloud Storage under the owner's path, the metadata
// in Firestore under the owner (docs/fotos.md):
//   users/{uid}/screenshots/{id}           ScreenshotMeta + storagePath (Timestamps for the dates)
//   gs://<bucket>/users/{uid}/screenshots/{id}.png
// Every function takes the owner's uid: an id of someone else's screenshot is simply not found.
import { randomUUID } from "node:crypto";
import { Timestamp, type DocumentData } from "firebase-admin/firestore";
import { ToolError } from "../../core/errors.js";
import { firestore } from "../../platform/firebase.js";
import { BUDGETS, spendBudget } from "../../platform/quota.js";
import { deleteObject, getObject, putObject } from "../../platform/storage.js";
import { MAX_LIST, MAX_PNG_BYTES, pngSize, RETENTION_DAYS, SCREENSHOT_ID as ID, screenshotNotFound, type NewScreenshot, type ScreenshotMeta } from "./screenshots.js";

export * from "./screenshots.js";

const screenshots = (uid: string) => firestore().collection("users").doc(uid).collection("screenshots");
export const blobPath = (uid: string, id: string) => `users/${uid}/screenshots/${id}.png`;

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
  if (d.redaction && typeof d.redaction === "object") meta.redaction = d.redaction as ScreenshotMeta["redaction"];
  return meta;
}

/**
 * Stores a PNG as a new screenshot of `uid` (image first, so metadata never points at nothing).
 * `id`: the one an upload's receipt chose (uploads.ts), so a repeat stores at the same place.
 */
export async function saveScreenshot(uid: string, png: Buffer, meta: NewScreenshot, id: string = randomUUID()): Promise<ScreenshotMeta> {
  if (png.length > MAX_PNG_BYTES) throw new ToolError("too_large", `The image is ${(png.length / 1048576).toFixed(1)} MB; at most 25 MB is accepted`);
  const { width, height } = pngSize(png);
  const now = Date.now();
  const createdAt = Timestamp.fromMillis(now);
  const expiresAt = Timestamp.fromMillis(now + RETENTION_DAYS * 86_400_000);
  const path = blobPath(uid, id);
  await spendBudget(BUDGETS.storedBytes, png.length);
  await putObject(path, png, "image/png");
  const data = {
    width,
    height,
    createdAt,
    mode: meta.mode,
    monitorIndex: meta.monitorIndex,
    windowTitle: meta.windowTitle,
    sourceId: meta.sourceId,
    ...(meta.redaction ? { redaction: meta.redaction } : {}),
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
