// Hybrid search (search_semantic's default mode) end to end: notes imported with the real importer
// and the local model into the Firestore emulator, searched through a real MCP client against the
// served function. Exact rare words, names in the author field, quoted phrases, English and German
// word forms, a word in no note (no match instead of noise), filters and dates on both sides, the
// semantic-only and lexical-only modes, re-import and removal keeping the word index right, and
// another user's words that never match.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { FieldValue } from "firebase-admin/firestore";
import { adminDb, createUser, type TestUser } from "../support/emulators.js";
import { callTool, connect, textOf } from "../support/mcp.js";
import { createEmbedder, type Embedder } from "../../functions/src/platform/embeddings.js";
import { importFiles } from "../../functions/src/domains/knowledge/ingest/import.js";
import { LEXICAL_VERSION } from "../../functions/src/domains/knowledge/lexical.js";
import type { SearchSemanticOutput } from "../../functions/src/domains/knowledge/tools/search_semantic.js";

type SearchOut = SearchSemanticOutput;
type Hit = SearchOut["results"][number];

const NOTES: Record<string, string> = {
  "kahneman.md": note("Thinking in Two Speeds", "Daniel Kahneman", ["psychology", "decisions"], "2021-03-01",
    "Anchoring: an arbitrary first number pulls later estimates toward it, even when people know the number was drawn at random. Whoever names the first figure frames every judgement after it."),
  "sailing.md": note("Harbour Skills", "Cap Morgan", ["sailing"], "2022-06-01",
    "Anchoring a small boat: drop the anchor upwind, let out five times the depth in chain, and back down gently until it bites into the sand."),
  "negotiation.md": note("Negotiation Notes", "Lee Park", ["psychology", "negotiation"], "2023-01-10",
    "The first offer in a negotiation shapes the whole range of the deal; whoever opens sets the reference point that later counteroffers orbit around."),
  "sockets.md": note("Debugging Node Services", "Ops Team", ["software"], "2024-02-01",
    "A flaky upstream kept dropping sockets: the client saw ECONNRESET whenever the load balancer closed idle keep-alive connections before the agent did."),
  "retries.md": note("Timeouts and Retries", "Ops Team", ["software"], "2024-05-01",
    "Connections between services drop: retry with backoff, make requests idempotent, and set the client's idle timeout below the proxy's so the client closes first."),
  "oauth.md": note("Delegated Access", "Sam Key", ["security"], "2024-08-01",
    "RFC 6749 defines the authorization code grant: the app sends the user to the authorization server and exchanges the returned code for an access token."),
  "tokens.md": note("Access Tokens", "Sam Key", ["security"], "2024-09-01",
    "Short-lived access tokens limit the damage of a leak; refresh tokens stay on the server and are rotated on every use."),
  "kitchen.md": note("Kitchen Habits", "Chef Ana", ["cooking"], "2023-09-01",
    "Mise en place: every ingredient measured and every tool within reach before the pan gets hot, so the cooking itself is calm."),
  "prep.md": note("Prep Before Heat", "Chef Ben", ["cooking"], "2023-10-01",
    "Put each thing in its place before cooking. A calm cook preps the vegetables first; the French mise is short for that whole ritual."),
  "brot.md": note("Brot backen", "Anna Müller", ["backen"], "2022-01-01",
    "Die Bäckereien in unserer Straße öffnen um fünf Uhr; der Sauerteig braucht eine lange, kühle Gare und viel Geduld."),
};

function note(title: string, author: string, tags: string[], date: string, body: string): string {
  return `---\ntitle: ${title}\nauthor: ${author}\ntags: [${tags.join(", ")}]\ndate: ${date}\n---\n${body}\n`;
}

async function writeNotes(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "kb-hybrid-"));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

let embedder: Embedder;
let alice: TestUser;
let bob: TestUser;
let client: Client;
let bobClient: Client;
const clients: Client[] = [];

const data = <T>(r: Awaited<ReturnType<typeof callTool>>): T => {
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent as T;
};
const searchAs = async (c: Client, args: Record<string, unknown>) => data<SearchOut>(await callTool(c, "search_semantic", args));
const search = (args: Record<string, unknown>) => searchAs(client, args);

beforeAll(async () => {
  embedder = await createEmbedder("local");
  [alice, bob] = await Promise.all([createUser(), createUser()]);
  await importFiles([await writeNotes(NOTES)], { db: adminDb(), uid: alice.uid, embedder });
  // Bob's notes hold a word alice has nowhere, on a subject alice also has (cooking).
  await importFiles([await writeNotes({ "bob.md": note("Bob's Stock", "Bob Writer", ["cooking"], "2024-01-01", "Quetzalcoatlus bones make no stock; veal bones simmered for eight hours do.") })], {
    db: adminDb(),
    uid: bob.uid,
    embedder,
  });
  client = await connect("knowledge", { token: alice.token });
  bobClient = await connect("knowledge", { token: bob.token });
  clients.push(client, bobClient);
});
afterAll(async () => Promise.all(clients.map((c) => c.close())));

describe("hybrid by default: the exact words count", () => {
  test.each([
    ["ECONNRESET", "Debugging Node Services", "econnreset"],
    ["RFC 6749", "Delegated Access", "6749"],
    ["why did the socket reset with ECONNRESET", "Debugging Node Services", "econnreset"],
  ])("a rare word or code in one note ranks that note first: %s", async (query, title, word) => {
    const out = await search({ query, limit: 3 });
    expect(out.mode).toBe("hybrid");
    const top = out.results[0]!;
    expect(top.title).toBe(title);
    expect(top.match.terms).toContain(word);
    expect(top.match).toMatchObject({ lexical_rank: 1, fused_rank: 1 });
    expect(top.similarity).toEqual(expect.any(Number));
    expect(top.match.similarity).toBe(top.similarity);
    expect(out.results.map((r) => r.rank)).toEqual([1, 2, 3]);
    expect(out.results.map((r) => r.match.fused_rank)).toEqual([1, 2, 3]);
    const fused = out.results.map((r) => r.match.fused_score!);
    expect([...fused].sort((a, b) => b - a)).toEqual(fused);
  });

  test("a name that is only in the author field: that author's note first, with the word explained", async () => {
    const out = await search({ query: "what did Kahneman say about anchoring", limit: 3 });
    expect(out.results[0]!.author).toBe("Daniel Kahneman");
    expect(out.results[0]!.match.terms.sort()).toEqual(["anchoring", "kahneman"]);
    expect(out.results[0]!.full_content).not.toMatch(/kahneman/i); // found by its author, not its text
    const sailing = out.results.find((r) => r.title === "Harbour Skills");
    expect(sailing?.match.terms ?? ["anchoring"]).toEqual(["anchoring"]);
  });

  test("words only in the title or the tags find their notes", async () => {
    expect((await search({ query: "security", mode: "lexical" })).results.map((r) => r.title).sort()).toEqual(["Access Tokens", "Delegated Access"]);
    expect((await search({ query: "habits", mode: "lexical" })).results.map((r) => r.title)).toEqual(["Kitchen Habits"]);
  });

  test('"a quoted phrase" must appear as written; its words apart do not make a phrase match', async () => {
    const lexical = await search({ query: '"mise en place"', mode: "lexical" });
    expect(lexical.results.map((r) => r.title)).toEqual(["Kitchen Habits"]); // "Prep Before Heat" has mise and place, apart
    expect(lexical.results[0]!.match.terms).toContain('"mise en place"');
    const hybrid = await search({ query: '"mise en place"', limit: 3 });
    expect(hybrid.results[0]!.title).toBe("Kitchen Habits");
  });

  test("word forms: English stems and German stems with umlauts folded", async () => {
    const anchored = await search({ query: "anchored", mode: "lexical" });
    expect(anchored.results.map((r) => r.title).sort()).toEqual(["Harbour Skills", "Thinking in Two Speeds"]);
    for (const q of ["Bäckerei", "backerei", "Strasse"]) {
      const out = await search({ query: q, mode: "lexical" });
      expect(out.results.map((r) => r.title), q).toEqual(["Brot backen"]);
    }
    const author = await search({ query: "Muller", mode: "lexical" }); // "Müller" in the author field
    expect(author.results.map((r) => r.title)).toEqual(["Brot backen"]);
  });

  test("a word in no note, with nothing close in meaning: no match, said so, no noise", async () => {
    for (const mode of ["hybrid", "lexical"]) {
      const out = await search({ query: "Zollverein", mode });
      expect(out.result_count, mode).toBe(0);
      expect(out.results).toEqual([]);
      expect(out.no_match).toBe(true);
      expect(out.note).toMatch(/^No match: No chunk contains "zollverein"/);
    }
    // semantic mode keeps the seed's behaviour: the nearest chunks, whatever they are.
    const semantic = await search({ query: "Zollverein", mode: "semantic", limit: 3 });
    expect(semantic.result_count).toBe(3);
    expect(semantic.no_match).toBeUndefined();
  });

  test("a paraphrase whose words are in no note still finds its note by meaning, and the missing words are named", async () => {
    const out = await search({ query: "mooring a vessel on the seabed", limit: 3 });
    expect(out.no_match).toBeUndefined();
    expect(out.results[0]!.title).toBe("Harbour Skills");
    expect(out.results[0]!.match.terms).toEqual([]);
    expect(out.note).toBe('No chunk contains "mooring", "vessel", "seabed".');
  });
});

describe("modes", () => {
  test("semantic: the nearest chunks by similarity, best first, each with its similarity and semantic rank, no fusion", async () => {
    const out = await search({ query: "how do I make cooking calm", mode: "semantic", limit: 4 });
    expect(out.mode).toBe("semantic");
    const sims = out.results.map((r) => r.similarity!);
    expect([...sims].sort((a, b) => b - a)).toEqual(sims);
    expect(out.results.map((r) => r.match.semantic_rank)).toEqual([1, 2, 3, 4]);
    expect(out.results.every((r) => r.match.fused_rank === undefined)).toBe(true);
    expect(out.results.find((r) => r.title === "Kitchen Habits")?.match.terms).toEqual(expect.arrayContaining(["calm", "cooking"]));
  });

  test("lexical: only chunks containing the words, by score; no embedding, no similarity; min_similarity refused", async () => {
    const out = await search({ query: "access tokens", mode: "lexical" });
    expect(out.mode).toBe("lexical");
    expect(out.results.map((r) => r.title).sort()).toEqual(["Access Tokens", "Delegated Access"]);
    expect(out.results[0]!.title).toBe("Access Tokens"); // both words, in its title too
    expect(out.results.every((r) => r.similarity === undefined && r.match.similarity === undefined)).toBe(true);
    const scores = out.results.map((r) => r.match.lexical_score!);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const r = await callTool(client, "search_semantic", { query: "tokens", mode: "lexical", min_similarity: 0.3 });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("Error: min_similarity needs the semantic ranking: use mode hybrid or semantic (400)");
  });
});

describe("filters and dates with hybrid on apply to both sides", () => {
  test("author, source, tags and dates: every result matches, and the exact-word note is in or out by its metadata", async () => {
    const cases: [Record<string, unknown>, boolean, (h: Hit) => boolean][] = [
      [{ author: "Ops Team" }, true, (h) => h.author === "Ops Team"],
      [{ author: "Chef Ana" }, false, (h) => h.author === "Chef Ana"],
      [{ source: "markdown" }, true, (h) => h.source === "markdown"],
      [{ tags: ["software"] }, true, (h) => h.tags.includes("software")],
      [{ tags: ["cooking", "security"] }, false, (h) => h.tags.includes("cooking") || h.tags.includes("security")],
      [{ date_from: "2024-01-01" }, true, () => true],
      [{ date_to: "2023-12-31" }, false, () => true],
      [{ date_from: "2024-02-01", date_to: "2024-02-01" }, true, () => true],
    ];
    for (const [filters, present, ok] of cases) {
      const out = await search({ query: "ECONNRESET", limit: 2, ...filters });
      const label = JSON.stringify(filters);
      expect(out.results.every(ok), label).toBe(true);
      expect(out.results.some((r) => r.title === "Debugging Node Services"), label).toBe(present);
      if (present) expect(out.results[0]!.title, label).toBe("Debugging Node Services");
    }
  });

  test("dates cut the semantic side too: a range holding only the cooking notes returns only them", async () => {
    const out = await search({ query: "ECONNRESET calm", limit: 5, date_from: "2023-09-01", date_to: "2023-10-31" });
    expect(out.results.map((r) => r.title).sort()).toEqual(["Kitchen Habits", "Prep Before Heat"]);
  });
});

describe("the word index follows imports and owners", () => {
  test("another user's words never match, in any mode", async () => {
    for (const mode of ["hybrid", "lexical"]) {
      const out = await search({ query: "Quetzalcoatlus", mode });
      expect(out.results.map((r) => r.author)).not.toContain("Bob Writer");
      expect(out.no_match, mode).toBe(true);
    }
    const semantic = await search({ query: "Quetzalcoatlus bones stock", mode: "semantic", limit: 20 });
    expect(semantic.results.map((r) => r.author)).not.toContain("Bob Writer");
    const bobs = await searchAs(bobClient, { query: "Quetzalcoatlus" });
    expect(bobs.results[0]!.author).toBe("Bob Writer");
    expect(bobs.results.every((r) => r.author === "Bob Writer")).toBe(true);
  });

  test("re-import of an edited note: the removed word is gone from the index, the new one is found; removing every chunk of it leaves nothing behind", async () => {
    const carol = await createUser();
    const c = await connect("knowledge", { token: carol.token });
    clients.push(c);
    const dir = await writeNotes({ "music.md": note("Music Notes", "Carol", ["music"], "2024-01-01", "The xylophonist tuned every bar before the concert."), "other.md": note("Other", "Carol", [], "2024-01-02", "Nothing about instruments here at all.") });
    await importFiles([dir], { db: adminDb(), uid: carol.uid, embedder });
    expect((await searchAs(c, { query: "xylophonist", mode: "lexical" })).results.map((r) => r.title)).toEqual(["Music Notes"]);

    await writeFile(join(dir, "music.md"), note("Music Notes", "Carol", ["music"], "2024-01-01", "The glockenspiel player tuned every bar before the concert."));
    const edited = await importFiles([dir], { db: adminDb(), uid: carol.uid, embedder });
    expect(edited.documents).toEqual({ imported: 0, updated: 1, unchanged: 1 });
    expect((await searchAs(c, { query: "xylophonist", mode: "lexical" })).no_match).toBe(true);
    expect((await searchAs(c, { query: "xylophonist" })).results.map((r) => r.full_content).join()).not.toContain("xylophonist");
    expect((await searchAs(c, { query: "glockenspiel", mode: "lexical" })).results.map((r) => r.title)).toEqual(["Music Notes"]);
    // In Firestore: no chunk of carol's is indexed under the removed word; every chunk has terms.
    const chunks = await adminDb().collection("kb_items").where("owner_uid", "==", carol.uid).get();
    expect(chunks.size).toBe(2);
    expect(chunks.docs.flatMap((d) => d.get("terms") as string[])).not.toContain("xylophonist");
    const indexed = await adminDb().collection("kb_items").where("owner_uid", "==", carol.uid).where("terms", "array-contains", "glockenspiel").get();
    expect(indexed.size).toBe(1);

    // The note's text replaced by another subject entirely: the old words go with the old chunk.
    await writeFile(join(dir, "music.md"), note("Music Notes", "Carol", ["music"], "2024-01-01", "Scales every morning."));
    await importFiles([dir], { db: adminDb(), uid: carol.uid, embedder });
    const gone = await adminDb().collection("kb_items").where("terms", "array-contains", "glockenspiel").where("owner_uid", "==", carol.uid).get();
    expect(gone.size).toBe(0);
    expect((await searchAs(c, { query: "glockenspiel" })).no_match).toBe(true);
    // The inverted index (posting shards) points at carol's live chunks only: no stale posting survives.
    const live = new Set((await adminDb().collection("kb_items").where("owner_uid", "==", carol.uid).select().get()).docs.map((d) => d.id));
    const shards = await adminDb().collection("kb_lexicon").doc(carol.uid).collection("kb_lexicon_shards").get();
    const postings = shards.docs.flatMap((d) => Object.entries((d.get("terms") ?? {}) as Record<string, Record<string, number>>).flatMap(([t, ids]) => Object.keys(ids).map((id) => ({ t, id }))));
    expect(postings.filter((p) => !live.has(p.id))).toEqual([]);
    expect(postings.filter((p) => p.t === "glockenspiel" || p.t === "xylophonist")).toEqual([]);
    expect(postings.filter((p) => p.t === "scale")).toHaveLength(1);
  });

  test("two imports of one user at the same time, sharing words and shards: every note is found by its words, no posting lost", async () => {
    const erin = await createUser();
    const c = await connect("knowledge", { token: erin.token });
    clients.push(c);
    const notes = (prefix: string) =>
      Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`${prefix}-${i}.md`, note(`${prefix} ${i}`, "Erin", ["shared"], "2024-03-01", `Shared harbour words for every note. Unique marker ${prefix}code${i} here.`)]));
    const [a, b] = await Promise.all([writeNotes(notes("alpha")), writeNotes(notes("beta"))]);
    await Promise.all([importFiles([a], { db: adminDb(), uid: erin.uid, embedder }), importFiles([b], { db: adminDb(), uid: erin.uid, embedder })]);
    for (const prefix of ["alpha", "beta"]) {
      for (const i of [0, 5, 11]) {
        expect((await searchAs(c, { query: `${prefix}code${i}`, mode: "lexical" })).results.map((r) => r.title)).toEqual([`${prefix} ${i}`]);
      }
    }
    // "harbour" is in all 24 notes: its posting list holds each of them once.
    const shards = await adminDb().collection("kb_lexicon").doc(erin.uid).collection("kb_lexicon_shards").get();
    const harbour = shards.docs.map((d) => d.get("terms.harbour") as Record<string, number> | undefined).find((m) => m);
    expect(Object.keys(harbour ?? {})).toHaveLength(24);
  });

  test("chunks indexed before the word index existed (or by an older analysis) are indexed by the next import, without re-embedding", async () => {
    const dan = await createUser();
    const dir = await writeNotes({ "old.md": note("Old Note", "Dan", ["legacy"], "2020-01-01", "The zeppelin hangar still stands beside the airfield.") });
    const first = await importFiles([dir], { db: adminDb(), uid: dan.uid, embedder });
    const parent = first.files[0]!.documents[0]!.parent_doc_id;
    // As an earlier version stored it: no terms on the chunks, no postings, no version on the manifest.
    const chunks = await adminDb().collection("kb_items").where("owner_uid", "==", dan.uid).get();
    const before = chunks.docs.map((d) => (d.get("embedding") as { toArray(): number[] }).toArray());
    for (const d of chunks.docs) await d.ref.update({ terms: FieldValue.delete(), term_weights: FieldValue.delete(), term_count: FieldValue.delete() });
    await adminDb().recursiveDelete(adminDb().collection("kb_lexicon").doc(dan.uid));
    await adminDb().collection("kb_documents").doc(parent).update({ lexical_version: FieldValue.delete() });
    const c = await connect("knowledge", { token: dan.token });
    clients.push(c);
    expect((await searchAs(c, { query: "zeppelin", mode: "lexical" })).no_match).toBe(true);

    let embedded = 0;
    const counting: Embedder = { ...embedder, embed: async (texts, task) => ((embedded += texts.length), embedder.embed(texts, task)) };
    const again = await importFiles([dir], { db: adminDb(), uid: dan.uid, embedder: counting });
    expect(again.documents.unchanged).toBe(1);
    expect(embedded).toBe(0);
    expect((await searchAs(c, { query: "zeppelin", mode: "lexical" })).results.map((r) => r.title)).toEqual(["Old Note"]);
    expect((await adminDb().collection("kb_documents").doc(parent).get()).get("lexical_version")).toBe(LEXICAL_VERSION);
    const after = await adminDb().collection("kb_items").where("owner_uid", "==", dan.uid).get();
    expect(after.docs.map((d) => (d.get("embedding") as { toArray(): number[] }).toArray())).toEqual(before);
  });
});
