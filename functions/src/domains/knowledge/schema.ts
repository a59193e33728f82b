// The knowledge base in Firestore. One document per chunk in `kb_items` (its document, position,
// metadata, content, vector and timestamps, plus the owner's uid and the model that made the vector); one manifest per logical document in
// `kb_documents` (its live chunk ids, content hash for idempotent imports, and what it adds to
// the stats); one summary per user in `kb_stats` (changed in the same transaction that switches a
// manifest, so get_stats and completions never scan chunks).
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
  /** Lexical index entries (lexical.ts): distinct terms, their weighted counts, words in the content. */
  terms: string[];
  term_weights: Record<string, number>;
  term_count: number;
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

/** The manifest of one logical document: which chunks are live, and what they add to the stats. */
export interface DocumentRecord {
  owner_uid: string;
  /** Identity across imports: `file:<path relative to the import root>`, `id:<front-matter id>`, `kindle:<title>|<author>` or `readwise:<title>|<author>`. */
  doc_key: string;
  /** "prose" documents are replaced as a whole; "highlights" (Kindle, Readwise) only ever grow. */
  kind: "prose" | "highlights";
  /** Prose: hash of the chunk ids (which hash the content); "" for highlights (the id set is the check). */
  content_hash: string;
  title: string;
  author: string;
  source: string;
  total_chunks: number;
  /** Live chunks, in chunk_index order. Pending chunks (written, not yet switched) are not listed. */
  chunk_ids: string[];
  embedding_model: string;
  counts: StatsCounts;
  /** Bumped by every switch; an import whose manifest changed underneath it gives up. */
  generation: number;
  /** Roll-forward log of a switch too large for one transaction: pending chunks to publish, old ones to delete. */
  publish: string[];
  remove: string[];
  /** The roll-forward must also renumber the live chunks (chunk_index / total_chunks). */
  reindex: boolean;
  /** LEXICAL_VERSION the document's chunks were indexed with (absent: before the lexical index existed). */
  lexical_version: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * `owner_uid` of chunks written but not yet switched live. Every query (and every read by id)
 * requires `owner_uid == uid`, so these are invisible until the switch rewrites the field.
 */
export const pendingOwner = (uid: string): string => `~pending~${uid}`;

export const emptyCounts = (): StatsCounts => ({ chunks: 0, documents: 0, chars: 0, sources: {}, authors: {}, tags: {}, models: {} });

/** A document id that is stable per (owner, document key) and reveals neither. */
export function parentDocId(uid: string, docKey: string): string {
  return "d" + createHash("sha256").update(`${uid}\u0000${docKey}`).digest("hex").slice(0, 20);
}

/** Chunk ids name their content (see ingest/import.ts), so an unchanged chunk keeps its id across imports. */
export const chunkId = (parentDocId: string, contentKey: string): string =>
  `${parentDocId}-${createHash("sha256").update(contentKey).digest("hex").slice(0, 16)}`;

/** Map keys in Firestore may be any string except the reserved `__x__` form. */
export const statKey = (value: string): string => (/^__.*__$/.test(value) ? ` ${value}` : value);
export const fromStatKey = (key: string): string => (/^ __.*__$/.test(key) ? key.slice(1) : key);
