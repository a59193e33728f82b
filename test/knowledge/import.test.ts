// The importer's consistency guarantees against the Firestore emulator: overlapping highlight
// exports add up instead of replacing each other; a document that grows and shrinks across many
// write batches ends with exactly its chunks and matching stats; a crash before or during a switch
// never shows a mix and is repaired by the next import.
import { cp, mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { adminDb, createUser, type TestUser } from "../support/emulators.js";
import { callTool, connect, textOf } from "../support/mcp.js";
import { createEmbedder, type Embedder } from "../../functions/src/platform/embeddings.js";
import { importFiles, type ImportOptions, type ProgressEvent } from "../../functions/src/domains/knowledge/ingest/import.js";
import { term } from "../../functions/src/domains/knowledge/lexical.js";
import { INDEX_FULL, shardOf, shardRef } from "../../functions/src/domains/knowledge/postings.js";

let embedder: Embedder;
const clients: Client[] = [];

beforeAll(async () => {
  embedder = await createEmbedder("local");
});
afterAll(async () => Promise.all(clients.map((c) => c.close())));

const dir = () => mkdtemp(join(tmpdir(), "kb-import-"));
const items = (uid: string) => adminDb().collection("kb_items").where("owner_uid", "==", uid).get();
const pending = (uid: string) => adminDb().collection("kb_items").where("owner_uid", "==", `~pending~${uid}`).get();
const manifests = (uid: string) => adminDb().collection("kb_documents").where("owner_uid", "==", uid).get();
const stamps = async (uid: string) => Object.fromEntries((await items(uid)).docs.map((d) => [d.id, d.updateTime.toMillis()]));

async function stats(user: TestUser): Promise<{ total_chunks: number; total_documents: number; avg_chunk_length: number; sources: { name: string; chunks: number }[] }> {
  const c = await connect("knowledge", { token: user.token });
  clients.push(c);
  const r = await callTool(c, "get_stats");
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent as never;
}

const READWISE_HEADER = "Highlight,Book Title,Book Author,Note,Tags,Highlighted at\n";
const rw = (texts: string[]) => READWISE_HEADER + texts.map((t, i) => `"${t}",Overlap Book,Ann Author,,reading,2025-01-0${(i % 9) + 1} 10:00:00+00:00\n`).join("");
const kindle = (texts: string[], book = "Kindle Book (Kim Author)") =>
  texts.map((t, i) => `${book}\n- Your Highlight on page ${i} | Location ${i * 10} | Added on Monday, March 4, 2024 10:15:32 PM\n\n${t}\n==========\n`).join("");

describe("highlights are append-only: overlapping exports add up", () => {
  test("two overlapping Readwise and Kindle exports, imported twice in both orders: the union, and the second run writes nothing", async () => {
    const d = await dir();
    const H = ["The first highlight about patience.", "The second highlight about courage.", "The third highlight about rivers.", "The fourth highlight about mountains."];
    const K = ["Kindle one: the sea remembers.", "Kindle two: the forest listens.", "Kindle three: the desert waits."];
    await writeFile(join(d, "export-a.csv"), rw(H.slice(0, 3)));
    await writeFile(join(d, "export-b.csv"), rw(H.slice(1, 4)));
    await writeFile(join(d, "clippings-a.txt"), kindle(K.slice(0, 2)));
    await writeFile(join(d, "clippings-b.txt"), kindle(K.slice(1, 3)));
    const files = ["export-a.csv", "export-b.csv", "clippings-a.txt", "clippings-b.txt"].map((f) => join(d, f));
    for (const order of [files, [...files].reverse()]) {
      const user = await createUser();
      const opts: ImportOptions = { db: adminDb(), uid: user.uid, embedder };
      const first = await importFiles(order, opts);
      expect(first.failed).toBe(0);
      expect(first.chunksWritten).toBe(7); // 4 + 3 distinct highlights, each written once
      const contents = (await items(user.uid)).docs.map((x) => x.get("content") as string).sort();
      expect(contents).toEqual([...H, ...K].sort());
      const before = await stamps(user.uid);
      const again = await importFiles(order, opts);
      expect(again.documents).toEqual({ imported: 0, updated: 0, unchanged: 4 });
      expect(again.chunksWritten).toBe(0);
      expect(await stamps(user.uid)).toEqual(before);
      // One manifest per book, listing the union.
      const m = (await manifests(user.uid)).docs.map((x) => (x.get("chunk_ids") as string[]).length).sort();
      expect(m).toEqual([3, 4]);
      const s = await stats(user);
      expect(s.total_chunks).toBe(7);
      expect(s.total_documents).toBe(2);
    }
  });

  test("a book growing from 200 to 250 highlights has 250 chunks (not 450), and an older export removes nothing", async () => {
    const user = await createUser();
    const d = await dir();
    const texts = Array.from({ length: 250 }, (_, i) => `Highlight number ${i} on the craft of careful reading.`);
    const file = join(d, "My Clippings.txt");
    const opts: ImportOptions = { db: adminDb(), uid: user.uid, embedder };
    await writeFile(file, kindle(texts.slice(0, 200)));
    expect((await importFiles([file], opts)).chunksWritten).toBe(200);
    await writeFile(file, kindle(texts));
    const grown = await importFiles([file], opts);
    expect(grown.chunksWritten).toBe(50);
    expect(grown.documents.updated).toBe(1);
    expect((await items(user.uid)).size).toBe(250);
    await writeFile(file, kindle(texts.slice(0, 200)));
    const older = await importFiles([file], opts);
    expect(older.documents.unchanged).toBe(1);
    expect((await items(user.uid)).size).toBe(250);
    expect((await stats(user)).total_chunks).toBe(250);
  });
});

// Paragraphs of ~700 characters: each becomes one chunk (plus the previous one's last sentence).
const paragraph = (i: number) =>
  Array.from({ length: 7 }, (_, k) => `Paragraph ${i} sentence ${k} talks about topic ${(i * 7 + k) % 23} in plain and simple words here.`).join(" ");
const markdown = (n: number) => `---\ntitle: Growing Note\nauthor: Grow Author\n---\n${Array.from({ length: n }, (_, i) => paragraph(i)).join("\n\n")}\n`;

async function expectConsistent(user: TestUser, expected: number): Promise<void> {
  const live = await items(user.uid);
  expect(live.size).toBe(expected);
  expect((await pending(user.uid)).size).toBe(0);
  const [manifest] = (await manifests(user.uid)).docs;
  const ids = manifest!.get("chunk_ids") as string[];
  expect(ids).toHaveLength(expected);
  expect(new Set(live.docs.map((d) => d.id))).toEqual(new Set(ids));
  expect(manifest!.get("publish")).toEqual([]);
  expect(manifest!.get("remove")).toEqual([]);
  for (const doc of live.docs) {
    expect(doc.get("chunk_index")).toBe(ids.indexOf(doc.id));
    expect(doc.get("total_chunks")).toBe(expected);
  }
  const s = await stats(user);
  expect(s.total_chunks).toBe(expected);
  expect(s.total_documents).toBe(1);
  const chars = live.docs.reduce((n, d) => n + String(d.get("content")).length, 0);
  expect(s.avg_chunk_length).toBeCloseTo(chars / expected, 0);
}

describe("a document written in many batches", () => {
  test("grows past one transaction and shrinks back: exactly its chunks, renumbered, with matching stats", async () => {
    const user = await createUser();
    const d = await dir();
    const file = join(d, "growing.md");
    // Batches of 4 and switches of at most 10 writes: the grow and the shrink both take the
    // roll-forward path that a document of thousands of chunks takes in production.
    const opts: ImportOptions = { db: adminDb(), uid: user.uid, embedder, writeBatch: 4, maxSwitchWrites: 10 };
    const sizes: number[] = [];
    for (const n of [6, 15, 3, 15]) {
      await writeFile(file, markdown(n));
      const r = await importFiles([file], opts);
      expect(r.failed).toBe(0);
      sizes.push(r.files[0]!.documents[0]!.chunks);
      await expectConsistent(user, sizes.at(-1)!);
    }
    expect(sizes[1]).toBeGreaterThan(sizes[0]!);
    expect(sizes[2]).toBeLessThan(sizes[0]!);
    expect(sizes[3]).toBe(sizes[1]);
  });

  test("a failure while writing new chunks leaves the old version complete and nothing new visible; the next import cleans up", async () => {
    const user = await createUser();
    const d = await dir();
    const file = join(d, "crash.md");
    const opts: ImportOptions = { db: adminDb(), uid: user.uid, embedder, writeBatch: 3 };
    await writeFile(file, markdown(4));
    await importFiles([file], opts);
    const before = await stamps(user.uid);
    await writeFile(file, markdown(12).replace(/Paragraph 0 /g, "Edited paragraph zero "));
    const crash = (e: ProgressEvent) => {
      if (e.type === "writing" && e.stage === "pending") throw new Error("simulated crash");
    };
    const failed = await importFiles([file], { ...opts, onProgress: crash });
    expect(failed.failed).toBe(1);
    expect(failed.files[0]!.error).toBe("simulated crash");
    expect(await stamps(user.uid)).toEqual(before); // the old version, untouched
    expect((await pending(user.uid)).size).toBe(3); // one batch, invisible to every query
    const c = await connect("knowledge", { token: user.token });
    clients.push(c);
    const listed = await callTool(c, "search_by_metadata", { author: "Grow Author", limit: 100 });
    expect((listed.structuredContent as { result_count: number }).result_count).toBe(Object.keys(before).length);
    const ok = await importFiles([file], opts);
    expect(ok.documents.updated).toBe(1);
    await expectConsistent(user, ok.files[0]!.documents[0]!.chunks);
  });

  test("a failure in the middle of a roll-forward is finished by the next import", async () => {
    const user = await createUser();
    const d = await dir();
    const file = join(d, "roll.md");
    const opts: ImportOptions = { db: adminDb(), uid: user.uid, embedder, writeBatch: 3, maxSwitchWrites: 5 };
    await writeFile(file, markdown(3));
    await importFiles([file], opts);
    await writeFile(file, markdown(10));
    const crash = (e: ProgressEvent) => {
      if (e.type === "writing" && e.stage === "roll-forward") throw new Error("simulated crash");
    };
    expect((await importFiles([file], { ...opts, onProgress: crash })).failed).toBe(1);
    const [manifest] = (await manifests(user.uid)).docs;
    expect((manifest!.get("publish") as string[]).length).toBeGreaterThan(0); // the log survived the crash
    const again = await importFiles([file], opts);
    expect(again.documents.unchanged).toBe(1); // the content is already switched; only the log was applied
    await expectConsistent(user, (manifest!.get("chunk_ids") as string[]).length);
  });
});

describe("document identity", () => {
  test("a Markdown note is identified by its path below the imported folder: the same folder elsewhere is the same documents", async () => {
    const user = await createUser();
    const a = await dir();
    await mkdir(join(a, "notes", "sub"), { recursive: true });
    await writeFile(join(a, "notes", "sub", "one.md"), "# One\n\nA note about tea ceremonies and patience.\n");
    await writeFile(join(a, "notes", "two.md"), "---\nid: my-stable-id\n---\n# Two\n\nA note about bicycles.\n");
    const opts: ImportOptions = { db: adminDb(), uid: user.uid, embedder };
    expect((await importFiles([join(a, "notes")], opts)).documents.imported).toBe(2);
    const b = await dir();
    await cp(join(a, "notes"), join(b, "moved"), { recursive: true });
    const moved = await importFiles([join(b, "moved")], opts);
    expect(moved.documents).toEqual({ imported: 0, updated: 0, unchanged: 2 });
    const keys = (await manifests(user.uid)).docs.map((m) => m.get("doc_key") as string).sort();
    expect(keys).toEqual(["file:sub/one.md", "id:my-stable-id"]);
  });
});

describe("the stats summary adds up whatever the order", () => {
  test("a note without tags or author, imported after tagged ones (alone, or beside them in one run), keeps their tag and author counts", async () => {
    const d = await dir();
    await writeFile(join(d, "a-tagged.md"), "---\ntitle: Tagged\nauthor: Tess Tagger\ntags: [soil, compost]\n---\nCompost feeds soil life.\n");
    await writeFile(join(d, "b-tagged.md"), "---\ntitle: Tagged too\nauthor: Tess Tagger\ntags: [soil]\n---\nHealthy soil grows resilient vegetables.\n");
    await writeFile(join(d, "c-plain.txt"), "A plain note with no tags and no author.\n");
    for (const runs of [[[join(d, "a-tagged.md"), join(d, "b-tagged.md")], [join(d, "c-plain.txt")]], [[d]]]) {
      const user = await createUser();
      for (const paths of runs) expect((await importFiles(paths, { db: adminDb(), uid: user.uid, embedder })).failed).toBe(0);
      const s = (await stats(user)) as Awaited<ReturnType<typeof stats>> & { tags: { name: string; chunks: number }[]; authors: { name: string; chunks: number }[] };
      expect(s.total_documents).toBe(3);
      expect(s.tags).toEqual([
        { name: "soil", chunks: 2 },
        { name: "compost", chunks: 1 },
      ]);
      expect(s.authors).toEqual([{ name: "Tess Tagger", chunks: 2 }]);
    }
  });
});

describe("a full word index", () => {
  test("the import that would pass 1 MiB in a shard fails with the sentence, keeps the old version, and search keeps working", async () => {
    const user = await createUser();
    const d = await dir();
    const file = join(d, "note.md");
    const opts: ImportOptions = { db: adminDb(), uid: user.uid, embedder };
    await writeFile(file, "---\ntitle: Field Note\n---\nThe heron waits by the river at dawn.\n");
    expect((await importFiles([file], opts)).failed).toBe(0);
    const before = (await items(user.uid)).docs.map((x) => x.get("content"));

    // The shard that the edited text's rare word lands in is filled to within a few bytes of
    // Firestore's 1 MiB (the largest filler that still fits: less than one posting of room).
    const rare = term("zebrafish", "en")!;
    const shard = shardRef(adminDb(), user.uid, shardOf(rare));
    const fits = (n: number) => shard.set({ filler: "x".repeat(n) }, { merge: true }).then(() => true, () => false);
    let low = 1_000_000;
    let high = 1_048_576;
    expect(await fits(low)).toBe(true);
    while (high - low > 8) {
      const mid = Math.floor((low + high) / 2);
      if (await fits(mid)) low = mid;
      else high = mid;
    }
    expect(await fits(low)).toBe(true);
    await writeFile(file, "---\ntitle: Field Note\n---\nThe heron waits by the river at dawn, watching zebrafish.\n");
    const report = await importFiles([file], opts);
    expect(report.failed).toBe(1);
    expect(report.files[0]!.error).toContain(INDEX_FULL);
    // The old version stays whole, and is still found by its words.
    expect((await items(user.uid)).docs.map((x) => x.get("content"))).toEqual(before);
    const c = await connect("knowledge", { token: user.token });
    clients.push(c);
    const found = await callTool(c, "search_semantic", { query: "heron", mode: "lexical" });
    expect(found.isError, textOf(found)).toBeFalsy();
    expect((found.structuredContent as { results: { full_content: string }[] }).results.map((r) => r.full_content)).toEqual(before);
  });
});
