// The contract every knowledge store keeps (functions/src/domains/knowledge/records.ts), run on
// each implementation: memory in test/unit, Firestore in test/fast. What the tools rely on: only
// the owner's chunks, someone else's reading as not found; newest first; the nearest by meaning.
import { describe, expect, test } from "vitest";
import type { KnowledgeReads, StoredChunk } from "../../functions/src/domains/knowledge/records.js";

export interface KnowledgeUnderTest {
  readsFor(uid: string): KnowledgeReads;
  put(chunk: StoredChunk): Promise<void>;
}

const MODEL = "contract-model";
const at = (n: number) => new Date(Date.UTC(2026, 1, 1 + n, 8)).toISOString();

export function knowledgeStoreContract(name: string, open: () => Promise<KnowledgeUnderTest>): void {
  describe(`knowledge store contract: ${name}`, () => {
    const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const chunk = (owner: string, id: string, n: number, embedding: number[], extra: Partial<StoredChunk> = {}): StoredChunk => ({
      chunk_id: `${id}-${run}`,
      owner_uid: `${owner}-${run}`,
      parent_doc_id: `doc-${id}`,
      chunk_index: 0,
      total_chunks: 1,
      title: `Title ${id}`,
      author: "Ada",
      source: "kindle",
      category: "books",
      tags: ["focus"],
      content: `Content of ${id}`,
      embedding_model: MODEL,
      created_at: at(n),
      updated_at: at(n),
      embedding,
      ...extra,
    });
    const shown = ({ owner_uid: _o, embedding: _e, ...c }: StoredChunk) => c;

    test("a chunk by id with its vector; someone else's and a made-up id read as not found", async () => {
      const s = await open();
      const mine = chunk("ana", "c1", 1, [1, 0, 0]);
      const theirs = chunk("ben", "c2", 1, [0, 1, 0]);
      await s.put(mine);
      await s.put(theirs);
      const ana = s.readsFor(mine.owner_uid);
      expect(await ana.getChunk(mine.chunk_id)).toEqual({ chunk: shown(mine), vector: [1, 0, 0] });
      await expect(ana.getChunk(theirs.chunk_id)).rejects.toThrow("Chunk not found");
      await expect(ana.getChunk(`missing-${run}`)).rejects.toThrow("Chunk not found");
      const many = await ana.chunksById([theirs.chunk_id, mine.chunk_id, `missing-${run}`], false);
      expect([...many.keys()]).toEqual([mine.chunk_id]);
      expect(many.get(mine.chunk_id)).toEqual({ chunk: shown(mine) });
    });

    test("by metadata: the owner's matching chunks, newest first; ids by prefix in id order", async () => {
      const s = await open();
      const owner = "meta";
      const old = chunk(owner, "m-old", 1, [1, 0, 0], { author: "Ada", tags: ["focus"] });
      const mid = chunk(owner, "m-mid", 2, [1, 0, 0], { author: "Bo", tags: ["habits"] });
      const fresh = chunk(owner, "m-new", 3, [1, 0, 0], { author: "Ada", tags: ["habits", "focus"] });
      for (const c of [mid, old, fresh]) await s.put(c);
      const reads = s.readsFor(old.owner_uid);
      expect((await reads.byMetadata({}, 10)).map((c) => c.chunk_id)).toEqual([fresh, mid, old].map((c) => c.chunk_id));
      expect((await reads.byMetadata({ author: "Ada" }, 10)).map((c) => c.chunk_id)).toEqual([fresh, old].map((c) => c.chunk_id));
      expect((await reads.byMetadata({ tags: ["habits"] }, 1)).map((c) => c.chunk_id)).toEqual([fresh.chunk_id]);
      expect(await reads.chunkIdsStartingWith("m-")).toEqual([mid, fresh, old].map((c) => c.chunk_id));
      expect(await reads.chunkIdsStartingWith("m-n")).toEqual([fresh.chunk_id]);
      expect(await reads.chunkIdsStartingWith("a/b")).toEqual([]);
    });

    test("nearest by cosine, the owner's chunks of the model only, filters first, a similarity floor", async () => {
      const s = await open();
      const owner = "near";
      const same = chunk(owner, "n-same", 1, [1, 0, 0]);
      const close = chunk(owner, "n-close", 2, [0.9, 0.1, 0], { author: "Bo" });
      const far = chunk(owner, "n-far", 3, [0, 0, 1]);
      const otherModel = chunk(owner, "n-model", 4, [1, 0, 0], { embedding_model: "other-model" });
      const stranger = chunk("someone", "n-stranger", 5, [1, 0, 0]);
      for (const c of [far, same, otherModel, close, stranger]) await s.put(c);
      const reads = s.readsFor(same.owner_uid);
      const all = await reads.nearest([1, 0, 0], MODEL, 10);
      expect(all.map((c) => c.chunk_id)).toEqual([same, close, far].map((c) => c.chunk_id));
      expect(all[0]!.similarity).toBeCloseTo(1, 3);
      expect(all[1]!.similarity).toBeCloseTo(0.9 / Math.sqrt(0.82), 3);
      expect(all[2]!.similarity).toBeCloseTo(0, 3);
      expect((await reads.nearest([1, 0, 0], MODEL, 1)).map((c) => c.chunk_id)).toEqual([same.chunk_id]);
      expect((await reads.nearest([1, 0, 0], MODEL, 10, { author: "Bo" })).map((c) => c.chunk_id)).toEqual([close.chunk_id]);
      expect((await reads.nearest([1, 0, 0], MODEL, 10, {}, 0.5)).map((c) => c.chunk_id)).toEqual([same, close].map((c) => c.chunk_id));
    });
  });
}
