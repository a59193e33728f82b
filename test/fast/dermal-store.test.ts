// The Firestore dermal store (store.ts, in the layout of docs/dermal.md) against the Firestore
// emulator, under the contract the in-memory one keeps too (test/unit/dermal-store.test.ts).
import { Timestamp } from "firebase-admin/firestore";
import { firestoreDermalStore } from "../../functions/src/domains/dermal/records.js";
import { firestore } from "../../functions/src/platform/firebase.js";
import { dermalStoreContract } from "../support/dermal-store-contract.js";

const ts = (iso: string | null) => (iso === null ? null : Timestamp.fromDate(new Date(iso)));
const user = (uid: string) => firestore().collection("users").doc(uid);

dermalStoreContract("Firestore", async () => ({
  store: firestoreDermalStore,
  async putProfile({ uid, createdAt, lastActiveAt, ...rest }) {
    await user(uid).set({ ...rest, createdAt: ts(createdAt), lastActiveAt: ts(lastActiveAt) });
  },
  async putSession({ uid, sessionId, capturedAt, ...rest }) {
    await user(uid).collection("sessions").doc(sessionId).set({ ...rest, sessionId, capturedAt: ts(capturedAt) });
  },
  async putReport({ uid, sessionId, capturedAt, analyzedAt, ...rest }) {
    await user(uid).collection("reports").doc(sessionId).set({ ...rest, capturedAt: ts(capturedAt), analyzedAt: ts(analyzedAt) });
  },
}));
