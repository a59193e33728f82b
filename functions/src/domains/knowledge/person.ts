// A person's knowledge base as their home page shows it: one row per document (a note, an
// imported file, a book's highlights), and deleting one.
import { Timestamp } from "firebase-admin/firestore";
import type { DocumentView } from "../../http/person.js";
import { firestore } from "../../platform/firebase.js";
import { embedder } from "../../platform/embeddings.js";
import { enqueueImport, eraseImports, importNext, listImports } from "./import-queue.js";
import { removeDocument } from "./ingest/remove.js";
import { KB_READWISE, readwiseStatus, removeReadwiseToken, saveReadwiseToken, syncReadwise } from "./readwise.js";
import { KB_LEXICON } from "./postings.js";
import { KB_DOCUMENTS, KB_ITEMS, KB_STATS, pendingOwner } from "./schema.js";

/** One row of the home page's documents table. */
export type DocumentRow = DocumentView;

/** The person's documents, most recently changed first. */
export async function listDocuments(uid: string): Promise<DocumentRow[]> {
  const snap = await firestore().collection(KB_DOCUMENTS).where("owner_uid", "==", uid).select("title", "author", "source", "total_chunks", "updated_at").get();
  return snap.docs
    .map((d) => ({
      id: d.id,
      title: (d.get("title") as string) || "Untitled",
      author: (d.get("author") as string) ?? "",
      source: (d.get("source") as string) ?? "",
      chunks: Number(d.get("total_chunks") ?? 0),
      updated: (d.get("updated_at") as Timestamp | undefined)?.toDate().toISOString() ?? "",
    }))
    .sort((a, b) => b.updated.localeCompare(a.updated) || a.title.localeCompare(b.title));
}

/** Deletes one of the person's documents; undefined when they have none by that id. */
export async function deleteDocument(uid: string, id: string): Promise<DocumentRow | undefined> {
  if (!/^d[0-9a-f]{20}$/.test(id)) return undefined;
  const removed = await removeDocument(firestore(), uid, id);
  return removed && { id: removed.parent_doc_id, title: removed.title, author: removed.author, source: removed.source, chunks: removed.chunks, updated: new Date().toISOString() };
}

/** Every document as Markdown with front matter (its chunks in order; prose chunks overlap a little). */
export async function exportKnowledge(uid: string): Promise<{ path: string; markdown: string }[]> {
  const db = firestore();
  const [docs, chunks] = await Promise.all([
    db.collection(KB_DOCUMENTS).where("owner_uid", "==", uid).get(),
    db.collection(KB_ITEMS).where("owner_uid", "==", uid).select("parent_doc_id", "chunk_index", "content", "tags", "category", "created_at").get(),
  ]);
  const byDoc = new Map<string, FirebaseFirestore.QueryDocumentSnapshot[]>();
  for (const c of chunks.docs) byDoc.set(c.get("parent_doc_id"), [...(byDoc.get(c.get("parent_doc_id")) ?? []), c]);
  const yaml = (v: string) => JSON.stringify(v);
  return docs.docs.map((d) => {
    const parts = (byDoc.get(d.id) ?? []).sort((a, b) => Number(a.get("chunk_index")) - Number(b.get("chunk_index")));
    const tags = [...new Set(parts.flatMap((p) => (p.get("tags") as string[] | undefined) ?? []))];
    const created = (d.get("created_at") as Timestamp | undefined)?.toDate().toISOString() ?? "";
    const front = [
      "---",
      `title: ${yaml(d.get("title") ?? "")}`,
      `author: ${yaml(d.get("author") ?? "")}`,
      `source: ${yaml(d.get("source") ?? "")}`,
      `tags: [${tags.map(yaml).join(", ")}]`,
      `date: ${created}`,
      `document_id: ${d.id}`,
      "---",
    ].join("\n");
    const slug = String(d.get("title") ?? "untitled").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "untitled";
    return { path: `knowledge/${slug}-${d.id}.md`, markdown: `${front}\n${parts.map((p) => String(p.get("content") ?? "")).join("\n\n")}\n` };
  });
}

/** Deletes the whole knowledge base: chunks (live and pending), manifests, the summary, the word index, the Readwise token. Returns documents deleted. */
export async function eraseKnowledge(uid: string): Promise<number> {
  const db = firestore();
  const writer = db.bulkWriter();
  const [items, pending, docs] = await Promise.all([
    db.collection(KB_ITEMS).where("owner_uid", "==", uid).select().get(),
    db.collection(KB_ITEMS).where("owner_uid", "==", pendingOwner(uid)).select().get(),
    db.collection(KB_DOCUMENTS).where("owner_uid", "==", uid).select().get(),
  ]);
  for (const d of [...items.docs, ...pending.docs, ...docs.docs]) void writer.delete(d.ref);
  void writer.delete(db.collection(KB_STATS).doc(uid));
  void writer.delete(db.collection(KB_READWISE).doc(uid));
  await writer.close();
  await db.recursiveDelete(db.collection(KB_LEXICON).doc(uid));
  await eraseImports(db, uid);
  return docs.size;
}

// Readwise sync, as the home page offers it (readwise.ts); errors are ReadwiseErrors with a sentence.
export const readwise = {
  status: (uid: string) => readwiseStatus(firestore(), uid),
  save: (uid: string, token: string) => saveReadwiseToken(firestore(), uid, token),
  remove: (uid: string) => removeReadwiseToken(firestore(), uid),
  syncNow: async (uid: string) => syncReadwise(firestore(), uid, await embedder()),
};

// Files dropped on the home page (import-queue.ts), embedded with the deployment's embedder.
export const imports = {
  enqueue: (uid: string, path: string, content: string) => enqueueImport(firestore(), uid, path, content),
  list: (uid: string) => listImports(firestore(), uid),
  next: (uid: string) => importNext(firestore(), embedder, uid),
};
