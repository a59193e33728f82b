// The in-memory knowledge store keeps the same contract as the Firestore one (test/fast/knowledge-store.test.ts).
import { memoryKnowledge } from "../../functions/src/domains/knowledge/records.js";
import { knowledgeStoreContract } from "../support/knowledge-store-contract.js";

knowledgeStoreContract("memory", async () => {
  const memory = memoryKnowledge();
  return { readsFor: memory.readsFor, put: async (c) => memory.put(c) };
});
