// "Your data" on the home page: everything the suite keeps for a person as one download, and
// erasing all of it — each function's data through its own module (http/person.ts), the
// authorization server's own records (apps, devices, consents, codes, refresh tokens) and the
// daily quota counters; optionally the sign-in account. DermalVision's records are written by
// that app into the same project and are its own: they are neither exported nor erased here.
import { getAuth } from "firebase-admin/auth";
import { DEVICES, GRANTS } from "../../auth/grants.js";
import { personData } from "../../http/person.js";
import { adminApp, firestore } from "../../platform/firebase.js";
import { QUOTA_COLLECTION } from "../../platform/quota.js";
import { COLLECTIONS } from "./store.js";

/** The authorization server's records of a person, by the field that names them. */
const OWN: [collection: string, field: string][] = [
  [GRANTS, "uid"],
  [DEVICES, "uid"],
  [COLLECTIONS.consents, "uid"],
  [COLLECTIONS.codes, "uid"],
  [COLLECTIONS.refreshTokens, "uid"],
  [COLLECTIONS.deviceAuthorizations, "uid"],
  [QUOTA_COLLECTION, "uid"],
];

export async function exportEverything(uid: string, email: string): Promise<Record<string, unknown>> {
  const db = firestore();
  const m = personData();
  const [fotos, knowledge, figma] = await Promise.all([m.fotos(), m.knowledge(), m.figma()]);
  const [grants, devices] = await Promise.all([db.collection(GRANTS).where("uid", "==", uid).get(), db.collection(DEVICES).where("uid", "==", uid).get()]);
  const app = (d: FirebaseFirestore.QueryDocumentSnapshot) => ({ app: d.get("clientName") ?? d.get("name"), resource: d.get("resource") ?? d.get("kind"), scopes: d.get("scopes") ?? [], created: d.get("createdAt")?.toDate?.().toISOString(), revoked: !!d.get("revokedAt") });
  return {
    exported_at: new Date().toISOString(),
    account: { uid, email },
    apps: grants.docs.map(app),
    devices: devices.docs.map((d) => ({ name: d.get("name"), kind: d.get("kind"), created: d.get("createdAt")?.toDate?.().toISOString(), revoked: !!d.get("revokedAt") })),
    fotos: await fotos.exportFotos(uid),
    knowledge: await knowledge.exportKnowledge(uid),
    figma: await figma.exportFigma(uid),
    dermalvision: "Your DermalVision records are kept by the DermalVision app; export them there.",
  };
}

export interface Erased {
  documents: number;
  screenshots: number;
  figmaRooms: number;
  records: number;
  account: boolean;
}

/** Erases everything; the account too when asked. Its old tokens stop working: grants and devices are gone, and the account's refresh tokens are revoked. */
export async function eraseEverything(uid: string, deleteAccount: boolean): Promise<Erased> {
  const db = firestore();
  const m = personData();
  const [fotos, knowledge, figma] = await Promise.all([m.fotos(), m.knowledge(), m.figma()]);
  const [documents, screenshots, figmaRooms] = await Promise.all([knowledge.eraseKnowledge(uid), fotos.eraseFotos(uid), figma.eraseFigma(uid)]);
  const snaps = await Promise.all(OWN.map(([c, f]) => db.collection(c).where(f, "==", uid).select().get()));
  const deviceIds = snaps[1]!.docs.map((d) => d.id);
  const writer = db.bulkWriter();
  for (const s of snaps) for (const d of s.docs) void writer.delete(d.ref);
  await writer.close();
  const auth = getAuth(adminApp());
  // A paired device signs in to Firebase as device_<id> (its Firestore listener).
  if (deviceIds.length) await auth.deleteUsers(deviceIds.map((id) => `device_${id}`));
  if (deleteAccount) await auth.deleteUser(uid);
  else await auth.revokeRefreshTokens(uid);
  return { documents, screenshots, figmaRooms, records: snaps.reduce((n, s) => n + s.size, 0), account: deleteAccount };
}
