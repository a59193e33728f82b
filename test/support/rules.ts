// firestore.rules under test: a rules test environment of its own project id on the shared
// Firestore emulator (loading these rules does not touch the functions' project), empty at start.
import { readFileSync } from "node:fs";
import { initializeTestEnvironment, type RulesTestEnvironment } from "@firebase/rules-unit-testing";
import { doc, setDoc, type Firestore } from "firebase/firestore";

export async function rulesEnvironment(projectId: string): Promise<RulesTestEnvironment> {
  const [host, port] = (process.env.FIRESTORE_EMULATOR_HOST ?? "127.0.0.1:8080").split(":");
  const env = await initializeTestEnvironment({ projectId, firestore: { rules: readFileSync("firestore.rules", "utf8"), host: host!, port: Number(port) } });
  await env.clearFirestore();
  return env;
}

/** Paired devices as the oauth function records them (`devices/{id}`): owner, kind, name, and revokedAt for an unpaired one. */
export async function seedDevices(db: Firestore, kind: string, devices: Array<{ id: string; uid: string; name: string; revoked?: boolean }>): Promise<void> {
  for (const d of devices) await setDoc(doc(db, `devices/${d.id}`), { uid: d.uid, kind, name: d.name, ...(d.revoked ? { revokedAt: new Date() } : {}) });
}
