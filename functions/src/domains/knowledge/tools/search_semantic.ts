// search_semantic: hybrid search by default — the chunks nearest in meaning (Firestore findNearest,
// cosine, every filter inside the query) fused with the chunks containing the query's words (the
// lexical index, same filters) — or either side alone with `mode`. The seed's contract holds:
// same arguments, ranked results with snippet, full_content and similarity; each result also says
// why it matched. A query that matches no word and nothing close in meaning answers "no match".
import { z } from "zod";
import { tool } from "../../../mcp/signed-in.js";
import { modelMismatch, queryEmbedder } from "../embedding.js";
import { storeFor } from "../backend.js";
import { dateFields, filterFields, toFilters } from "../filters.js";
import { resultItem, resultItems } from "../format.js";
import { search, SEARCH_MODES } from "../search.js";
import { RESULTS_VIEW } from "../views.js";

const match = z.object({
  terms: z.array(z.string()).describe('Query words and "quoted phrases" found in this chunk (title, author, tags or text)'),
  similarity: z.number().optional().describe("Cosine similarity to the query (semantic score)"),
  semantic_rank: z.number().int().optional().describe("Rank by meaning among the candidates"),
  lexical_rank: z.number().int().optional().describe("Rank by the query's words among the chunks containing them"),
  lexical_score: z.number().optional().describe("BM25 score of the query's words (title, author and tag words weigh more)"),
  fused_rank: z.number().int().optional().describe("Rank after fusing both (hybrid mode; equals rank)"),
  fused_score: z.number().optional().describe("Fused score: the similarity plus half the chunk's share (0-1) of the best word score the query allows"),
});

const result = resultItem.extend({
  tags: z.array(z.string()),
  similarity: z.number().optional().describe("Cosine similarity to the query, 1 = identical meaning (absent in lexical mode)"),
  match: match.describe("Why this chunk matched"),
});

const output = z.object({
  query: z.string(),
  mode: z.enum(SEARCH_MODES),
  result_count: z.number().int(),
  results: z.array(result),
  no_match: z.boolean().optional().describe("True when no chunk contains the query's words and none is close in meaning"),
  note: z.string().optional(),
});
/** What search_semantic answers (its structuredContent). */
export type SearchSemanticOutput = z.infer<typeof output>;

export const searchSemantic = tool(
  {
    name: "search_semantic",
    title: "Search (hybrid: meaning + exact words)",
    description:
      'Searches your knowledge base (reading highlights, notes, articles) by meaning AND by the exact words: finds chunks about the query even when they use other words, and chunks containing a name, code, standard or rare word you remember ("RFC 6749", "Kahneman", "ECONNRESET"). Put "exact phrases" in double quotes. mode: "hybrid" (default), "semantic" (meaning only) or "lexical" (words only). Optional filters (tags any-of, author, source, date range, minimum similarity) apply to both sides. Each result says why it matched (words found, similarity, ranks); when nothing matches, result_count is 0 and note says so.',
    inputSchema: z.object({
      query: z.string().trim().min(1).max(2000).describe('What you are looking for: a question in natural language, exact words, or "a quoted phrase"'),
      limit: z.number().int().min(1).max(50).default(10).describe("How many results (1-50, default 10)"),
      mode: z.enum(SEARCH_MODES).default("hybrid").describe('"hybrid" (default): meaning and words fused; "semantic": by meaning only; "lexical": by the words only'),
      ...filterFields,
      ...dateFields,
      min_similarity: z.number().min(-1).max(1).optional().describe("Drop results less similar than this (cosine similarity, e.g. 0.3; not in lexical mode)"),
    }),
    outputSchema: output,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    ui: { resourceUri: RESULTS_VIEW.uri },
  },
  async (input, ctx) => {
    const store = storeFor(ctx);
    const filters = toFilters(input);
    const mode = input.mode;
    // The summary explains an empty answer (other model, empty base) and gives the chunk count;
    // the searches run regardless, so chunks the summary does not know of yet are still found. A
    // model mismatch wins over an embedding failure. Lexical search needs no embedder at all.
    const e = mode === "lexical" ? undefined : await queryEmbedder(ctx);
    const countsRead = store.counts();
    const outcome = search(store, { query: input.query, limit: input.limit, mode, filters, minSimilarity: input.min_similarity }, ctx, countsRead.then((c) => c.chunks), e);
    outcome.catch(() => undefined); // awaited below, after the mismatch check
    const counts = await countsRead;
    const models = Object.keys(counts.models);
    if (e && counts.chunks > 0 && models.length && !counts.models[e.model]) throw modelMismatch(models, e.model, store.uid);
    const { hits, noMatch, absent, bestSimilarity, dropped } = await outcome;
    const results = resultItems(hits.map((h) => h.chunk)).map((r, i) => {
      const h = hits[i]!;
      return { ...r, tags: h.chunk.tags, ...(h.similarity !== undefined ? { similarity: h.similarity } : {}), match: h.match };
    });
    const others = e ? models.filter((m) => m !== e.model) : [];
    const notes: string[] = [];
    if (counts.chunks === 0 && !hits.length) notes.push("Your knowledge base is empty: import files with npm run kb:import first.");
    else if (noMatch) {
      const words = absent.length ? `No chunk contains ${absent.map((w) => `"${w}"`).join(", ")}` : "No chunk contains the query's words";
      const weak = bestSimilarity !== undefined ? ` and nothing is close in meaning (best similarity ${bestSimilarity.toFixed(2)})` : "";
      notes.push(`No match: ${words}${mode === "lexical" ? "" : weak}. Try other words, fewer filters${mode === "lexical" ? ', or mode "hybrid" to search by meaning too' : ""}.`);
    } else if (absent.length) notes.push(`No chunk contains ${absent.map((w) => `"${w}"`).join(", ")}.`);
    if (dropped.length) notes.push(`Only the first words were matched exactly; ${dropped.map((w) => `"${w}"`).join(", ")} counted by meaning only.`);
    if (others.length) notes.push(`${others.reduce((n, m) => n + (counts.models[m] ?? 0), 0)} chunk(s) embedded with ${others.join(", ")} were not searched by meaning: re-import those files to include them.`);
    const note = notes.join(" ");
    return { data: { query: input.query, mode, result_count: results.length, results, ...(noMatch ? { no_match: true } : {}), ...(note ? { note } : {}) } };
  },
);
