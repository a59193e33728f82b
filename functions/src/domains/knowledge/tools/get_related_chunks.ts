// get_related_chunks: nearest neighbours of a chunk's own stored vector, without the chunk
// itself (and, if asked, without the other chunks of its document).
import { z } from "zod";
import { documentIdArg } from "../../../mcp/validation.js";
import { tool } from "../../../mcp/signed-in.js";
import { storeFor } from "../backend.js";
import { resultItem, resultItems, snippet } from "../format.js";

const MAX_NEAREST = 1_000;

export const getRelatedChunks = tool(
  {
    name: "get_related_chunks",
    title: "Related chunks",
    description:
      "Finds the chunks most similar in meaning to a given chunk (by its chunk_id from a search result), excluding the chunk itself; optionally also excluding the other chunks of the same document, to find connections across books and notes.",
    inputSchema: z.object({
      chunk_id: documentIdArg("chunk_id", "a chunk_id from a search result", 200).describe("chunk_id from search_semantic or search_by_metadata"),
      limit: z.number().int().min(1).max(50).default(5).describe("How many related chunks (1-50, default 5)"),
      exclude_same_document: z.boolean().default(false).describe("Leave out chunks of the same document (sibling chunks)"),
    }),
    outputSchema: z.object({
      source_chunk: z.object({ chunk_id: z.string(), title: z.string(), author: z.string(), snippet: z.string() }),
      result_count: z.number().int(),
      results: z.array(resultItem.extend({ similarity: z.number() })),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ chunk_id, limit, exclude_same_document }, ctx) => {
    const store = storeFor(ctx);
    const { chunk, vector } = await store.getChunk(chunk_id);
    const keep = (h: { chunk_id: string; parent_doc_id: string }) =>
      h.chunk_id !== chunk.chunk_id && !(exclude_same_document && h.parent_doc_id === chunk.parent_doc_id);
    // Siblings are the nearest neighbours, so ask for that many more; a book's highlights may
    // outnumber its chunk's total_chunks (it only counts those known when it was written), so
    // widen until enough remain or findNearest's cap (1,000) is reached.
    let fetch = Math.min(MAX_NEAREST, limit + 1 + (exclude_same_document ? chunk.total_chunks : 0));
    let related = [] as Awaited<ReturnType<typeof store.nearest>>;
    for (;;) {
      const hits = await store.nearest(vector, chunk.embedding_model, fetch);
      related = hits.filter(keep).slice(0, limit);
      if (related.length >= limit || hits.length < fetch || fetch >= MAX_NEAREST) break;
      fetch = Math.min(MAX_NEAREST, fetch * 4);
    }
    return {
      data: {
        source_chunk: { chunk_id: chunk.chunk_id, title: chunk.title, author: chunk.author, snippet: snippet(chunk.content) },
        result_count: related.length,
        results: resultItems(related).map((r, i) => ({ ...r, similarity: related[i]!.similarity })),
      },
    };
  },
);
