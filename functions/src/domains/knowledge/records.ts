// The knowledge base as a backend (the storage seam, backend.ts) in two implementations held to one
// contract (test/support/knowledge-store-contract.ts): Firestore (store.ts' KnowledgeStore, the
// importer and remover of ingest/, the process's embedder), which the function serves, and memory
// (logic tests without emulators, other hosts), which keeps the same chunks, ids, word weights and
// counts in maps. Ids are ordered as Firestore orders document ids.
import { Timestamp } from "firebase-admin/firestore";
import { notFound } from "../../core/errors.js";
import { usableDocumentId } from "../../mcp/validation.js";
import { embedder as processEmbedder, type Embedder } from "../../platform/embeddings.js";
import { firestore } from "../../platform/firebase.js";
import type { KnowledgeBackend, KnowledgeReads } from "./backend.js";
import { chunkFields, chunksOf, importDocument, type DocumentResult } from "./ingest/import.js";
import type { ParsedDocument } from "./ingest/parse.js";
import { removeDocument, type RemovedDocument } from "./ingest/remove.js";
import { chunkTerms } from "./lexical.js";
import { packPosting, unpackPosting, type Posting } from "./postings.js";
import { emptyCounts, parentDocId, type StatsCounts } from "./schema.js";
import { cosine, KnowledgeStore, MAX_TAGS, valuesStartingWith, type Chunk, type Filters, type ListPosition, type ScoredChunk } from "./store.js";

export type { KnowledgeBackend, KnowledgeReads };

/** The function's backend: Firestore, and the process's embedder (platform/embeddings.ts). */
export const firestoreKnowledge: KnowledgeBackend = {
  readsFor: (uid) => new KnowledgeStore(firestore(), uid),
  importDocument: (doc, uid, embedder) => importDocument(doc, { db: firestore(), uid, embedder }),
  removeDocument: (uid, parentId) => removeDocument(firestore(), uid, parentId),
  embedder: processEmbedder,
};

/** A chunk as memory holds it: what the tools show, its owner and its vector. */
export interface StoredChunk extends Chunk {
  owner_uid: string;
  embedding: number[];
}

/** A backend in memory, and how to fill it. Without an embedder, searching by meaning and saving notes fail as an unconfigured provider would. */
export interface MemoryKnowledge extends KnowledgeBackend {
  put(chunk: StoredChunk): void;
}

export function memoryKnowledge(embedder?: Embedder): MemoryKnowledge {
  const chunks = new Map<string, StoredChunk & { weights: Record<string, number>; length: number }>();
  const shown = ({ owner_uid: _owner, embedding: _vector, weights: _w, length: _l, ...chunk }: StoredChunk & { weights?: unknown; length?: unknown }): Chunk => structuredClone(chunk);
  const time = (c: Chunk) => Date.parse(c.created_at);
  // Newest first, then id descending: the order of the (created_at, __name__) index.
  const newestFirst = (a: Chunk, b: Chunk) => time(b) - time(a) || compareIds(b.chunk_id, a.chunk_id);
  const after = (p: ListPosition) => (c: Chunk) => time(c) < p.createdAt.toMillis() || (time(c) === p.createdAt.toMillis() && compareIds(c.chunk_id, p.id) < 0);
  const positionOf = (c: Chunk | undefined): { last?: ListPosition } => (c ? { last: { createdAt: Timestamp.fromMillis(time(c)), id: c.chunk_id } } : {});
  const put = (chunk: StoredChunk) => {
    const { term_weights, term_count } = chunkTerms(chunk);
    chunks.set(chunk.chunk_id, { ...structuredClone(chunk), weights: term_weights, length: term_count });
  };

  function readsFor(uid: string): KnowledgeReads {
    const own = () => [...chunks.values()].filter((c) => c.owner_uid === uid);
    const matches = (c: Chunk, f: Filters) =>
      (!f.author || c.author === f.author) &&
      (!f.source || c.source === f.source) &&
      (!f.tags?.length || c.tags.some((t) => f.tags!.slice(0, MAX_TAGS).includes(t))) &&
      (!f.dateFrom || time(c) >= f.dateFrom.getTime()) &&
      (!f.dateTo || time(c) <= f.dateTo.getTime());
    const byIds = async (ids: string[], withVectors: boolean, filters: Filters = {}) => {
      const out = new Map<string, { chunk: Chunk; vector?: number[] }>();
      for (const id of ids) {
        const c = chunks.get(id);
        if (c && c.owner_uid === uid && matches(c, filters)) out.set(id, { chunk: shown(c), ...(withVectors ? { vector: [...c.embedding] } : {}) });
      }
      return out;
    };
    const counts = (): StatsCounts => {
      const out = emptyCounts();
      const bump = (m: Record<string, number>, key: string) => {
        if (key) m[key] = (m[key] ?? 0) + 1;
      };
      const documents = new Set<string>();
      for (const c of own()) {
        documents.add(c.parent_doc_id);
        out.chunks += 1;
        out.chars += c.content.length;
        bump(out.sources, c.source);
        bump(out.authors, c.author);
        bump(out.models, c.embedding_model);
        for (const t of c.tags) bump(out.tags, t);
      }
      out.documents = documents.size;
      return out;
    };
    return {
      uid,
      async getChunk(chunkId) {
        const c = usableDocumentId(chunkId, 200) ? chunks.get(chunkId) : undefined;
        if (!c || c.owner_uid !== uid) throw notFound("Chunk");
        return { chunk: shown(c), vector: [...c.embedding] };
      },
      async nearest(vector, model, limit, filters = {}, minSimilarity, terms = []) {
        return own()
          .filter((c) => c.embedding_model === model && matches(c, filters))
          .map((c) => ({ c, distance: 1 - cosine(vector, c.embedding) }))
          .filter(({ distance }) => minSimilarity === undefined || distance <= 1 - minSimilarity)
          .sort((a, b) => a.distance - b.distance || a.c.chunk_id.localeCompare(b.c.chunk_id))
          .slice(0, limit)
          .map(({ c, distance }): ScoredChunk => ({
            ...shown(c),
            similarity: Math.round((1 - distance) * 10_000) / 10_000,
            ...(terms.length ? { termWeights: Object.fromEntries(terms.flatMap((t) => (c.weights[t] ? [[t, c.weights[t]!]] : []))), termCount: c.length } : {}),
          }));
      },
      async postings(terms) {
        const out = new Map<string, Map<string, Posting>>(terms.map((t) => [t, new Map()]));
        for (const c of own()) {
          for (const t of terms) {
            const w = c.weights[t];
            if (w) out.get(t)!.set(c.chunk_id, unpackPosting(packPosting(w, c.length)));
          }
        }
        return out;
      },
      liveMatching: (ids, filters, withVectors) => byIds(ids, withVectors, filters),
      chunksById: (ids, withVectors) => byIds(ids, withVectors),
      async byMetadata(filters, limit) {
        return own().filter((c) => matches(c, { author: filters.author, source: filters.source, tags: filters.tags })).sort(newestFirst).slice(0, limit).map(shown);
      },
      async byMetadataPage(filters, pageSize, from) {
        const all = own()
          .filter((c) => matches(c, { author: filters.author, source: filters.source, tags: filters.tags }) && (!from || after(from)(c)))
          .sort(newestFirst);
        const page = all.slice(0, pageSize);
        return { chunks: page.map(shown), more: all.length > pageSize, ...positionOf(page.at(-1)) };
      },
      async newestChunks(from, pageSize) {
        const page = own()
          .filter((c) => !from || after(from)(c))
          .sort(newestFirst)
          .slice(0, pageSize);
        return { chunks: page.map(shown), ...positionOf(page.at(-1)) };
      },
      async chunkIdsStartingWith(prefix, limit = 20) {
        if (prefix.includes("/")) return [];
        return own()
          .map((c) => c.chunk_id)
          .filter((id) => id.startsWith(prefix))
          .sort(compareIds)
          .slice(0, limit);
      },
      counts: async () => counts(),
      valuesStartingWith: async (field, prefix, limit = 100) => valuesStartingWith(counts(), field, prefix, limit),
    };
  }

  async function importOne(doc: ParsedDocument, uid: string, e: Embedder): Promise<DocumentResult> {
    const parentId = parentDocId(uid, doc.key);
    const planned = chunksOf(doc, parentId, e.model);
    const old = [...chunks.values()].filter((c) => c.owner_uid === uid && c.parent_doc_id === parentId);
    const oldIds = new Set(old.map((c) => c.chunk_id));
    const unchanged = doc.kind === "prose" ? old.length === planned.length && planned.every((c) => oldIds.has(c.id)) : planned.every((c) => oldIds.has(c.id));
    if (unchanged) return { parent_doc_id: parentId, title: doc.title, status: "unchanged", chunks: old.length, written: 0 };
    const write = planned.filter((c) => !oldIds.has(c.id));
    const vectors = await e.embed(write.map((c) => c.content), "document");
    const now = new Date().toISOString();
    const firstSeen = old.reduce((min, c) => (c.created_at < min ? c.created_at : min), now);
    if (doc.kind === "prose") for (const c of old) if (!planned.some((p) => p.id === c.chunk_id)) chunks.delete(c.chunk_id);
    const live = doc.kind === "prose" ? planned.map((c) => c.id) : [...old.map((c) => c.chunk_id), ...write.map((c) => c.id)];
    write.forEach((c, i) =>
      put({
        chunk_id: c.id,
        owner_uid: uid,
        parent_doc_id: parentId,
        chunk_index: 0,
        total_chunks: 0,
        ...chunkFields(doc, c),
        embedding_model: e.model,
        embedding: vectors[i]!,
        created_at: (c.createdAt ?? doc.createdAt)?.toISOString() ?? firstSeen,
        updated_at: now,
      }),
    );
    live.forEach((id, i) => Object.assign(chunks.get(id)!, { chunk_index: i, total_chunks: live.length }));
    return { parent_doc_id: parentId, title: doc.title, status: old.length ? "updated" : "imported", chunks: live.length, written: write.length };
  }

  return {
    put,
    readsFor,
    importDocument: importOne,
    async removeDocument(uid, parentId): Promise<RemovedDocument | undefined> {
      const doc = [...chunks.values()].filter((c) => c.owner_uid === uid && c.parent_doc_id === parentId);
      if (!doc.length) return undefined;
      for (const c of doc) chunks.delete(c.chunk_id);
      const { title, author, source } = doc[0]!;
      return { parent_doc_id: parentId, title, author, source, chunks: doc.length };
    },
    async embedder() {
      if (!embedder) throw new Error("this memory knowledge backend has no embedder");
      return embedder;
    },
  };
}

/** Firestore's order of document ids (UTF-8 bytes). */
function compareIds(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
