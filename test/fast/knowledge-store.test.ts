// The Firestore knowledge store (store.ts' KnowledgeStore) against the Firestore emulator, under
// the contracts the in-memory one keeps too (test/unit/knowledge-store.test.ts): its reads, and the
// whole backend (the importer and remover of ingest/ beside them).
import { FieldValue, Timestamp } from "firebase-admin/firestore";
import { KB_ITEMS } from "../../functions/src/domains/knowledge/schema.js";
import { KnowledgeStore } from "../../functions/src/domains/knowledge/store.js";
import { firestore } from "../../functions/src/platform/firebase.js";
import { firestoreKnowledge } from "../../functions/src/domains/knowledge/records.js";
import { knowledgeBackendContract, knowledgeStoreContract } from "../support/knowledge-store-contract.js";

knowledgeStoreContract("Firestore", async () => ({
  readsFor: (uid) => new KnowledgeStore(firestore(), uid),
  async put({ chunk_id, embedding, created_at, updated_at, ...rest }) {
    await firestore()
      .collection(KB_ITEMS)
      .doc(chunk_id)
      .set({
        ...rest,
        embedding: FieldValue.vector(embedding),
        created_at: Timestamp.fromDate(new Date(created_at)),
        updated_at: Timestamp.fromDate(new Date(updated_at)),
        terms: [],
        term_weights: {},
        term_count: 0,
      });
  },
}));

knowledgeBackendContract("Firestore", async () => firestoreKnowledge);
