// The one firebase-admin app of this instance. In the emulator suite the SDK finds the
// emulators through FIRESTORE_EMULATOR_HOST & co., which the Functions emulator sets.
import { getApps, initializeApp, type App } from "firebase-admin/app";
import { getFirestore, type Firestore } from "firebase-admin/firestore";

export function adminApp(): App {
  return getApps()[0] ?? initializeApp();
}

let db: Firestore | undefined;
export function firestore(): Firestore {
  if (!db) {
    db = getFirestore(adminApp());
    db.settings({ ignoreUndefinedProperties: true });
  }
  return db;
}

/** Firestore's timestamp range (0001-01-01 to 9999-12-31), in seconds: anything outside is refused by the server. */
export const TIMESTAMP_MIN_SECONDS = -62_135_596_800;
export const TIMESTAMP_MAX_SECONDS = 253_402_300_799;
