// Reads of the knowledge base, always for one owner: every query starts with
// `owner_uid == uid`, and a chunk fetched by id that belongs to someone else reads as not found.
import { FieldPath, Timestamp, type DocumentSnapshot, type Firestore, type Query, type WhereFilterOp } from "firebase-admin/firestore";
import { notFound } from "../../core/errors.js";
import { usableDocumentId } from "../../mcp/validation.js";
import { readPostings, type Posting } from "./postings.js";
import { emptyCounts, fromStatKey, KB_ITEMS, KB_STATS, type ChunkRecord, type StatsCounts } from "./schema.js";

/** A chunk as tools and resources show it: the stored record without owner, vector and lexical index, dates as ISO strings. */
export type Chunk = Omit<ChunkRecord, "owner_uid" | "embedding" | "created_at" | "updated_at" | "terms" | "term_weights" | "term_count"> & {
  chunk_id: string;
  created_at: string;
  updated_at: string;
};

export interface ScoredChunk extends Chunk {
  similarity: number;
  /** The chunk's weights of the asked lexical terms (see nearest's `terms`). */
  termWeights?: Record<string, number>;
  termCount?: number;
}

export interface Filters {
  tags?: string[] | undefined;
  author?: string | undefined;
  source?: string | undefined;
  dateFrom?: Date | undefined;
  dateTo?: Date | undefined;
}

const DISTANCE_FIELD = "vector_distance";
/**
 * What a listed chunk shows (toChunk): every query that returns chunks asks for these alone. The
 * 768-number vector would otherwise come with every result — ~7 KB each to send and to decode,
 * most of a search's CPU in this process.
 */
const CHUNK_FIELDS = ["parent_doc_id", "chunk_index", "total_chunks", "title", "author", "source", "category", "tags", "content", "embedding_model", "created_at", "updated_at"] as const;

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

  /** The caller's chunk, or "Chunk not found" (also for someone else's chunk). */
  async getChunk(chunkId: string): Promise<{ chunk: Chunk; vector: number[] }> {
    if (!usableDocumentId(chunkId, 200)) throw notFound("Chunk");
    const snap = await this.db.collection(KB_ITEMS).doc(chunkId).get();
    if (!snap.exists || snap.get("owner_uid") !== this.uid) throw notFound("Chunk");
    const embedding = snap.get("embedding") as { toArray(): number[] } | undefined;
    return { chunk: toChunk(snap), vector: embedding?.toArray() ?? [] };
  }

  /**
   * Nearest chunks by cosine distance, every filter inside the vector query (pre-filter). Tags
   * (any of) run one findNearest per tag with `array-contains` — the filter shape production
   * vector indexes serve — and merge by distance: the union's nearest `limit` are among each
   * tag's nearest `limit`, so this is still exact.
   */
  async nearest(vector: number[], model: string, limit: number, filters: Filters = {}, minSimilarity?: number, terms: string[] = []): Promise<ScoredChunk[]> {
    const queries = vectorQueries(this.items(), model, filters);
    const weightFields = termWeightFields(terms);
    const snaps = await Promise.all(
      queries.map((q) =>
        q
          .select(...CHUNK_FIELDS, ...weightFields, "term_count", DISTANCE_FIELD) // the distance is a field like the others: asked for too
          .findNearest({
            vectorField: "embedding",
            queryVector: vector,
            limit,
            distanceMeasure: "COSINE",
            distanceResultField: DISTANCE_FIELD,
            ...(minSimilarity !== undefined ? { distanceThreshold: 1 - minSimilarity } : {}),
          })
          .get(),
      ),
    );
    const byId = new Map<string, { doc: DocumentSnapshot; distance: number }>();
    for (const snap of snaps) for (const doc of snap.docs) byId.set(doc.id, { doc, distance: Number(doc.get(DISTANCE_FIELD) ?? 1) });
    return [...byId.values()]
      .sort((a, b) => a.distance - b.distance || a.doc.id.localeCompare(b.doc.id))
      .slice(0, limit)
      .map(({ doc, distance }) => ({ ...toChunk(doc), similarity: round(1 - distance), ...(terms.length ? termsOf(doc, terms) : {}) }));
  }

  /** The caller's postings of `terms` (term → chunk id → weight and length): their shards read by id. */
  postings(terms: string[]): Promise<Map<string, Map<string, Posting>>> {
    return readPostings(this.db, this.uid, terms);
  }

  /**
   * The chunks among `ids` that are the caller's, live and match the filters (author, source, any
   * of the tags, the date range), with their vectors when asked: one getAll. A posting can outlive its chunk for a moment (it is
   * removed after the switch that deletes the chunk) or precede it (written with the pending chunk).
   */
  async liveMatching(ids: string[], filters: Filters, withVectors: boolean): Promise<Map<string, { chunk: Chunk; vector?: number[] }>> {
    const out = new Map<string, { chunk: Chunk; vector?: number[] }>();
    if (!ids.length) return out;
    const snaps = await this.db.getAll(...ids.map((id) => this.db.collection(KB_ITEMS).doc(id)), { fieldMask: [...CHUNK_FIELDS, "owner_uid", ...(withVectors ? ["embedding"] : [])] });
    const tags = new Set(filters.tags ?? []);
    for (const snap of snaps) {
      if (!snap.exists || snap.get("owner_uid") !== this.uid) continue;
      const chunk = toChunk(snap);
      if (filters.author && chunk.author !== filters.author) continue;
      if (filters.source && chunk.source !== filters.source) continue;
      if (tags.size && !chunk.tags.some((t) => tags.has(t))) continue;
      const created = (snap.get("created_at") as Timestamp | undefined)?.toMillis();
      if (filters.dateFrom && (created === undefined || created < filters.dateFrom.getTime())) continue;
      if (filters.dateTo && (created === undefined || created > filters.dateTo.getTime())) continue;
      const embedding = withVectors ? (snap.get("embedding") as { toArray(): number[] } | undefined) : undefined;
      out.set(snap.id, { chunk, ...(embedding ? { vector: embedding.toArray() } : {}) });
    }
    return out;
  }

  /** The caller's chunks by id (others' and missing ones left out), with their vectors when asked. */
  async chunksById(ids: string[], withVectors: boolean): Promise<Map<string, { chunk: Chunk; vector?: number[] }>> {
    const out = new Map<string, { chunk: Chunk; vector?: number[] }>();
    if (!ids.length) return out;
    const refs = ids.map((id) => this.db.collection(KB_ITEMS).doc(id));
    const snaps = await this.db.getAll(...refs, { fieldMask: [...CHUNK_FIELDS, "owner_uid", ...(withVectors ? ["embedding"] : [])] });
    for (const snap of snaps) {
      if (!snap.exists || snap.get("owner_uid") !== this.uid) continue;
      const embedding = withVectors ? (snap.get("embedding") as { toArray(): number[] } | undefined) : undefined;
      out.set(snap.id, { chunk: toChunk(snap), ...(embedding ? { vector: embedding.toArray() } : {}) });
    }
    return out;
  }

  /** Newest first, filters as equality / array-contains-any in the query. */
  async byMetadata(filters: Filters, limit: number): Promise<Chunk[]> {
    const snap = await metadataQuery(this.items(), filters).select(...CHUNK_FIELDS).limit(limit).get();
    return snap.docs.map(toChunk);
  }

  /**
   * One page of chunks matching equality filters, newest first then by id (the index of
   * metadataQuery serves the id order too), after `after`; `more` says whether another page exists.
   */
  async byMetadataPage(filters: Filters, pageSize: number, after?: ListPosition): Promise<{ chunks: Chunk[]; more: boolean; last?: ListPosition }> {
    let q = metadataQuery(this.items(), filters).orderBy(FieldPath.documentId(), "desc").select(...CHUNK_FIELDS);
    if (after) q = q.startAfter(after.createdAt, after.id);
    const snap = await q.limit(pageSize + 1).get();
    const docs = snap.docs.slice(0, pageSize);
    const lastDoc = docs[docs.length - 1];
    const createdAt = lastDoc?.get("created_at") as Timestamp | undefined;
    return {
      chunks: docs.map(toChunk),
      more: snap.docs.length > pageSize,
      ...(lastDoc && createdAt instanceof Timestamp ? { last: { createdAt, id: lastDoc.id } } : {}),
    };
  }

  /** One page of the caller's newest chunks (created_at, then id, descending), after `after`. */
  async newestChunks(after: ListPosition | undefined, pageSize: number): Promise<{ chunks: Chunk[]; last?: ListPosition }> {
    let q = newestFirst(this.items())
      .orderBy(FieldPath.documentId(), "desc")
      .select("title", "author", "source", "chunk_index", "total_chunks", "parent_doc_id", "tags", "created_at");
    if (after) q = q.startAfter(after.createdAt, after.id);
    const snap = await q.limit(pageSize).get();
    const chunks = snap.docs.map((d) => toChunk(d));
    const lastDoc = snap.docs[snap.docs.length - 1];
    const createdAt = lastDoc?.get("created_at") as Timestamp | undefined;
    return { chunks, ...(lastDoc && createdAt instanceof Timestamp ? { last: { createdAt, id: lastDoc.id } } : {}) };
  }

  /** Chunk ids of the caller that start with `prefix`. */
  async chunkIdsStartingWith(prefix: string, limit = 20): Promise<string[]> {
    // A "/" would make Firestore read the prefix as a path and fail; no chunk id contains one.
    if (prefix.includes("/")) return [];
    let q = this.items().orderBy(FieldPath.documentId());
    if (prefix) q = q.startAt(prefix).endAt(prefix + "\uf8ff");
    const snap = await q.select().limit(limit).get();
    return snap.docs.map((d) => d.id);
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
    return valuesStartingWith(await this.counts(), field, prefix, limit);
  }
}

/** The values of a counted metadata field that start with `prefix` (case-insensitive), most used first. */
export function valuesStartingWith(counts: StatsCounts, field: "sources" | "authors" | "tags", prefix: string, limit: number): string[] {
  const p = prefix.toLowerCase();
  return Object.entries(counts[field])
    .filter(([value]) => value.toLowerCase().startsWith(p))
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([value]) => value);
}

const round = (n: number) => Math.round(n * 10_000) / 10_000;

/** Projections of single entries of the weight map: a chunk's ~200 weights stay on the server. */
const termWeightFields = (terms: string[]) => terms.map((t) => new FieldPath("term_weights", t));

function termsOf(doc: DocumentSnapshot, terms: string[]): { termWeights: Record<string, number>; termCount: number } {
  const termWeights: Record<string, number> = {};
  for (const t of terms) {
    const w = doc.get(new FieldPath("term_weights", t)) as number | undefined;
    if (w) termWeights[t] = w;
  }
  return { termWeights, termCount: Number(doc.get("term_count") ?? 0) };
}

export interface ListPosition {
  createdAt: Timestamp;
  id: string;
}

/** Firestore caps array-contains-any (and our per-tag vector queries) at 30 values. */
export const MAX_TAGS = 30;

// The query shapes, kept apart from the store so that test/unit/knowledge-units.test.ts can record
// them with a fake query and check that firestore.indexes.json declares an index for each: the
// emulator serves any shape, production only indexed ones.
export interface QueryLike<Q> {
  where(field: string, op: WhereFilterOp, value: unknown): Q;
  orderBy(field: string, direction: "asc" | "desc"): Q;
}

/** The pre-filtered queries under one findNearest each (one per tag when tags are given). */
export function vectorQueries<Q extends QueryLike<Q>>(owned: Q, model: string, filters: Filters): Q[] {
  let q = owned;
  if (filters.author) q = q.where("author", "==", filters.author);
  if (filters.source) q = q.where("source", "==", filters.source);
  q = q.where("embedding_model", "==", model);
  // Range filters inside findNearest: accepted by the emulator, not confirmed for production
  // vector indexes (see docs/knowledge.md, "Production caveats").
  if (filters.dateFrom) q = q.where("created_at", ">=", Timestamp.fromDate(filters.dateFrom));
  if (filters.dateTo) q = q.where("created_at", "<=", Timestamp.fromDate(filters.dateTo));
  const tags = filters.tags?.slice(0, MAX_TAGS) ?? [];
  return tags.length ? tags.map((tag) => q.where("tags", "array-contains", tag)) : [q];
}

/** search_by_metadata and the by-source/author/tag resources: equality filters, newest first. */
export function metadataQuery<Q extends QueryLike<Q>>(owned: Q, filters: Filters): Q {
  let q = owned;
  if (filters.author) q = q.where("author", "==", filters.author);
  if (filters.source) q = q.where("source", "==", filters.source);
  if (filters.tags?.length) q = q.where("tags", "array-contains-any", filters.tags.slice(0, MAX_TAGS));
  return newestFirst(q);
}

/** Newest first (the resource listing adds the document id, descending, which the same index serves). */
export function newestFirst<Q extends QueryLike<Q>>(q: Q): Q {
  return q.orderBy("created_at", "desc");
}

/** Cosine similarity of two vectors (0 when either is all zeros): what "nearest" means here. */
export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * (b[i] ?? 0);
    na += a[i]! * a[i]!;
    nb += (b[i] ?? 0) * (b[i] ?? 0);
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
