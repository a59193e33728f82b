// Removes one document of a user's knowledge base: its chunks (live and pending), their word-index
// postings, its manifest, and what it added to the stats. Chunks go first, in batches, so a crash
// half-way leaves the manifest, and removing the document again finishes the job.
import { Timestamp, type Firestore } from "firebase-admin/firestore";
import { emptyCounts, KB_DOCUMENTS, KB_ITEMS, KB_STATS, pendingOwner, type DocumentRecord } from "../schema.js";
import { PostingChanges } from "../postings.js";
import { statsDelta, WRITE_BATCH } from "./import.js";

export interface RemovedDocument {
  parent_doc_id: string;
  title: string;
  author: string;
  source: string;
  chunks: number;
}

/** The user's document `parentId` removed, or undefined when they have none by that id (someone else's reads as none). */
export async function removeDocument(db: Firestore, uid: string, parentId: string): Promise<RemovedDocument | undefined> {
  const ref = db.collection(KB_DOCUMENTS).doc(parentId);
  const snap = await ref.get();
  if (!snap.exists || snap.get("owner_uid") !== uid) return undefined;
  const record = snap.data() as DocumentRecord;
  // Every chunk of the document: the manifest's, the ones a switch had yet to publish, pending orphans.
  const [live, pending] = await Promise.all([
    db.collection(KB_ITEMS).where("owner_uid", "==", uid).where("parent_doc_id", "==", parentId).select("terms").get(),
    db.collection(KB_ITEMS).where("owner_uid", "==", pendingOwner(uid)).where("parent_doc_id", "==", parentId).select("terms").get(),
  ]);
  const docs = [...live.docs, ...pending.docs];
  const changes = new PostingChanges();
  for (let i = 0; i < docs.length; i += WRITE_BATCH) {
    const batch = db.batch();
    for (const d of docs.slice(i, i + WRITE_BATCH)) {
      batch.delete(d.ref);
      changes.remove(d.id, (d.get("terms") as string[] | undefined) ?? []);
    }
    await batch.commit();
  }
  await changes.write(db, uid);
  const removed = await db.runTransaction(async (tx) => {
    const current = await tx.get(ref);
    if (!current.exists) return false; // removed meanwhile by another request
    tx.delete(ref);
    tx.set(db.collection(KB_STATS).doc(uid), statsDelta(record.counts ?? emptyCounts(), emptyCounts(), Timestamp.now()), { merge: true });
    return true;
  });
  if (!removed) return undefined;
  return { parent_doc_id: parentId, title: record.title, author: record.author, source: record.source, chunks: record.chunk_ids.length };
}
