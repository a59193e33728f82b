// The knowledge base in Firestore. One document per chunk in `kb_items` (the seed's schema plus
// the owner's uid and the model that made the vector); one record per imported document in
// `kb_documents` (content hash for idempotent imports, and what the document adds to the stats);
// one summary per user in `kb_stats` (maintained in the same transaction as every import, so
// get_stats and completions never scan chunks).
import { createHash } from "node:crypto";
import type { FieldValue, Timestamp } from "firebase-admin/firestore";

type VectorValue = ReturnType<typeof FieldValue.vector>;

export const KB_ITEMS = "kb_items";
export const KB_DOCUMENTS = "kb_documents";
export const KB_STATS = "kb_stats";

export interface ChunkRecord {
  owner_uid: string;
  parent_doc_id: string;
  chunk_index: number;
  total_chunks: number;
  title: string;
  author: string;
  source: string;
  category: string;
  tags: string[];
  content: string;
  embedding: VectorValue;
  embedding_model: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Counts a document (or, summed, a user's whole knowledge base) contributes to the stats. */
export interface StatsCounts {
  chunks: number;
  documents: number;
  chars: number;
  sources: Record<string, number>;
  authors: Record<string, number>;
  tags: Record<string, number>;
  models: Record<string, number>;
}

export interface DocumentRecord {
  owner_uid: string;
  /** What identifies the document across imports: a file path, or `kindle:<title>|<author>`. */
  doc_key: string;
  content_hash: string;
  title: string;
  author: string;
  source: string;
  total_chunks: number;
  chunk_ids: string[];
  embedding_model: string;
  counts: StatsCounts;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export const emptyCounts = (): StatsCounts => ({ chunks: 0, documents: 0, chars: 0, sources: {}, authors: {}, tags: {}, models: {} });

/** A document id that is stable per (owner, document key) and reveals neither. */
export function parentDocId(uid: string, docKey: string): string {
  return "d" + createHash("sha256").update(`${uid}\u0000${docKey}`).digest("hex").slice(0, 20);
}

export const chunkId = (parentDocId: string, index: number): string => `${parentDocId}-${String(index).padStart(4, "0")}`;

/** Map keys in Firestore may be any string except the reserved `__x__` form. */
export const statKey = (value: string): string => (/^__.*__$/.test(value) ? ` ${value}` : value);
export const fromStatKey = (key: string): string => (/^ __.*__$/.test(key) ? key.slice(1) : key);
