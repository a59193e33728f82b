// get_stats: the per-user summary that every import changes in the same transaction as the
// document manifests: one document read, whatever the number of chunks.
import { z } from "zod";
import { tool } from "../../../mcp/signed-in.js";
import { storeFor } from "../backend.js";

const TOP = 50;
const entry = z.object({ name: z.string(), chunks: z.number().int() });

export const getStats = tool(
  {
    name: "get_stats",
    title: "Knowledge base statistics",
    description:
      "Summarises your knowledge base: total chunks and documents, unique sources, authors and tags (with chunk counts, most frequent first), averages, and the embedding model(s) used.",
    inputSchema: z.object({}),
    outputSchema: z.object({
      total_chunks: z.number().int(),
      total_documents: z.number().int(),
      unique_sources: z.number().int(),
      unique_authors: z.number().int(),
      unique_tags: z.number().int(),
      avg_chunks_per_document: z.number(),
      avg_chunk_length: z.number().describe("Average characters per chunk"),
      sources: z.array(entry),
      authors: z.array(entry).describe(`Top ${TOP} authors`),
      tags: z.array(entry).describe(`Top ${TOP} tags`),
      embedding_models: z.array(entry),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async (_input, ctx) => {
    const store = storeFor(ctx);
    const counts = await store.counts();
    const top = (m: Record<string, number>, n = TOP) =>
      Object.entries(m)
        .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
        .slice(0, n)
        .map(([name, chunks]) => ({ name, chunks }));
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      data: {
        total_chunks: counts.chunks,
        total_documents: counts.documents,
        unique_sources: Object.keys(counts.sources).length,
        unique_authors: Object.keys(counts.authors).length,
        unique_tags: Object.keys(counts.tags).length,
        avg_chunks_per_document: counts.documents ? round(counts.chunks / counts.documents) : 0,
        avg_chunk_length: counts.chunks ? round(counts.chars / counts.chunks) : 0,
        sources: top(counts.sources, 100),
        authors: top(counts.authors),
        tags: top(counts.tags),
        embedding_models: top(counts.models, 10),
      },
    };
  },
);
