// A person's Figma bridge data for their home page: the plugin sessions (rooms) they opened, with
// the commands queued in them.
import { firestore } from "../../platform/firebase.js";
import { SESSIONS } from "./store.js";

export async function exportFigma(uid: string): Promise<Record<string, unknown>[]> {
  const snap = await firestore().collection(SESSIONS).where("ownerUid", "==", uid).get();
  return snap.docs.map((d) => ({ roomId: d.id, ...d.data() }));
}

/** Deletes the person's rooms and their commands; returns the rooms deleted. */
export async function eraseFigma(uid: string): Promise<number> {
  const snap = await firestore().collection(SESSIONS).where("ownerUid", "==", uid).select().get();
  for (const d of snap.docs) await firestore().recursiveDelete(d.ref);
  return snap.size;
}
