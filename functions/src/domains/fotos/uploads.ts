// An upload sent again (its answer was lost, or it timed out after it was saved) stores nothing
// twice: each upload has a key (the client's Idempotency-Key header, or the capture request it
// answers), and the first attempt leaves a receipt under the owner naming the screenshot id it
// chose and the image's SHA-256. A repeat with the same key and image gets that screenshot back
// (stored at the same id if the first attempt did not get that far) and counts no quota again.
//   users/{uid}/uploads/{sha256(key)}   { screenshotId, sha256, createdAt, expiresAt }
import { createHash, randomUUID } from "node:crypto";
import { Timestamp, type DocumentData } from "firebase-admin/firestore";
import { conflict, invalidInput, ToolError } from "../../core/errors.js";
import { firestore } from "../../platform/firebase.js";
import { writesSafeToRepeat } from "../../platform/deadline.js";
import { useQuota, type Quota } from "../../platform/quota.js";
import { IDEMPOTENCY_KEY_HEADER } from "../../contracts/fotos-agent.js";
import { getScreenshotMeta, saveScreenshot, type NewScreenshot, type ScreenshotMeta } from "./store.js";

/** How long a receipt answers a repeat (a TTL policy on expiresAt deletes it later). */
const RECEIPT_HOURS = 24;
const KEY = /^[A-Za-z0-9_.:-]{8,128}$/;

export const uploadReceipts = (uid: string) => firestore().collection("users").doc(uid).collection("uploads");
const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/** The client's Idempotency-Key header, if it sent one (8–128 letters, digits, `_ . : -`). */
export function idempotencyKey(headers: Record<string, string | string[] | undefined>): string | undefined {
  const raw = headers[IDEMPOTENCY_KEY_HEADER];
  if (raw === undefined) return undefined;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || !KEY.test(key)) throw invalidInput(`The ${IDEMPOTENCY_KEY_HEADER} header must be 8 to 128 letters, digits, "_", ".", ":" or "-" (a UUID is a good one): nothing was stored`);
  return key;
}

/**
 * Stores `png` as a screenshot of `uid` once per `key` (no key: every call is a new screenshot),
 * counting `quota` once. A repeat answers the first one's screenshot, `repeated: true`.
 */
export async function saveUploadOnce(uid: string, key: string | undefined, png: Buffer, meta: NewScreenshot, quota?: Quota): Promise<{ meta: ScreenshotMeta; repeated: boolean }> {
  if (!key) {
    if (quota) await useQuota(uid, quota);
    // Each attempt stores a new screenshot: a timed-out one says to check before sending it again.
    return { meta: await writesSafeToRepeat(() => saveScreenshot(uid, png, meta), false), repeated: false };
  }
  return writesSafeToRepeat(async () => {
    const hash = sha256(png);
    const now = Date.now();
    const receipt = { ref: uploadReceipts(uid).doc(sha256(key)), data: { screenshotId: randomUUID(), sha256: hash, createdAt: Timestamp.fromMillis(now), expiresAt: Timestamp.fromMillis(now + RECEIPT_HOURS * 3_600_000) } };
    const earlier = quota ? await useQuota(uid, quota, now, receipt) : await createOnce(receipt.ref, receipt.data);
    if (earlier && earlier.sha256 !== hash) throw conflict(`This ${IDEMPOTENCY_KEY_HEADER} was already used for another image, so nothing was stored: send each new upload with a new key`);
    const id = (earlier?.screenshotId as string | undefined) ?? receipt.data.screenshotId;
    if (earlier) {
      try {
        return { meta: await getScreenshotMeta(uid, id), repeated: true };
      } catch (err) {
        // The first attempt stopped before the screenshot was saved: save it now, at its id.
        if (!(err instanceof ToolError) || err.kind !== "not_found") throw err;
      }
    }
    return { meta: await saveScreenshot(uid, png, meta, id), repeated: Boolean(earlier) };
  });
}

/** Creates the receipt, or returns the one a first attempt created. */
async function createOnce(ref: FirebaseFirestore.DocumentReference, data: DocumentData): Promise<DocumentData | undefined> {
  try {
    await ref.create(data);
    return undefined;
  } catch (err) {
    if ((err as { code?: unknown }).code !== 6) throw err; // ALREADY_EXISTS
    return (await ref.get()).data();
  }
}
