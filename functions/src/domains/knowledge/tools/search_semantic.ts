// search_semantic: embed the query, then Firestore findNearest (cosine) over the caller's chunks
// of the same embedding model, with every filter inside the query (pre-filter), so that `limit`
// results come back whenever that many match (one findNearest per tag for a tags filter).
import { z } from "zod";
import { tool } from "../../../mcp/signed-in.js";
import { embedQuery, modelMismatch, queryEmbedder } from "../embedding.js";
import { storeFor } from "../store.js";
import { dateFields, filterFields, toFilters } from "../filters.js";
import { resultItem, resultItems } from "../format.js";

const result = resultItem.extend({
  tags: z.array(z.string()),
  similarity: z.number().describe("Cosine similarity to the query, 1 = identical meaning"),
});

export const searchSemantic = tool(
  {
    name: "search_semantic",
    title: "Semantic search",
    description:
      "Searches your knowledge base (reading highlights, notes, articles) by meaning, not keywords: finds chunks about the query even when they use other words. Optional filters (tags any-of, author, source, date range, minimum similarity) narrow the search before ranking. Returns ranked chunks with snippet, full content and similarity.",
    inputSchema: z.object({
      query: z.string().trim().min(1).max(2000).describe("What you are looking for, in natural language"),
      limit: z.number().int().min(1).max(50).default(10).describe("How many results (1-50, default 10)"),
      ...filterFields,
      ...dateFields,
      min_similarity: z.number().min(-1).max(1).optional().describe("Drop results less similar than this (cosine similarity, e.g. 0.3)"),
    }),
    outputSchema: z.object({
      query: z.string(),
      result_count: z.number().int(),
      results: z.array(result),
      note: z.string().optional(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async (input, ctx) => {
    const store = storeFor(ctx);
    const filters = toFilters(input);
    // The summary only explains an empty answer (other model, empty base); the vector query runs
    // regardless, so chunks the summary does not know of yet are still found. The query is
    // embedded and searched while the summary is read; a model mismatch still wins over an
    // embedding failure.
    const e = await queryEmbedder(ctx);
    const search = embedQuery(input.query, ctx, e).then(({ vector, model }) => store.nearest(vector, model, input.limit, filters, input.min_similarity));
    search.catch(() => undefined); // awaited below, after the mismatch check
    const counts = await store.counts();
    const models = Object.keys(counts.models);
    if (counts.chunks > 0 && models.length && !counts.models[e.model]) throw modelMismatch(models, e.model, store.uid);
    const hits = await search;
    const results = resultItems(hits).map((r, i) => ({ ...r, tags: hits[i]!.tags, similarity: hits[i]!.similarity }));
    const others = models.filter((m) => m !== e.model);
    const note =
      counts.chunks === 0 && !hits.length
        ? "Your knowledge base is empty: import files with npm run kb:import first."
        : others.length
          ? `${others.reduce((n, m) => n + (counts.models[m] ?? 0), 0)} chunk(s) embedded with ${others.join(", ")} were not searched: re-import those files to include them.`
          : undefined;
    return { data: { query: input.query, result_count: results.length, results, ...(note ? { note } : {}) } };
  },
);
