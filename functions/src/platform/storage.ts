// Cloud Storage through the Admin SDK (rules do not apply; callers check who is asking). Locally
// the SDK talks to the Storage emulator (FIREBASE_STORAGE_EMULATOR_HOST, set by the emulator suite).
import { getStorage } from "firebase-admin/storage";
import { BUDGETS, callDependency } from "./deadline.js";
import { adminApp } from "./firebase.js";

/** The bucket: STORAGE_BUCKET, else the project's default bucket (FIREBASE_CONFIG), else `<project>.appspot.com`. */
export function bucketName(): string {
  if (process.env.STORAGE_BUCKET) return process.env.STORAGE_BUCKET;
  try {
    const config = JSON.parse(process.env.FIREBASE_CONFIG ?? "{}") as { storageBucket?: string };
    if (config.storageBucket) return config.storageBucket;
  } catch {
    // FIREBASE_CONFIG may also be a file path; fall through to the project default.
  }
  const project = process.env.GCLOUD_PROJECT ?? process.env.GOOGLE_CLOUD_PROJECT ?? "demo-mcp-suite";
  return `${project}.appspot.com`;
}

type Bucket = ReturnType<ReturnType<typeof getStorage>["bucket"]>;

let cached: Bucket | undefined;
export function bucket(): Bucket {
  return (cached ??= getStorage(adminApp()).bucket(bucketName()));
}

/** Writes one object; `contentType` is stored with it. */
export async function putObject(path: string, data: Buffer, contentType: string): Promise<void> {
  await callDependency(BUDGETS.storage, () => bucket().file(path).save(data, { contentType, resumable: false, metadata: { cacheControl: "private, max-age=0" } }), { write: "idempotent" });
}

/** The object's bytes, or null when it does not exist. */
export async function getObject(path: string): Promise<Buffer | null> {
  try {
    const [data] = await callDependency(BUDGETS.storage, () => bucket().file(path).download());
    return data;
  } catch (err) {
    if ((err as { code?: number }).code === 404) return null;
    throw err;
  }
}

/** Deletes an object; a missing one is not an error. */
export async function deleteObject(path: string): Promise<void> {
  await callDependency(BUDGETS.storage, () => bucket().file(path).delete({ ignoreNotFound: true }), { write: "idempotent" });
}
