// The in-memory knowledge store and backend keep the same contracts as the Firestore ones (test/fast/knowledge-store.test.ts).
import { memoryKnowledge } from "../../functions/src/domains/knowledge/records.js";
import { knowledgeBackendContract, knowledgeStoreContract } from "../support/knowledge-store-contract.js";

knowledgeStoreContract("memory", async () => {
  const memory = memoryKnowledge();
  return { readsFor: memory.readsFor, put: async (c) => memory.put(c) };
});

knowledgeBackendContract("memory", async () => memoryKnowledge());
