// knowledge's tools on the in-memory backend: the function's own server (createServer, through
// connectInProcess) with a memory backend, a real MCP client, no emulator. The embedder is a
// stand-in (words hashed into a vector): the model is not what these tests check. What a person
// notices: a saved note is found by its words and its meaning, saving it again changes nothing,
// statistics and metadata follow, a deleted document is gone, and another person sees none of it.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { memoryKnowledge } from "../../functions/src/domains/knowledge/records.js";
import { wordsEmbedder } from "../support/knowledge-store-contract.js";
import { connectInProcess, idTokenCaller, loadDomain } from "../support/in-process.js";
import { callTool, textOf } from "../support/mcp.js";

const backend = memoryKnowledge(wordsEmbedder);
const clients: Client[] = [];
let asAna: Client;
let asBen: Client;

async function connectAs(uid: string): Promise<Client> {
  const knowledge = await loadDomain("knowledge");
  const client = await connectInProcess({ ...knowledge, backend }, { caller: idTokenCaller(uid) });
  clients.push(client);
  return client;
}

type Results = { result_count: number; results: { chunk_id: string; title: string }[]; no_match?: boolean; note?: string };
const search = async (c: Client, args: Record<string, unknown>) => (await callTool(c, "search_semantic", args)).structuredContent as Results;
const save = async (c: Client, args: Record<string, unknown>) => (await callTool(c, "save_note", args)).structuredContent as { document_id: string; status: string; chunks: number };

beforeAll(async () => {
  [asAna, asBen] = await Promise.all([connectAs("ana"), connectAs("ben")]);
});
afterAll(async () => Promise.all(clients.map((c) => c.close())));

describe("knowledge tools on the memory backend", () => {
  test("an empty knowledge base says how to fill it", async () => {
    const out = await search(asBen, { query: "anything at all" });
    expect(out.result_count).toBe(0);
    expect(out.note).toMatch(/^Your knowledge base is empty/);
  });

  test("a saved note is found by a rare word and by its meaning; saving it again changes nothing", async () => {
    const first = await save(asAna, { title: "Tide pools", content: "Anemones and hermit crabs share the tide pools at low water.", tags: ["ocean"] });
    expect(first).toMatchObject({ status: "imported", chunks: 1 });
    await save(asAna, { title: "Deep work", content: "Long stretches of focus without meetings produce the best writing.", tags: ["focus"], author: "Cal" });
    expect(await save(asAna, { title: "Tide pools", content: "Anemones and hermit crabs share the tide pools at low water.", tags: ["ocean"] })).toMatchObject({ status: "unchanged" });

    const byWord = await search(asAna, { query: "anemones", mode: "lexical" });
    expect(byWord.results.map((r) => r.title)).toEqual(["Tide pools"]);
    const byMeaning = await search(asAna, { query: "focus and writing", mode: "semantic", limit: 1 });
    expect(byMeaning.results.map((r) => r.title)).toEqual(["Deep work"]);
    const hybrid = await search(asAna, { query: "hermit crabs" });
    expect(hybrid.results[0]!.title).toBe("Tide pools");
    const nothing = await search(asAna, { query: "zyzzyva", mode: "lexical" });
    expect(nothing).toMatchObject({ result_count: 0, no_match: true });
  });

  test("statistics, metadata search and related chunks follow what was saved", async () => {
    const stats = (await callTool(asAna, "get_stats", {})).structuredContent as { total_documents: number; total_chunks: number; tags: { name: string }[]; embedding_models: { name: string }[] };
    expect(stats).toMatchObject({ total_documents: 2, total_chunks: 2 });
    expect(stats.tags.map((t) => t.name).sort()).toEqual(["focus", "ocean"]);
    expect(stats.embedding_models).toEqual([{ name: "contract-words", chunks: 2 }]);
    const byAuthor = (await callTool(asAna, "search_by_metadata", { author: "Cal" })).structuredContent as Results;
    expect(byAuthor.results.map((r) => r.title)).toEqual(["Deep work"]);
    const [tide] = (await search(asAna, { query: "anemones", mode: "lexical" })).results;
    const related = (await callTool(asAna, "get_related_chunks", { chunk_id: tide!.chunk_id })).structuredContent as Results;
    expect(related.results.map((r) => r.title)).toEqual(["Deep work"]);
  });

  test("resources read from the same backend: a chunk's Markdown, the listing, chunks by tag", async () => {
    const [tide] = (await search(asAna, { query: "anemones", mode: "lexical" })).results;
    const chunk = await asAna.readResource({ uri: `kxhub://chunk/${tide!.chunk_id}` });
    expect(JSON.stringify(chunk.contents)).toContain("hermit crabs");
    const { resources } = await asAna.listResources();
    expect(resources.map((r) => r.name)).toEqual(expect.arrayContaining([tide!.chunk_id, "tag: ocean"]));
    const byTag = await asAna.readResource({ uri: "kxhub://chunks/by-tag/ocean" });
    expect(JSON.stringify(byTag.contents)).toContain("Tide pools");
    await expect(asBen.readResource({ uri: `kxhub://chunk/${tide!.chunk_id}` })).rejects.toThrow(/Chunk not found/);
  });

  test("another person finds nothing of it, and someone else's chunk reads as not found", async () => {
    expect((await search(asBen, { query: "anemones", mode: "lexical" })).result_count).toBe(0);
    const [tide] = (await search(asAna, { query: "anemones", mode: "lexical" })).results;
    const other = await callTool(asBen, "get_related_chunks", { chunk_id: tide!.chunk_id });
    expect(textOf(other)).toBe("Error: Chunk not found (404)");
    const notTheirs = await callTool(asBen, "delete_document", { document_id: tide!.chunk_id });
    expect(textOf(notTheirs)).toBe("Error: Document not found (404)");
  });

  test("a deleted document is gone from search and statistics", async () => {
    const { document_id } = await save(asAna, { title: "Scratch", content: "Quokkas smile for photographs on Rottnest." });
    expect((await search(asAna, { query: "quokkas", mode: "lexical" })).result_count).toBe(1);
    const removed = await callTool(asAna, "delete_document", { document_id });
    expect(removed.structuredContent).toMatchObject({ document_id, title: "Scratch", chunks_removed: 1 });
    expect((await search(asAna, { query: "quokkas", mode: "lexical" })).result_count).toBe(0);
    expect((await callTool(asAna, "get_stats", {})).structuredContent).toMatchObject({ total_documents: 2 });
  });

  test("a bad argument is named in the error", async () => {
    const result = await callTool(asAna, "search_semantic", { query: "x", limit: 500 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error: Invalid input: limit .*50.* \(400\)$/);
  });
});
