// The knowledge base's reads as a store (the storage seam): one owner's chunks by id, by
// metadata, by id prefix and by nearest vector, as an interface with two implementations held to
// one contract (test/support/knowledge-store-contract.ts): Firestore (store.ts' KnowledgeStore)
// and memory (logic tests without emulators, other hosts).
import { notFound } from "../../core/errors.js";
import { usableDocumentId } from "../../mcp/validation.js";
import { cosine, MAX_TAGS, type Chunk, type Filters, type KnowledgeStore, type ScoredChunk } from "./store.js";

export type KnowledgeReads = Pick<KnowledgeStore, "uid" | "getChunk" | "chunksById" | "byMetadata" | "chunkIdsStartingWith"> & {
  /** Nearest by cosine distance, filters applied before; ties by id. */
  nearest(vector: number[], model: string, limit: number, filters?: Filters, minSimilarity?: number): Promise<ScoredChunk[]>;
};

/** A chunk as memory holds it: what the tools show, its owner and its vector. */
export interface StoredChunk extends Chunk {
  owner_uid: string;
  embedding: number[];
}

/** Every owner's chunks in memory; `readsFor(uid)` is one owner's store, as storeFor(ctx) is. */
export function memoryKnowledge(): { put(chunk: StoredChunk): void; readsFor(uid: string): KnowledgeReads } {
  const chunks = new Map<string, StoredChunk>();
  const shown = ({ owner_uid: _owner, embedding: _vector, ...chunk }: StoredChunk): Chunk => structuredClone(chunk);
  const newestFirst = (a: StoredChunk, b: StoredChunk) => Date.parse(b.created_at) - Date.parse(a.created_at);
  return {
    put: (chunk) => void chunks.set(chunk.chunk_id, structuredClone(chunk)),
    readsFor(uid) {
      const own = () => [...chunks.values()].filter((c) => c.owner_uid === uid);
      const matches = (c: StoredChunk, f: Filters) =>
        (!f.author || c.author === f.author) &&
        (!f.source || c.source === f.source) &&
        (!f.tags?.length || c.tags.some((t) => f.tags!.slice(0, MAX_TAGS).includes(t))) &&
        (!f.dateFrom || Date.parse(c.created_at) >= f.dateFrom.getTime()) &&
        (!f.dateTo || Date.parse(c.created_at) <= f.dateTo.getTime());
      const byIds = async (ids: string[], withVectors: boolean) => {
        const out = new Map<string, { chunk: Chunk; vector?: number[] }>();
        for (const id of ids) {
          const c = chunks.get(id);
          if (c && c.owner_uid === uid) out.set(id, { chunk: shown(c), ...(withVectors ? { vector: [...c.embedding] } : {}) });
        }
        return out;
      };
      return {
        uid,
        async getChunk(chunkId) {
          const c = usableDocumentId(chunkId, 200) ? chunks.get(chunkId) : undefined;
          if (!c || c.owner_uid !== uid) throw notFound("Chunk");
          return { chunk: shown(c), vector: [...c.embedding] };
        },
        chunksById: byIds,
        async byMetadata(filters, limit) {
          return own().filter((c) => matches(c, { author: filters.author, source: filters.source, tags: filters.tags })).sort(newestFirst).slice(0, limit).map(shown);
        },
        async chunkIdsStartingWith(prefix, limit = 20) {
          if (prefix.includes("/")) return [];
          return own()
            .map((c) => c.chunk_id)
            .filter((id) => id.startsWith(prefix))
            .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
            .slice(0, limit);
        },
        async nearest(vector, model, limit, filters = {}, minSimilarity) {
          return own()
            .filter((c) => c.embedding_model === model && matches(c, filters))
            .map((c) => ({ c, distance: 1 - cosine(vector, c.embedding) }))
            .filter(({ distance }) => minSimilarity === undefined || distance <= 1 - minSimilarity)
            .sort((a, b) => a.distance - b.distance || a.c.chunk_id.localeCompare(b.c.chunk_id))
            .slice(0, limit)
            .map(({ c, distance }) => ({ ...shown(c), similarity: Math.round((1 - distance) * 10_000) / 10_000 }));
        },
      };
    },
  };
}

