// search_by_metadata: tags (any-of), author and source (exact), newest first.
import { z } from "zod";
import { tool } from "../../../mcp/signed-in.js";
import { invalidInput } from "../../../core/errors.js";
import { storeFor } from "../backend.js";
import { filterFields, toFilters } from "../filters.js";
import { resultItem, resultItems } from "../format.js";
import { RESULTS_VIEW } from "../views.js";

export const searchByMetadata = tool(
  {
    name: "search_by_metadata",
    title: "Search by metadata",
    description:
      "Lists chunks of your knowledge base by tags (any of them), author and/or source (exact values), newest first. Use get_stats to see which authors, sources and tags exist.",
    inputSchema: z.object({
      ...filterFields,
      limit: z.number().int().min(1).max(100).default(20).describe("How many chunks (1-100, default 20)"),
    }),
    outputSchema: z.object({
      result_count: z.number().int(),
      results: z.array(resultItem.extend({ category: z.string(), tags: z.array(z.string()), created_at: z.string() })),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    ui: { resourceUri: RESULTS_VIEW.uri },
  },
  async (input, ctx) => {
    if (!input.tags?.length && !input.author && !input.source) throw invalidInput("Give at least one of tags, author or source");
    const chunks = await storeFor(ctx).byMetadata(toFilters(input), input.limit);
    const results = resultItems(chunks).map((r, i) => ({ ...r, category: chunks[i]!.category, tags: chunks[i]!.tags, created_at: chunks[i]!.created_at }));
    return { data: { result_count: results.length, results } };
  },
);
