// The contract every knowledge store keeps (functions/src/domains/knowledge/records.ts), run on
// each implementation: memory in test/unit, Firestore in test/fast. What the tools rely on: only
// the owner's chunks, someone else's reading as not found; newest first; the nearest by meaning.
import { describe, expect, test } from "vitest";
import type { KnowledgeBackend, KnowledgeReads, StoredChunk } from "../../functions/src/domains/knowledge/records.js";
import type { ParsedDocument } from "../../functions/src/domains/knowledge/ingest/parse.js";
import { EMBEDDING_DIMENSIONS, type Embedder } from "../../functions/src/platform/embeddings.js";

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

/** Vectors from the words (each word one dimension, hashed): texts that share words are near. */
export const wordsEmbedder: Embedder = {
  model: "contract-words",
  dimensions: EMBEDDING_DIMENSIONS,
  async embed(texts) {
    return texts.map((text) => {
      const v = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
      for (const w of text.toLowerCase().match(/\p{L}+/gu) ?? []) v[[...w].reduce((h, ch) => (h * 31 + ch.codePointAt(0)!) % EMBEDDING_DIMENSIONS, 7)]! += 1;
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
  },
};

/**
 * The contract of a whole backend: what an import leaves behind (chunks, the word index, the
 * counts) reads the same in every implementation, as do pages of newest chunks, re-imports and
 * removal. Runs on memory in test/unit and on Firestore in test/fast.
 */
export function knowledgeBackendContract(name: string, open: () => Promise<KnowledgeBackend>): void {
  describe(`knowledge backend contract: ${name}`, () => {
    const run = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
    const note = (title: string, content: string, extra: Partial<ParsedDocument> = {}): ParsedDocument => ({
      key: `note:${title.toLowerCase()}`,
      title,
      author: "",
      source: "conversation",
      category: "notes",
      tags: [],
      kind: "prose",
      pieces: [{ text: content }],
      ...extra,
    });

    test("an import is read back: chunks, the word index, counts, metadata values; again unchanged, changed updated", async () => {
      const b = await open();
      const uid = `importer-${run}`;
      const tide = await b.importDocument(note("Tide pools", "Anemones and hermit crabs share the tide pools.", { tags: ["ocean"], author: "Rachel" }), uid, wordsEmbedder);
      expect(tide).toMatchObject({ title: "Tide pools", status: "imported", chunks: 1, written: 1 });
      await b.importDocument(note("Deep work", "Focus without meetings; anemones optional.", { tags: ["focus", "ocean"] }), uid, wordsEmbedder);
      expect(await b.importDocument(note("Tide pools", "Anemones and hermit crabs share the tide pools.", { tags: ["ocean"], author: "Rachel" }), uid, wordsEmbedder)).toMatchObject({ status: "unchanged", written: 0 });

      const reads = b.readsFor(uid);
      const counts = await reads.counts();
      expect(counts).toMatchObject({ chunks: 2, documents: 2, authors: { Rachel: 1 }, tags: { ocean: 2, focus: 1 }, models: { "contract-words": 2 } });
      expect(await reads.valuesStartingWith("tags", "o")).toEqual(["ocean"]);
      const [chunk] = await reads.byMetadata({ author: "Rachel" }, 5);
      expect(chunk).toMatchObject({ parent_doc_id: tide.parent_doc_id, chunk_index: 0, total_chunks: 1, content: "Anemones and hermit crabs share the tide pools." });
      const postings = await reads.postings(["anemon", "crab", "absent"]);
      expect([...postings.get("anemon")!.keys()].length).toBe(2);
      expect([...postings.get("crab")!.keys()]).toEqual([chunk!.chunk_id]);
      expect(postings.get("absent")!.size).toBe(0);
      const [vector] = await wordsEmbedder.embed(["hermit crabs"], "query");
      const near = await reads.nearest(vector!, "contract-words", 1, {}, undefined, ["crab"]);
      expect(near[0]).toMatchObject({ chunk_id: chunk!.chunk_id, termWeights: { crab: 1 } });
      const live = await reads.liveMatching([chunk!.chunk_id], { tags: ["focus"] }, false);
      expect(live.size).toBe(0);
      await expect(b.readsFor(`someone-${run}`).counts()).resolves.toMatchObject({ chunks: 0, documents: 0 });

      const changed = await b.importDocument(note("Tide pools", "Starfish cling to the rocks."), uid, wordsEmbedder);
      expect(changed).toMatchObject({ parent_doc_id: tide.parent_doc_id, status: "updated", chunks: 1 });
      expect((await reads.postings(["crab"])).get("crab")!.size).toBe(0);
      expect((await reads.counts()).authors).toEqual({});
    });

    test("newest chunks in pages, each after the last; a removed document leaves nothing, and only its owner removes it", async () => {
      const b = await open();
      const uid = `pager-${run}`;
      const at = (n: number) => new Date(Date.UTC(2026, 0, n));
      const docs = [];
      for (const n of [1, 2, 3]) docs.push(await b.importDocument(note(`Day ${n}`, `Entry number ${n} of the diary.`, { createdAt: at(n) }), uid, wordsEmbedder));
      const reads = b.readsFor(uid);
      const first = await reads.newestChunks(undefined, 2);
      expect(first.chunks.map((c) => c.title)).toEqual(["Day 3", "Day 2"]);
      const second = await reads.newestChunks(first.last, 2);
      expect(second.chunks.map((c) => c.title)).toEqual(["Day 1"]);
      const page = await reads.byMetadataPage({ source: "conversation" }, 2);
      expect(page).toMatchObject({ more: true });
      expect((await reads.byMetadataPage({ source: "conversation" }, 2, page.last)).chunks.map((c) => c.title)).toEqual(["Day 1"]);

      expect(await b.removeDocument(`someone-${run}`, docs[1]!.parent_doc_id)).toBeUndefined();
      expect(await b.removeDocument(uid, docs[1]!.parent_doc_id)).toMatchObject({ title: "Day 2", chunks: 1 });
      expect(await b.removeDocument(uid, docs[1]!.parent_doc_id)).toBeUndefined();
      expect((await reads.newestChunks(undefined, 5)).chunks.map((c) => c.title)).toEqual(["Day 3", "Day 1"]);
      expect(await reads.counts()).toMatchObject({ chunks: 2, documents: 2 });
      expect((await reads.postings(["2"])).get("2")!.size).toBe(0);
    });
  });
}
