// The knowledge results view in a real Chromium host (scripts/view-host, the extension SDK's
// AppBridge) against the served function: a card per result with the matched words highlighted,
// a chunk opened through resources/read and its related chunks through get_related_chunks.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminDb, createUser, type TestUser } from "../support/emulators.js";
import { showView, startViews, type ViewSession } from "../support/views.js";
import { createEmbedder } from "../../functions/src/platform/embeddings.js";
import { importFiles } from "../../functions/src/domains/knowledge/ingest/import.js";
import { writeCorpus } from "../knowledge/corpus.js";

interface Hit {
  chunk_id: string;
  title: string;
  match?: { terms: string[] };
}

let alice: TestUser;
let session: ViewSession;
beforeAll(async () => {
  alice = await createUser();
  const corpus = await writeCorpus();
  await importFiles([corpus.dir], { db: adminDb(), uid: alice.uid, embedder: await createEmbedder("local") });
  session = await startViews(["knowledge"], alice.token);
}, 300_000);
afterAll(async () => session?.close());

describe("result cards", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`search_semantic: every result's title on a card, the matched words marked, why it matched (${theme})`, async () => {
      const shown = await showView(session, "knowledge", "search_semantic", { query: "habits routines", limit: 5 }, theme);
      const hits = (shown.opened.result.structuredContent as { results: Hit[] }).results;
      expect(hits.length).toBeGreaterThan(1);
      await shown.frame.waitForSelector("li.card", { timeout: 20_000 });
      const cards = await shown.frame.$$eval("ol.cards > li.card", (cs) =>
        cs.map((c) => ({ id: (c as HTMLElement).dataset.chunk, title: c.querySelector(".title")?.textContent, marks: Array.from(c.querySelectorAll("mark")).map((m) => m.textContent!.toLowerCase()), why: c.querySelector(".why")?.textContent })),
      );
      expect(cards.map((c) => c.title)).toEqual(hits.map((h) => h.title));
      expect(cards.map((c) => c.id)).toEqual(hits.map((h) => h.chunk_id));
      const top = cards[0]!;
      expect(hits[0]!.match?.terms.length).toBeGreaterThan(0);
      expect(top.marks.some((m) => hits[0]!.match!.terms.includes(m))).toBe(true);
      // Marked as the search matched: "habits" marks the title "Habit Notes" too (its stem).
      expect(cards.find((c) => c.title === "Habit Notes")?.marks).toContain("habit");
      expect(top.why).toMatch(/^Matched on words: /);
      await shown.done(`knowledge-results-${theme}`);
    }, 120_000);
  }

  it("opens a chunk (resources/read) and its related chunks (get_related_chunks) through the host", async () => {
    const shown = await showView(session, "knowledge", "search_by_metadata", { author: "Test Author" }, "light");
    const hits = (shown.opened.result.structuredContent as { results: Hit[] }).results;
    await shown.frame.waitForSelector("li.card", { timeout: 20_000 });
    const first = `li.card[data-chunk="${hits[0]!.chunk_id}"]`;
    await shown.frame.click(`${first} .actions button:first-child`);
    await shown.frame.waitForSelector(`${first} pre.chunk`, { timeout: 30_000 });
    expect(await shown.frame.$eval(`${first} pre.chunk`, (p) => p.textContent)).toContain("Habit Notes");
    expect(await shown.page.evaluate(() => window.viewHost.state.reads)).toEqual([`kxhub://chunk/${encodeURIComponent(hits[0]!.chunk_id)}`]);
    await shown.frame.click(`${first} .actions button:last-child`);
    await shown.frame.waitForSelector(`${first} .more h3`, { timeout: 60_000 });
    const related = await shown.frame.$$eval(`${first} .more li.card .title`, (ts) => ts.map((t) => t.textContent));
    expect(related.length).toBeGreaterThan(0);
    expect(await shown.page.evaluate(() => window.viewHost.state.toolCalls)).toEqual([{ name: "get_related_chunks", isError: false }]);
    await shown.done("knowledge-related-light");
  }, 180_000);
});
