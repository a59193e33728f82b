// A person's Fotos data for their home page: the settings (shown and saved through the store the
// tools read), and everything kept for them, to export or erase: screenshots with their metadata,
// OCR and images, upload receipts, settings, paired agents' records and capture requests.
import { firestore } from "../../platform/firebase.js";
import { bucket, getObject } from "../../platform/storage.js";
import { AGENTS, REQUESTS } from "./agents/registry.js";
import { readSettings, settingsDoc } from "./settings-store.js";
import { uploadReceipts } from "./uploads.js";

export { saveSettingsForm, settingFields } from "./settings-store.js";

const screenshots = (uid: string) => firestore().collection("users").doc(uid).collection("screenshots");

export async function exportFotos(uid: string): Promise<{ settings: unknown; screenshots: Record<string, unknown>[] }> {
  const snap = await screenshots(uid).get();
  const shots = await Promise.all(
    snap.docs.map(async (d) => {
      const meta = d.data();
      const png = typeof meta.storagePath === "string" ? await getObject(meta.storagePath) : null;
      return { id: d.id, ...meta, ...(png ? { image_png_base64: png.toString("base64") } : {}) };
    }),
  );
  return { settings: await readSettings(uid), screenshots: shots };
}

/** Deletes everything Fotos keeps for the person; returns the screenshots deleted. */
export async function eraseFotos(uid: string): Promise<number> {
  const db = firestore();
  const shots = await screenshots(uid).select().get();
  await db.recursiveDelete(screenshots(uid));
  await db.recursiveDelete(uploadReceipts(uid));
  await db.recursiveDelete(settingsDoc(uid).parent);
  await bucket().deleteFiles({ prefix: `users/${uid}/` });
  const [agents, requests] = await Promise.all([db.collection(AGENTS).where("owner", "==", uid).select().get(), db.collection(REQUESTS).where("owner", "==", uid).select().get()]);
  const writer = db.bulkWriter();
  for (const d of [...agents.docs, ...requests.docs]) void writer.delete(d.ref);
  await writer.close();
  return shots.size;
}
