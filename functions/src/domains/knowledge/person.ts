// A person's knowledge base as their home page shows it: one row per document (a note, an
// imported file, a book's highlights), and deleting one.
import { Timestamp } from "firebase-admin/firestore";
import { firestore } from "../../platform/firebase.js";
import { removeDocument } from "./ingest/remove.js";
import { KB_DOCUMENTS } from "./schema.js";

export interface DocumentRow {
  id: string;
  title: string;
  author: string;
  source: string;
  chunks: number;
  updated: string;
}

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
