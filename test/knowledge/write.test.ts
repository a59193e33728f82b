// Keeping things from a conversation: save_note and delete_document through real MCP clients
// against the served knowledge function. Writing needs the write scope (a connection approved
// read-only stays read-only); another person's documents cannot be touched; the importer's
// limits apply.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { adminDb, createUser, functionUrl, type TestUser } from "../support/emulators.js";
import { callTool, connect, textOf } from "../support/mcp.js";
import { authorizeUrlFor, pkcePair, refreshWith, registerClient, tokensFor } from "../support/oauth.js";
import { signInCookie } from "../support/devices.js";

interface Saved {
  document_id: string;
  title: string;
  status: string;
  chunks: number;
}
interface Found {
  result_count: number;
  results: { chunk_id: string; title: string; source: string; tags: string[] }[];
}

let alice: TestUser;
let bob: TestUser;
let client: Client;
let bobClient: Client;
const clients: Client[] = [];

const ok = <T>(r: Awaited<ReturnType<typeof callTool>>): T => {
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent as T;
};
const note = { title: "Espresso and sleep", content: "After an espresso at four in the afternoon I lie awake until two: caffeine stays in the blood for many hours.", tags: ["Sleep", "coffee"], source: "conversation" };

beforeAll(async () => {
  [alice, bob] = await Promise.all([createUser(), createUser()]);
  client = await connect("knowledge", { token: alice.token });
  bobClient = await connect("knowledge", { token: bob.token });
  clients.push(client, bobClient);
});
afterAll(async () => Promise.all(clients.map((c) => c.close())));

describe("save_note", () => {
  test("a saved note is found by the next search, by meaning and by its words", async () => {
    const saved = ok<Saved>(await callTool(client, "save_note", note));
    expect(saved).toMatchObject({ title: note.title, status: "imported", chunks: 1 });
    const byMeaning = ok<Found>(await callTool(client, "search_semantic", { query: "why coffee late in the day keeps me awake at night", mode: "semantic", limit: 3 }));
    expect(byMeaning.results[0]).toMatchObject({ title: note.title, source: "conversation", tags: ["sleep", "coffee"] });
    const byWords = ok<Found>(await callTool(client, "search_semantic", { query: "espresso", mode: "lexical" }));
    expect(byWords.results.map((r) => r.title)).toEqual([note.title]);
  });

  test("the same note again changes nothing; the same title with new text replaces it", async () => {
    expect(ok<Saved>(await callTool(client, "save_note", note)).status).toBe("unchanged");
    const replaced = ok<Saved>(await callTool(client, "save_note", { ...note, content: "Green tea in the evening does not keep me awake." }));
    expect(replaced.status).toBe("updated");
    const found = ok<Found>(await callTool(client, "search_semantic", { query: "caffeine", mode: "lexical" }));
    expect(found.result_count).toBe(0);
    const stats = ok<{ total_documents: number; total_chunks: number }>(await callTool(client, "get_stats"));
    expect(stats).toMatchObject({ total_documents: 1, total_chunks: 1 });
  });

  test("the importer's limits and bad input get clear errors, and nothing is written", async () => {
    const huge = await callTool(client, "save_note", { title: "Too long", content: "x ".repeat(60_000) });
    expect(huge.isError).toBe(true);
    expect(textOf(huge)).toMatch(/content/);
    const empty = await callTool(client, "save_note", { title: "  ", content: "text" });
    expect(empty.isError).toBe(true);
    const snap = await adminDb().collection("kb_documents").where("owner_uid", "==", alice.uid).get();
    expect(snap.docs.map((d) => d.get("title"))).toEqual([note.title]);
  });
});

describe("delete_document", () => {
  test("another person's delete_document finds nothing, and the document stays", async () => {
    const { document_id } = ok<Saved>(await callTool(client, "save_note", { title: "Alice's garden", content: "Tomatoes need full sun and deep watering twice a week.", tags: ["garden"] }));
    const r = await callTool(bobClient, "delete_document", { document_id });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/Document not found/);
    const still = ok<Found>(await callTool(client, "search_semantic", { query: "tomatoes", mode: "lexical" }));
    expect(still.results.map((x) => x.title)).toEqual(["Alice's garden"]);
  });

  test("deletes the document by a chunk id, says what it removed; searches and stats no longer see it", async () => {
    const found = ok<Found>(await callTool(client, "search_semantic", { query: "tomatoes", mode: "lexical" }));
    const r = await callTool(client, "delete_document", { document_id: found.results[0]!.chunk_id });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toMatch(/^Deleted "Alice's garden" \(conversation, 1 chunk, document d[0-9a-f]{20}\)\.$/);
    expect(ok<Found>(await callTool(client, "search_semantic", { query: "tomatoes", mode: "lexical" })).result_count).toBe(0);
    const stats = ok<{ total_documents: number; tags: { name: string }[] }>(await callTool(client, "get_stats"));
    expect(stats.total_documents).toBe(1);
    expect(stats.tags.map((t) => t.name).sort()).toEqual(["coffee", "sleep"]);
    const again = await callTool(client, "delete_document", { document_id: (r.structuredContent as { document_id: string }).document_id });
    expect(textOf(again)).toMatch(/Document not found/);
    expect((await callTool(client, "delete_document", { document_id: "../kb_stats" })).isError).toBe(true);
  });

  test("is marked destructive; save_note is not", async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === "delete_document")?.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    expect(tools.find((t) => t.name === "save_note")?.annotations).toMatchObject({ destructiveHint: false, readOnlyHint: false });
  });
});

describe("consent to write", () => {
  test("a connection approved read-only stays read-only; one approved to save can save", async () => {
    const carol = await createUser();
    const clientId = await registerClient();
    const readOnly = await tokensFor(carol, clientId, { resource: functionUrl("knowledge"), scope: "knowledge" });
    expect(readOnly.scope).toBe("knowledge");
    const reader = await connect("knowledge", { token: readOnly.access_token });
    clients.push(reader);
    const refused = await callTool(reader, "save_note", { title: "Nope", content: "should not be stored" });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/may only read your knowledge base.*connect the app again/);
    expect((await adminDb().collection("kb_documents").where("owner_uid", "==", carol.uid).get()).size).toBe(0);
    // Its refresh keeps the grant read-only.
    const refreshed = (await (await refreshWith(readOnly.refresh_token, clientId)).json()) as { scope: string };
    expect(refreshed.scope).toBe("knowledge");
    const writer = await tokensFor(carol, await registerClient(), { resource: functionUrl("knowledge") });
    expect(writer.scope.split(" ").sort()).toEqual(["knowledge", "knowledge.write"]);
    const w = await connect("knowledge", { token: writer.access_token });
    clients.push(w);
    expect(ok<Saved>(await callTool(w, "save_note", { title: "Yes", content: "stored with consent" })).status).toBe("imported");
  });

  test("the consent page says the app will be able to save notes and delete documents", async () => {
    const dave = await createUser();
    const cookie = await signInCookie(dave);
    const start = await fetch(authorizeUrlFor(await registerClient(), pkcePair().challenge, { resource: functionUrl("knowledge") }), { redirect: "manual", headers: { cookie } });
    const consent = await fetch(new URL(start.headers.get("location")!, functionUrl("oauth", "/")), { headers: { cookie } });
    const html = await consent.text();
    expect(html).toContain("Search and read your knowledge base");
    expect(html).toContain("Save notes to your knowledge base and delete documents from it");
    const meta = await fetch(functionUrl("knowledge", "/.well-known/oauth-protected-resource"));
    expect(((await meta.json()) as { scopes_supported: string[] }).scopes_supported).toEqual(["knowledge", "knowledge.write"]);
  });
});
