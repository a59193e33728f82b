// Reads of the knowledge base, always for one owner: every query starts with
// `owner_uid == uid`, and a chunk fetched by id that belongs to someone else reads as not found.
import { FieldPath, Timestamp, type DocumentSnapshot, type Firestore, type Query } from "firebase-admin/firestore";
import { notFound } from "../../mcp/errors.js";
import { emptyCounts, fromStatKey, KB_ITEMS, KB_STATS, type ChunkRecord, type StatsCounts } from "./schema.js";

export interface Chunk {
  chunk_id: string;
  parent_doc_id: string;
  chunk_index: number;
  total_chunks: number;
  title: string;
  author: string;
  source: string;
  category: string;
  tags: string[];
  content: string;
  embedding_model: string;
  created_at: string;
  updated_at: string;
}

export interface ScoredChunk extends Chunk {
  similarity: number;
}

export interface Filters {
  tags?: string[] | undefined;
  author?: string | undefined;
  source?: string | undefined;
  dateFrom?: Date | undefined;
  dateTo?: Date | undefined;
}

const DISTANCE_FIELD = "vector_distance";

export function toChunk(snap: DocumentSnapshot): Chunk {
  const d = snap.data() as ChunkRecord;
  return {
    chunk_id: snap.id,
    parent_doc_id: d.parent_doc_id,
    chunk_index: d.chunk_index,
    total_chunks: d.total_chunks,
    title: d.title ?? "",
    author: d.author ?? "",
    source: d.source ?? "",
    category: d.category ?? "",
    tags: d.tags ?? [],
    content: d.content ?? "",
    embedding_model: d.embedding_model,
    created_at: iso(d.created_at),
    updated_at: iso(d.updated_at),
  };
}

const iso = (t: Timestamp | undefined): string => (t instanceof Timestamp ? t.toDate().toISOString() : "");

export class KnowledgeStore {
  constructor(
    private readonly db: Firestore,
    readonly uid: string,
  ) {}

  private items(): Query {
    return this.db.collection(KB_ITEMS).where("owner_uid", "==", this.uid);
  }

  private filtered(filters: Filters): Query {
    let q = this.items();
    if (filters.author) q = q.where("author", "==", filters.author);
    if (filters.source) q = q.where("source", "==", filters.source);
    if (filters.tags?.length) q = q.where("tags", "array-contains-any", filters.tags.slice(0, 30));
    if (filters.dateFrom) q = q.where("created_at", ">=", Timestamp.fromDate(filters.dateFrom));
    if (filters.dateTo) q = q.where("created_at", "<=", Timestamp.fromDate(filters.dateTo));
    return q;
  }

  /** The caller's chunk, or "Chunk not found" (also for someone else's chunk). */
  async getChunk(chunkId: string): Promise<{ chunk: Chunk; vector: number[] }> {
    if (!chunkId || chunkId.includes("/")) throw notFound("Chunk");
    const snap = await this.db.collection(KB_ITEMS).doc(chunkId).get();
    if (!snap.exists || snap.get("owner_uid") !== this.uid) throw notFound("Chunk");
    const embedding = snap.get("embedding") as { toArray(): number[] } | undefined;
    return { chunk: toChunk(snap), vector: embedding?.toArray() ?? [] };
  }

  /** Nearest chunks by cosine distance, filters applied inside the vector query (pre-filter). */
  async nearest(vector: number[], model: string, limit: number, filters: Filters = {}, minSimilarity?: number): Promise<ScoredChunk[]> {
    const query = this.filtered(filters)
      .where("embedding_model", "==", model)
      .findNearest({
        vectorField: "embedding",
        queryVector: vector,
        limit,
        distanceMeasure: "COSINE",
        distanceResultField: DISTANCE_FIELD,
        ...(minSimilarity !== undefined ? { distanceThreshold: 1 - minSimilarity } : {}),
      });
    const snap = await query.get();
    return snap.docs.map((doc) => {
      const distance = Number(doc.get(DISTANCE_FIELD) ?? 1);
      return { ...toChunk(doc), similarity: round(1 - distance) };
    });
  }

  /** Newest first, filters as equality / array-contains-any in the query. */
  async byMetadata(filters: Filters, limit: number): Promise<Chunk[]> {
    const snap = await this.filtered(filters).orderBy("created_at", "desc").limit(limit).get();
    return snap.docs.map(toChunk);
  }

  /** One page of the caller's chunk ids and titles, in id order. */
  async listChunks(after: string | undefined, pageSize: number): Promise<{ chunks: Chunk[]; next?: string }> {
    let q = this.items().orderBy(FieldPath.documentId()).select("title", "author", "source", "chunk_index", "total_chunks", "parent_doc_id", "tags");
    if (after) q = q.startAfter(after);
    const snap = await q.limit(pageSize + 1).get();
    const docs = snap.docs.slice(0, pageSize);
    const chunks = docs.map((d) => toChunk(d));
    return { chunks, ...(snap.docs.length > pageSize ? { next: docs[docs.length - 1]!.id } : {}) };
  }

  /** Chunk ids of the caller that start with `prefix`. */
  async chunkIdsStartingWith(prefix: string, limit = 20): Promise<string[]> {
    let q = this.items().orderBy(FieldPath.documentId());
    if (prefix) q = q.startAt(prefix).endAt(prefix + "\uf8ff");
    const snap = await q.select().limit(limit).get();
    return snap.docs.map((d) => d.id);
  }

  async countChunks(): Promise<number> {
    const agg = await this.items().count().get();
    return agg.data().count;
  }

  /** The maintained summary (one document read). */
  async counts(): Promise<StatsCounts> {
    const snap = await this.db.collection(KB_STATS).doc(this.uid).get();
    const data = (snap.data() ?? {}) as Partial<StatsCounts>;
    const clean = (m: Record<string, number> | undefined) =>
      Object.fromEntries(Object.entries(m ?? {}).filter(([, n]) => n > 0).map(([k, n]) => [fromStatKey(k), n]));
    return {
      ...emptyCounts(),
      chunks: Math.max(0, data.chunks ?? 0),
      documents: Math.max(0, data.documents ?? 0),
      chars: Math.max(0, data.chars ?? 0),
      sources: clean(data.sources),
      authors: clean(data.authors),
      tags: clean(data.tags),
      models: clean(data.models),
    };
  }

  /** The caller's own values of a metadata field that start with `prefix` (case-insensitive), most used first. */
  async valuesStartingWith(field: "sources" | "authors" | "tags", prefix: string, limit = 100): Promise<string[]> {
    const counts = (await this.counts())[field];
    const p = prefix.toLowerCase();
    return Object.entries(counts)
      .filter(([value]) => value.toLowerCase().startsWith(p))
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, limit)
      .map(([value]) => value);
  }
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;
