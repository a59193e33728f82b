// The in-memory dermal store keeps the same contract as the Firestore one (test/fast/dermal-store.test.ts).
import { memoryDermalStore } from "../../functions/src/domains/dermal/records.js";
import { dermalStoreContract } from "../support/dermal-store-contract.js";

dermalStoreContract("memory", async () => {
  const store = memoryDermalStore();
  return { store, putProfile: async (p) => store.putProfile(p), putSession: async (s) => store.putSession(s), putReport: async (r) => store.putReport(r) };
});
