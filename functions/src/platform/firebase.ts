// The one firebase-admin app of this instance. In the emulator suite the SDK finds the
// emulators through FIRESTORE_EMULATOR_HOST & co., which the Functions emulator sets.
import { getApps, initializeApp, type App } from "firebase-admin/app";
import { getFirestore, type Firestore, type WriteBatch } from "firebase-admin/firestore";
import { isDeployed } from "../core/where.js";
import { instrumentFirestore } from "./firestore-deadlines.js";

export function adminApp(): App {
  return getApps()[0] ?? (assertNotEmulatedInProduction(), initializeApp());
}

const EMULATOR_VARIABLES = ["FIREBASE_AUTH_EMULATOR_HOST", "FIRESTORE_EMULATOR_HOST", "FIREBASE_STORAGE_EMULATOR_HOST", "FIREBASE_DATABASE_EMULATOR_HOST"];

/**
 * With an emulator variable set, the Admin SDK talks to that host and accepts unsigned ID tokens:
 * in production that would let anyone forge any user. Refuse to start instead.
 */
export function assertNotEmulatedInProduction(env: NodeJS.ProcessEnv = process.env): void {
  const inCloud = isDeployed(env);
  const set = EMULATOR_VARIABLES.filter((v) => env[v]);
  if (inCloud && set.length) throw new Error(`Refusing to start: ${set.join(", ")} set in production (unsigned tokens would be accepted)`);
}

let db: Firestore | undefined;
export function firestore(): Firestore {
  if (!db) {
    db = getFirestore(adminApp());
    db.settings({ ignoreUndefinedProperties: true });
    instrumentFirestore(db);
  }
  return db;
}

/** Firestore's timestamp range (0001-01-01 to 9999-12-31), in seconds: anything outside is refused by the server. */
export const TIMESTAMP_MIN_SECONDS = -62_135_596_800;
export const TIMESTAMP_MAX_SECONDS = 253_402_300_799;

/**
 * Collects writes into batches under Firestore's 500-writes-per-commit limit and commits them in
 * order (for seeding and bulk loads; each batch is atomic, the whole set is not).
 */
export function batchedWriter(db: Firestore, maxPerBatch = 450): { write(fn: (batch: WriteBatch) => void): void; commit(): Promise<void> } {
  const batches: WriteBatch[] = [db.batch()];
  let ops = 0;
  return {
    write(fn) {
      if (ops >= maxPerBatch) {
        batches.push(db.batch());
        ops = 0;
      }
      fn(batches[batches.length - 1]!);
      ops++;
    },
    async commit() {
      for (const batch of batches) await batch.commit();
    },
  };
}
