// The knowledge domain end to end: a corpus imported with the real importer and the local
// embedding model into the Firestore emulator, then every tool, resource and prompt through a
// real MCP client against the served function, as a signed-in user; and a second user who must
// see none of it.
import { readFile, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { FieldValue, Timestamp } from "firebase-admin/firestore";
import { adminDb, createUser, type TestUser } from "../support/emulators.js";
import { callTool, connect, textOf } from "../support/mcp.js";
import { createEmbedder, type Embedder } from "../../functions/src/platform/embeddings.js";
import { importFiles, type ImportReport } from "../../functions/src/domains/knowledge/ingest/import.js";
import { CLIPPINGS, EXPECTED, sharedWords, writeCorpus } from "./corpus.js";

interface Hit {
  rank: number;
  chunk_id: string;
  title: string;
  author: string;
  source: string;
  tags: string[];
  snippet: string;
  full_content: string;
  similarity: number;
  created_at?: string;
}
interface SearchOut {
  query: string;
  result_count: number;
  results: Hit[];
  note?: string;
}

let embedder: Embedder;
let alice: TestUser;
let bob: TestUser;
let corpus: Awaited<ReturnType<typeof writeCorpus>>;
let report: ImportReport;
let client: Client;
let bobClient: Client;
const clients: Client[] = [];

const data = <T>(r: Awaited<ReturnType<typeof callTool>>): T => {
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent as T;
};

beforeAll(async () => {
  embedder = await createEmbedder("local");
  [alice, bob] = await Promise.all([createUser(), createUser()]);
  corpus = await writeCorpus();
  report = await importFiles([corpus.dir], { db: adminDb(), uid: alice.uid, embedder });
  // Bob has a knowledge base of his own, on a subject alice's corpus also covers.
  const bobDir = await writeCorpus();
  await writeFile(bobDir.files.habits, "---\ntitle: Bob's Sleep Diary\nauthor: Bob Writer\ntags: [bob-only]\n---\nI slept badly after drinking espresso at four in the afternoon; next time no coffee after lunch.\n");
  await importFiles([bobDir.files.habits], { db: adminDb(), uid: bob.uid, embedder });
  client = await connect("knowledge", { token: alice.token });
  bobClient = await connect("knowledge", { token: bob.token });
  clients.push(client, bobClient);
});
afterAll(async () => Promise.all(clients.map((c) => c.close())));

describe("import", () => {
  test("imports Markdown, Kindle clippings and Readwise CSV; reports bad files by name and skips them", () => {
    const failed = report.files.filter((f) => f.status === "failed");
    expect(failed.map((f) => f.path).sort()).toEqual([corpus.files.binary, corpus.files.notReadwise].sort());
    expect(failed.find((f) => f.path === corpus.files.binary)?.error).toMatch(/not a text file/);
    expect(failed.find((f) => f.path === corpus.files.notReadwise)?.error).toMatch(/Readwise/);
    expect(report.documents).toEqual({ imported: EXPECTED.documents, updated: 0, unchanged: 0 });
    const byTitle = Object.fromEntries(report.files.flatMap((f) => f.documents).map((d) => [d.title, d.chunks]));
    expect(byTitle).toMatchObject({ "Sleep Well": 4, "Money Matters": 3, "Garden Days": 3, "Ocean Notes": 3 });
    expect(byTitle["Habit Notes"]).toBeGreaterThanOrEqual(2); // ~1,900 characters → chunks with overlap
  });

  test("stores each chunk's metadata, content and vector plus owner and embedding model", async () => {
    const snap = await adminDb().collection("kb_items").where("owner_uid", "==", alice.uid).where("title", "==", "Garden Days").get();
    expect(snap.size).toBe(3);
    const d = snap.docs[0]!.data();
    expect(Object.keys(d).sort()).toEqual(
      ["author", "category", "chunk_index", "content", "created_at", "embedding", "embedding_model", "owner_uid", "parent_doc_id", "source", "tags", "term_count", "term_weights", "terms", "title", "total_chunks", "updated_at"].sort(),
    );
    expect(d.embedding.toArray()).toHaveLength(768);
    expect(d.embedding_model).toBe(embedder.model);
    expect(d.source).toBe("readwise");
    expect(d.total_chunks).toBe(3);
  });

  test("re-importing the same files changes nothing", async () => {
    const before = await adminDb().collection("kb_items").where("owner_uid", "==", alice.uid).get();
    const again = await importFiles([corpus.dir], { db: adminDb(), uid: alice.uid, embedder });
    expect(again.documents).toEqual({ imported: 0, updated: 0, unchanged: EXPECTED.documents });
    expect(again.chunksWritten).toBe(0);
    const after = await adminDb().collection("kb_items").where("owner_uid", "==", alice.uid).get();
    expect(after.size).toBe(before.size);
    const stamp = (s: typeof before) => Object.fromEntries(s.docs.map((d) => [d.id, d.updateTime.toMillis()]));
    expect(stamp(after)).toEqual(stamp(before));
  });

  test("an edited file replaces its old chunks, and the stats follow", async () => {
    const carol = await createUser();
    const dir = await writeCorpus();
    await importFiles([dir.files.habits], { db: adminDb(), uid: carol.uid, embedder });
    const chunks = () => adminDb().collection("kb_items").where("owner_uid", "==", carol.uid).get();
    expect((await chunks()).size).toBeGreaterThanOrEqual(2);
    await writeFile(dir.files.habits, "---\ntitle: Habit Notes\nauthor: New Author\ntags: [short]\n---\nOne short paragraph now.\n");
    const edited = await importFiles([dir.files.habits], { db: adminDb(), uid: carol.uid, embedder });
    expect(edited.documents.updated).toBe(1);
    const now = await chunks();
    expect(now.size).toBe(1);
    expect(now.docs[0]!.get("content")).toContain("One short paragraph now.");
    expect(now.docs[0]!.get("author")).toBe("New Author");
    const c = await connect("knowledge", { token: carol.token });
    clients.push(c);
    const stats = data<{ total_chunks: number; authors: { name: string }[]; tags: { name: string }[] }>(await callTool(c, "get_stats"));
    expect(stats.total_chunks).toBe(1);
    expect(stats.authors.map((a) => a.name)).toEqual(["New Author"]);
    expect(stats.tags.map((t) => t.name)).toEqual(["short"]);
  });
});

describe("search_semantic", () => {
  test.each([
    ["how do equities react to tighter monetary policy", "central bank raises interest rates"],
    ["where does the air we inhale come from", "Phytoplankton"],
  ])("finds a chunk by meaning with no shared keywords: %s", async (query, expected) => {
    const out = data<SearchOut>(await callTool(client, "search_semantic", { query, limit: 3 }));
    const top = out.results[0]!;
    expect(top.full_content).toContain(expected);
    expect(sharedWords(query, top.full_content)).toEqual([]);
  });

  test("returns ranked results (rank, chunk_id, metadata, snippet, content) with similarities, best first", async () => {
    const out = data<SearchOut>(await callTool(client, "search_semantic", { query: "gardening and soil health", limit: 5, mode: "semantic" }));
    expect(out.query).toBe("gardening and soil health");
    expect(out.result_count).toBe(5);
    expect(out.results.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5]);
    const [queryVector] = await embedder.embed(["gardening and soil health"], "query");
    for (const r of out.results) {
      expect(r).toMatchObject({ chunk_id: expect.any(String), title: expect.any(String), author: expect.any(String), snippet: expect.any(String), full_content: expect.any(String) });
      // similarity is 1 - cosine distance of the stored vector to the query's: recompute it here.
      const stored = (await adminDb().collection("kb_items").doc(r.chunk_id).get()).get("embedding").toArray() as number[];
      const cosine = stored.reduce((sum, x, i) => sum + x * queryVector![i]!, 0);
      expect(r.similarity).toBeCloseTo(cosine, 3);
      expect(r.full_content.replace(/\s+/g, " ").startsWith(r.snippet.replace(/…$/, ""))).toBe(true);
    }
    const sims = out.results.map((r) => r.similarity);
    expect([...sims].sort((a, b) => b - a)).toEqual(sims);
    expect(out.results[0]!.title).toBe("Garden Days");
    expect(sims[0]).toBeGreaterThan(0.3); // a real match, clearly above unrelated text
    expect(sims[0]! - sims[4]!).toBeGreaterThan(0.05);
  });

  // These tests check the vector query's pre-filter, so they ask for mode "semantic" (hybrid would
  // rightly answer "no match" to a query far from every chunk the filter leaves: hybrid.test.ts).
  // Each filter test asks for fewer results than match, with a query whose nearest chunks do NOT
  // match (the top hit of FAR is the Kindle "central bank" highlight, April 2024, no tags): a
  // post-filter of the top `limit` would return fewer (or none), only a pre-filter returns `limit`.
  const FAR = "how do equities react to tighter monetary policy";
  test("the far query's nearest chunks match none of the filters below (so the filter tests can fail)", async () => {
    const top = data<SearchOut>(await callTool(client, "search_semantic", { query: FAR, limit: 3 })).results;
    expect(top[0]!.source).toBe("kindle");
    expect(top.filter((r) => r.source === "readwise")).toHaveLength(0);
    expect(top.filter((r) => r.tags.includes("soil") || r.tags.includes("biodiversity"))).toHaveLength(0);
    expect(top.filter((r) => r.title === "Sleep Well").length).toBeLessThan(2);
  });

  test("author filter is a pre-filter: `limit` results come back even when they are far from the query", async () => {
    const out = data<SearchOut>(await callTool(client, "search_semantic", { query: "gardening and soil health", limit: 3, author: "Penny Saver", mode: "semantic" }));
    expect(out.result_count).toBe(3);
    expect(new Set(out.results.map((r) => r.author))).toEqual(new Set(["Penny Saver"]));
  });

  test("source filter is a pre-filter", async () => {
    const out = data<SearchOut>(await callTool(client, "search_semantic", { query: FAR, limit: 3, source: "readwise", mode: "semantic" }));
    expect(out.result_count).toBe(3); // of 6 readwise chunks
    expect(out.results.every((r) => r.source === "readwise")).toBe(true);
  });

  test("tags filter (any of) is a pre-filter, merged across tags by similarity", async () => {
    const out = data<SearchOut>(await callTool(client, "search_semantic", { query: FAR, limit: 2, tags: ["soil", "biodiversity"], mode: "semantic" }));
    expect(out.result_count).toBe(2); // of 3: two "soil" highlights + one "biodiversity"
    expect(out.results.every((r) => r.tags.includes("soil") || r.tags.includes("biodiversity"))).toBe(true);
    const all = data<SearchOut>(await callTool(client, "search_semantic", { query: FAR, limit: 10, tags: ["soil", "biodiversity"], mode: "semantic" }));
    expect(all.result_count).toBe(3);
    expect(new Set(all.results.map((r) => r.chunk_id)).size).toBe(3);
    const sims = all.results.map((r) => r.similarity);
    expect([...sims].sort((a, b) => b - a)).toEqual(sims);
    expect(all.results.slice(0, 2).map((r) => r.chunk_id)).toEqual(out.results.map((r) => r.chunk_id));
  });

  test("date range filter is a pre-filter", async () => {
    const out = data<SearchOut>(await callTool(client, "search_semantic", { query: FAR, limit: 2, date_from: "2024-03-01", date_to: "2024-03-31", mode: "semantic" }));
    expect(out.result_count).toBe(2); // of 4: Sleep Well, highlighted in March 2024
    expect(out.results.every((r) => r.title === "Sleep Well")).toBe(true);
    const none = data<SearchOut>(await callTool(client, "search_semantic", { query: "anything", date_from: "2030-01-01" }));
    expect(none.result_count).toBe(0);
  });

  test("minimum similarity drops weaker hits", async () => {
    const all = data<SearchOut>(await callTool(client, "search_semantic", { query: "how do equities react to tighter monetary policy", limit: 20, mode: "semantic" }));
    const threshold = (all.results[0]!.similarity + all.results[1]!.similarity) / 2;
    const out = data<SearchOut>(await callTool(client, "search_semantic", { query: "how do equities react to tighter monetary policy", limit: 20, min_similarity: threshold }));
    expect(out.result_count).toBe(1);
    expect(out.results[0]!.similarity).toBeGreaterThanOrEqual(threshold);
  });

  test("invalid input is a tool error that says what to fix", async () => {
    const r = await callTool(client, "search_semantic", { query: "x", date_from: "last tuesday" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("Error: Invalid input: date_from must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with a time zone (400)");
    for (const [name, value] of [["date_to", "2024-02-30"], ["date_from", "5"], ["date_to", "2024-13-01"]] as const) {
      const bad = await callTool(client, "search_semantic", { query: "x", [name]: value });
      expect(bad.isError).toBe(true);
      expect(textOf(bad)).toBe(`Error: Invalid input: ${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with a time zone (400)`);
    }
    const reversed = await callTool(client, "search_semantic", { query: "x", date_from: "2024-03-02", date_to: "2024-03-01" });
    expect(textOf(reversed)).toBe("Error: date_from must not be after date_to (400)");
    const r2 = await callTool(client, "search_semantic", { query: "x", limit: 500 });
    expect(r2.isError).toBe(true);
    expect(textOf(r2)).toMatch(/limit/);
  });
});

describe("search_by_metadata", () => {
  test("tags any-of, newest first", async () => {
    const out = data<SearchOut>(await callTool(client, "search_by_metadata", { tags: ["ocean", "gardening"], limit: 10 }));
    expect(out.result_count).toBe(6);
    expect(out.results.every((r) => r.tags.some((t) => ["ocean", "gardening"].includes(t)))).toBe(true);
    const dates = out.results.map((r) => r.created_at!);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(out.results[0]!.full_content).toContain("Tides");
  });

  test("author and source exact; limit", async () => {
    const byAuthor = data<SearchOut>(await callTool(client, "search_by_metadata", { author: "Dr. Night" }));
    expect(byAuthor.result_count).toBe(4);
    expect(byAuthor.results.find((r) => r.tags.includes("note"))?.full_content).toBe("Try the fixed wake-up time for a month.");
    const partial = data<SearchOut>(await callTool(client, "search_by_metadata", { author: "Dr." }));
    expect(partial.result_count).toBe(0);
    const kindle = data<SearchOut>(await callTool(client, "search_by_metadata", { source: "kindle", limit: 2 }));
    expect(kindle.result_count).toBe(2);
    expect(kindle.results[0]!.author).toBe("Penny Saver"); // April 2024 is newer than March
    const both = data<SearchOut>(await callTool(client, "search_by_metadata", { source: "kindle", author: "Marina Blue" }));
    expect(both.result_count).toBe(0);
  });

  test("needs at least one filter", async () => {
    const r = await callTool(client, "search_by_metadata", {});
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("Error: Give at least one of tags, author or source (400)");
  });
});

describe("get_related_chunks", () => {
  async function chunkOf(author: string, contains: string): Promise<Hit> {
    const out = data<SearchOut>(await callTool(client, "search_by_metadata", { author, limit: 50 }));
    return out.results.find((r) => r.full_content.includes(contains))!;
  }

  test("nearest neighbours of the chunk's own vector, excluding itself", async () => {
    const source = await chunkOf("Flora Green", "Feed the soil");
    const out = data<{ source_chunk: { chunk_id: string }; result_count: number; results: Hit[] }>(
      await callTool(client, "get_related_chunks", { chunk_id: source.chunk_id, limit: 4 }),
    );
    expect(out.source_chunk.chunk_id).toBe(source.chunk_id);
    expect(out.result_count).toBe(4);
    expect(out.results.map((r) => r.chunk_id)).not.toContain(source.chunk_id);
    expect(out.results[0]!.title).toBe("Garden Days"); // its siblings are the closest
  });

  test("optionally excludes sibling chunks of the same document", async () => {
    const source = await chunkOf("Flora Green", "Feed the soil");
    const out = data<{ results: Hit[] }>(await callTool(client, "get_related_chunks", { chunk_id: source.chunk_id, limit: 5, exclude_same_document: true }));
    expect(out.results).toHaveLength(5);
    expect(out.results.every((r) => r.title !== "Garden Days")).toBe(true);
  });

  test("an unknown chunk is not found", async () => {
    const r = await callTool(client, "get_related_chunks", { chunk_id: "dnope-0000" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("Error: Chunk not found (404)");
  });
});

describe("get_stats", () => {
  test("matches the imported corpus", async () => {
    const total = report.files.flatMap((f) => f.documents).reduce((n, d) => n + d.chunks, 0);
    const stats = data<{
      total_chunks: number;
      total_documents: number;
      unique_sources: number;
      unique_authors: number;
      unique_tags: number;
      avg_chunks_per_document: number;
      avg_chunk_length: number;
      sources: { name: string; chunks: number }[];
      authors: { name: string; chunks: number }[];
      tags: { name: string; chunks: number }[];
      embedding_models: { name: string; chunks: number }[];
    }>(await callTool(client, "get_stats"));
    expect(stats.total_chunks).toBe(total);
    expect(stats.total_documents).toBe(EXPECTED.documents);
    expect(stats.unique_sources).toBe(3);
    expect(stats.sources.map((s) => s.name).sort()).toEqual(EXPECTED.sources);
    expect(stats.sources.find((s) => s.name === "kindle")?.chunks).toBe(EXPECTED.kindleChunks);
    expect(stats.unique_authors).toBe(5);
    expect(stats.authors.map((a) => a.name).sort()).toEqual(EXPECTED.authors);
    expect(stats.tags.find((t) => t.name === "ocean")?.chunks).toBe(3);
    expect(stats.tags.find((t) => t.name === "soil")?.chunks).toBe(2);
    expect(stats.unique_tags).toBe(stats.tags.length);
    expect(stats.avg_chunks_per_document).toBeCloseTo(total / EXPECTED.documents, 1);
    const items = await adminDb().collection("kb_items").where("owner_uid", "==", alice.uid).get();
    const chars = items.docs.reduce((n, d) => n + String(d.get("content")).length, 0);
    expect(stats.avg_chunk_length).toBeCloseTo(chars / total, 0);
    expect(stats.embedding_models).toEqual([{ name: embedder.model, chunks: total }]);
  });
});

describe("resources", () => {
  test("templates for the four URI patterns", async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(
      ["kxhub://chunk/{chunk_id}", "kxhub://chunks/by-author/{author}", "kxhub://chunks/by-source/{source}", "kxhub://chunks/by-tag/{tag}"].sort(),
    );
  });

  test("listing covers every chunk and every source, author and tag", async () => {
    const { resources } = await client.listResources(); // the client walks all pages
    const uris = resources.map((r) => r.uri);
    const total = report.files.flatMap((f) => f.documents).reduce((n, d) => n + d.chunks, 0);
    expect(uris.filter((u) => u.startsWith("kxhub://chunk/"))).toHaveLength(total);
    expect(uris).toContain("kxhub://chunks/by-source/kindle");
    expect(uris).toContain("kxhub://chunks/by-author/Dr.%20Night");
    expect(uris).toContain("kxhub://chunks/by-tag/ocean");
    expect(new Set(uris).size).toBe(uris.length);
  });

  test("listing is paginated with cursors (250 chunks → several pages)", async () => {
    const frank = await createUser();
    const [vector] = await embedder.embed(["filler"], "document");
    const now = Timestamp.now();
    const batch = adminDb().batch();
    for (let i = 0; i < 250; i++) {
      batch.set(adminDb().collection("kb_items").doc(`dpage${frank.uid}-${String(i).padStart(4, "0")}`), {
        owner_uid: frank.uid, parent_doc_id: `dpage${frank.uid}`, chunk_index: i, total_chunks: 250, title: "Paged", author: "Pager", source: "text", category: "notes",
        tags: [], content: `filler ${i}`, embedding: FieldValue.vector(vector!), embedding_model: embedder.model, created_at: now, updated_at: now,
      });
    }
    await batch.commit();
    const c = await connect("knowledge", { token: frank.token });
    clients.push(c);
    const first = (await (c as unknown as { request(r: unknown): Promise<unknown> }).request({ method: "resources/list", params: {} })) as { resources: { uri: string }[]; nextCursor?: string };
    expect(first.resources.length).toBeLessThanOrEqual(100);
    const uris = first.resources.map((r) => r.uri);
    let cursor = first.nextCursor;
    let pages = 1;
    while (cursor && pages < 20) {
      const page = await c.listResources({ cursor });
      expect(page.resources.length).toBeLessThanOrEqual(100);
      uris.push(...page.resources.map((r) => r.uri));
      cursor = page.nextCursor;
      pages++;
    }
    expect(pages).toBeGreaterThanOrEqual(3);
    const chunkUris = uris.filter((u) => u.startsWith("kxhub://chunk/"));
    expect(chunkUris).toHaveLength(250);
    expect(new Set(chunkUris).size).toBe(250);
    await expect(c.listResources({ cursor: "not-a-cursor" })).rejects.toThrow(/Invalid cursor/);
  });

  test("a listing cursor the domain did not issue is refused as invalid, not passed to Firestore", async () => {
    // The shared layer's cursor wraps the template's own ({t: template index, c: inner cursor});
    // these inner cursors decode fine as base64url but are not ours (a "/" once reached Firestore).
    const wrap = (inner: string) => Buffer.from(JSON.stringify({ t: 0, c: inner })).toString("base64url");
    const b64 = (v: unknown) => Buffer.from(typeof v === "string" ? v : JSON.stringify(v)).toString("base64url");
    for (const inner of [b64("a/b"), b64({ n: 5, s: 1, ns: 0, id: "a/b" }), b64({ n: 5000, s: 1, ns: 0, id: "x" }), "a/b", "%%%"]) {
      const err = (await client.listResources({ cursor: wrap(inner) }).catch((e: unknown) => e)) as { code: number; message: string };
      expect(err.code).toBe(-32602);
      expect(err.message).toBe("Error: Invalid cursor: pass the nextCursor of the previous response unchanged, or omit cursor to start over (400)");
    }
    const group = (await client.listResources({ cursor: Buffer.from(JSON.stringify({ t: 1, c: b64("x/y") })).toString("base64url") }).catch((e: unknown) => e)) as Error;
    expect(group.message).toContain("Invalid cursor");
  });

  test("listing shows at most the 1,000 newest chunks, then the source/author/tag URIs", async () => {
    const gina = await createUser();
    const [vector] = await embedder.embed(["filler"], "document");
    const writer = adminDb().bulkWriter();
    for (let i = 0; i < 1010; i++) {
      writer.set(adminDb().collection("kb_items").doc(`dcap${gina.uid}-${String(i).padStart(4, "0")}`), {
        owner_uid: gina.uid, parent_doc_id: `dcap${gina.uid}`, chunk_index: i, total_chunks: 1010, title: "Capped", author: "Capper", source: "text", category: "notes",
        tags: ["cap"], content: `filler ${i}`, embedding: FieldValue.vector(vector!), embedding_model: embedder.model,
        created_at: Timestamp.fromMillis(Date.UTC(2024, 0, 1) + i * 60_000), updated_at: Timestamp.now(),
      });
    }
    await writer.close();
    await adminDb().collection("kb_stats").doc(gina.uid).set({ chunks: 1010, documents: 1, chars: 10_000, sources: { text: 1010 }, authors: { Capper: 1010 }, tags: { cap: 1010 }, models: { [embedder.model]: 1010 } });
    const c = await connect("knowledge", { token: gina.token });
    clients.push(c);
    const { resources } = await c.listResources();
    const chunkUris = resources.map((r) => r.uri).filter((u) => u.startsWith("kxhub://chunk/"));
    expect(chunkUris).toHaveLength(1000);
    // The newest first: chunks 1009 … 10; the 10 oldest are left out.
    expect(chunkUris[0]).toBe(`kxhub://chunk/dcap${gina.uid}-1009`);
    expect(chunkUris.at(-1)).toBe(`kxhub://chunk/dcap${gina.uid}-0010`);
    expect(new Set(chunkUris).size).toBe(1000);
    const rest = resources.map((r) => r.uri).filter((u) => !u.startsWith("kxhub://chunk/"));
    expect(rest).toEqual(["kxhub://chunks/by-source/text", "kxhub://chunks/by-author/Capper", "kxhub://chunks/by-tag/cap"]);
  });

  test("a chunk as Markdown", async () => {
    const hit = data<SearchOut>(await callTool(client, "search_by_metadata", { author: "Marina Blue", limit: 1 })).results[0]!;
    const { contents } = await client.readResource({ uri: `kxhub://chunk/${hit.chunk_id}` });
    const c = contents[0] as { mimeType: string; text: string };
    expect(c.mimeType).toBe("text/markdown");
    expect(c.text).toMatch(/^# Ocean Notes\n/);
    expect(c.text).toContain("**Author:** Marina Blue");
    expect(c.text).toContain(hit.full_content);
  });

  test("chunks by source, by author (URL-encoded) and by tag", async () => {
    const read = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    const kindle = await read("kxhub://chunks/by-source/kindle");
    expect(kindle).toContain('# Chunks with source "kindle"');
    expect(kindle).toContain("7 chunks");
    expect(kindle).toContain("interest rates");
    const author = await read("kxhub://chunks/by-author/Dr.%20Night");
    expect(author).toContain("4 chunks");
    expect(author).toContain("fall asleep faster");
    expect(author).not.toContain("Penny Saver");
    const tag = await read("kxhub://chunks/by-tag/soil");
    expect(tag).toContain("2 chunks");
    expect(tag).toContain("Mulch");
  });

  test("a missing chunk is a resource-not-found error", async () => {
    const err = (await client.readResource({ uri: "kxhub://chunk/dmissing-0000" }).catch((e: unknown) => e)) as { code: number; message: string; name: string };
    expect([-32002, -32602]).toContain(err.code); // resource not found (the 2026 revision uses -32602)
    expect(err.message).toContain("Error: Chunk not found (404)");
  });

  test("completion offers the user's own sources, authors and tags", async () => {
    const complete = async (uri: string, name: string, value: string) =>
      (await client.complete({ ref: { type: "ref/resource", uri }, argument: { name, value } })).completion.values;
    expect(await complete("kxhub://chunks/by-author/{author}", "author", "m")).toEqual(["Marina Blue"]);
    expect((await complete("kxhub://chunks/by-author/{author}", "author", "")).sort()).toEqual(EXPECTED.authors);
    expect(await complete("kxhub://chunks/by-source/{source}", "source", "k")).toEqual(["kindle"]);
    expect((await complete("kxhub://chunks/by-tag/{tag}", "tag", "o")).sort()).toEqual(["ocean"]);
  });

  test("chunk id completion: the user's own ids; a prefix with a '/' completes to nothing", async () => {
    const hit = data<SearchOut>(await callTool(client, "search_by_metadata", { author: "Marina Blue", limit: 1 })).results[0]!;
    const complete = async (value: string) =>
      (await client.complete({ ref: { type: "ref/resource", uri: "kxhub://chunk/{chunk_id}" }, argument: { name: "chunk_id", value } })).completion.values;
    expect(await complete(hit.chunk_id)).toEqual([hit.chunk_id]);
    expect(await complete(`${hit.chunk_id}/x`)).toEqual([]);
    expect(await complete("a/b")).toEqual([]);
    // The store itself answers [] (the shared layer would also hide a thrown error as []).
    const { KnowledgeStore } = await import("../../functions/src/domains/knowledge/store.js");
    await expect(new KnowledgeStore(adminDb(), alice.uid).chunkIdsStartingWith("a/b")).resolves.toEqual([]);
  });
});

describe("prompts", () => {
  test("the four prompts tell the model which tools to use and how to answer", async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(["author_deep_dive", "find_insights_about", "related_to_chunk", "tag_exploration"]);
    const text = async (name: string, args: Record<string, string>) => {
      const r = await client.getPrompt({ name, arguments: args });
      expect(r.messages[0]!.role).toBe("user");
      return (r.messages[0]!.content as { text: string }).text;
    };
    const insights = await text("find_insights_about", { topic: "decision making" });
    expect(insights).toContain('"decision making"');
    expect(insights).toMatch(/search_semantic[\s\S]*get_related_chunks/);
    expect(insights).toContain("Key insights");
    const author = await text("author_deep_dive", { author: "Dr. Night" });
    expect(author).toContain('search_by_metadata with author "Dr. Night"');
    expect(author).toContain("kxhub://chunks/by-author/Dr.%20Night");
    const tag = await text("tag_exploration", { tag: "ocean" });
    expect(tag).toContain('tags ["ocean"]');
    const related = await text("related_to_chunk", { chunk_id: "d123-0001" });
    expect(related).toContain('get_related_chunks with chunk_id "d123-0001"');
  });

  test("prompt arguments complete from the user's own values", async () => {
    const r = await client.complete({ ref: { type: "ref/prompt", name: "author_deep_dive" }, argument: { name: "author", value: "Fl" } });
    expect(r.completion.values).toEqual(["Flora Green"]);
    const t = await client.complete({ ref: { type: "ref/prompt", name: "tag_exploration" }, argument: { name: "tag", value: "gard" } });
    expect(t.completion.values).toEqual(["gardening"]);
  });
});

describe("isolation: a second user sees none of the first user's chunks", () => {
  test("through the tools", async () => {
    const search = data<SearchOut>(await callTool(bobClient, "search_semantic", { query: "how to fall asleep", limit: 50 }));
    expect(search.results.map((r) => r.author)).toEqual(["Bob Writer"]);
    for (const args of [{ author: "Dr. Night" }, { source: "kindle" }, { tags: ["ocean", "soil", "habits"] }]) {
      expect(data<SearchOut>(await callTool(bobClient, "search_by_metadata", args)).result_count).toBe(0);
    }
    const aliceChunk = data<SearchOut>(await callTool(client, "search_by_metadata", { author: "Dr. Night", limit: 1 })).results[0]!;
    const related = await callTool(bobClient, "get_related_chunks", { chunk_id: aliceChunk.chunk_id });
    expect(textOf(related)).toBe("Error: Chunk not found (404)");
    const bobOwn = search.results[0]!;
    const bobRelated = data<{ results: Hit[] }>(await callTool(bobClient, "get_related_chunks", { chunk_id: bobOwn.chunk_id, limit: 10 }));
    expect(bobRelated.results).toEqual([]);
    const stats = data<{ total_chunks: number; authors: { name: string }[] }>(await callTool(bobClient, "get_stats"));
    expect(stats.total_chunks).toBe(1);
    expect(stats.authors.map((a) => a.name)).toEqual(["Bob Writer"]);
  });

  test("through resources and completion", async () => {
    const aliceChunk = data<SearchOut>(await callTool(client, "search_by_metadata", { author: "Dr. Night", limit: 1 })).results[0]!;
    const denied = (await bobClient.readResource({ uri: `kxhub://chunk/${aliceChunk.chunk_id}` }).catch((e: unknown) => e)) as Error & { code: number };
    expect([-32002, -32602]).toContain(denied.code);
    expect(denied.message).toContain("Chunk not found");
    const byAuthor = ((await bobClient.readResource({ uri: "kxhub://chunks/by-author/Dr.%20Night" })).contents[0] as { text: string }).text;
    expect(byAuthor).toContain("No chunks.");
    const bySource = ((await bobClient.readResource({ uri: "kxhub://chunks/by-source/kindle" })).contents[0] as { text: string }).text;
    expect(bySource).not.toContain("interest rates");
    const all = (await bobClient.listResources()).resources.map((r) => r.uri);
    expect(all.filter((u) => u.startsWith("kxhub://chunk/"))).toEqual([`kxhub://chunk/${data<SearchOut>(await callTool(bobClient, "search_by_metadata", { author: "Bob Writer" })).results[0]!.chunk_id}`]);
    expect(all.some((u) => /Dr\.|kindle|ocean/.test(u))).toBe(false);
    const completion = await bobClient.complete({ ref: { type: "ref/resource", uri: "kxhub://chunks/by-author/{author}" }, argument: { name: "author", value: "" } });
    expect(completion.completion.values).toEqual(["Bob Writer"]);
  });

  test("a 2025-era (initialize) client gets the same answers", async () => {
    const legacy = await connect("knowledge", { token: alice.token, era: "legacy" });
    clients.push(legacy);
    const out = data<SearchOut>(await callTool(legacy, "search_semantic", { query: "where does the air we inhale come from", limit: 1 }));
    expect(out.results[0]!.full_content).toContain("Phytoplankton");
  });

  test("without a token the server answers 401", async () => {
    await expect(connect("knowledge")).rejects.toThrow(/401|Unauthorized|sign/i);
  });
});

describe("limits and model mismatch", () => {
  test("oversized content is trimmed with an explicit marker", async () => {
    const dave = await createUser();
    const huge = "word ".repeat(40_000); // 200,000 characters
    const now = Timestamp.now();
    await adminDb().collection("kb_items").doc(`dhuge${dave.uid}-0000`).set({
      owner_uid: dave.uid, parent_doc_id: `dhuge${dave.uid}`, chunk_index: 0, total_chunks: 1, title: "Huge", author: "Big", source: "text", category: "notes",
      tags: ["big"], content: huge, embedding: FieldValue.vector((await embedder.embed(["word"], "document"))[0]!), embedding_model: embedder.model, created_at: now, updated_at: now,
    });
    const c = await connect("knowledge", { token: dave.token });
    clients.push(c);
    const out = data<SearchOut>(await callTool(c, "search_by_metadata", { author: "Big" }));
    expect(out.results[0]!.full_content.length).toBeLessThan(5_000);
    expect(out.results[0]!.full_content).toContain("[truncated]");
    expect(out.results[0]!.full_content).toContain(`read kxhub://chunk/dhuge${dave.uid}-0000 for the rest`);
    // Written without a stats summary: search_semantic still runs the vector query (the summary
    // only explains an empty answer), so the chunk is found.
    expect((await adminDb().collection("kb_stats").doc(dave.uid).get()).exists).toBe(false);
    const semantic = data<SearchOut>(await callTool(c, "search_semantic", { query: "word", limit: 3, mode: "semantic" }));
    expect(semantic.results.map((r) => r.chunk_id)).toEqual([`dhuge${dave.uid}-0000`]);
    expect(semantic.note).toBeUndefined();
    const text = ((await c.readResource({ uri: `kxhub://chunk/dhuge${dave.uid}-0000` })).contents[0] as { text: string }).text;
    expect(text.length).toBeLessThan(110_000);
    expect(text).toContain("[truncated]");
  });

  test("chunks embedded by another model: a clear error saying to re-import", async () => {
    const erin = await createUser();
    const other: Embedder = { model: "some-other-model", dimensions: 768, embed: async (texts) => texts.map((_, i) => Array.from({ length: 768 }, (_, j) => (j === i % 768 ? 1 : 0))) };
    const dir = await writeCorpus();
    await writeFile(dir.files.clippings, CLIPPINGS);
    await importFiles([dir.files.clippings], { db: adminDb(), uid: erin.uid, embedder: other });
    const c = await connect("knowledge", { token: erin.token });
    clients.push(c);
    const r = await callTool(c, "search_semantic", { query: "sleep" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^Error: Your knowledge base was embedded with some-other-model, but this server embeds queries with .+; .*Re-import your files .*npm run kb:import -- --user .* \(409\)$/);
    // Re-importing with the server's model fixes it.
    const again = await importFiles([dir.files.clippings], { db: adminDb(), uid: erin.uid, embedder });
    expect(again.documents.updated).toBe(2);
    const ok = data<SearchOut>(await callTool(c, "search_semantic", { query: "sleep", limit: 2 }));
    expect(ok.result_count).toBe(2);
    expect(await readFile(dir.files.clippings, "utf8")).toBe(CLIPPINGS);
  });
});
