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
