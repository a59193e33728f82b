// Query embeddings for the knowledge tools: the embedder of the domain's backend (backend.ts; the
// function's is the process's, platform/embeddings.ts), with provider failures turned into
// sentences the caller can act on.
import { EmbeddingError, type Embedder } from "../../platform/embeddings.js";
import { LOCAL_MODEL } from "../../platform/embeddings-local.js";
import type { RequestContext } from "../../mcp/define.js";
import { knowledgeBackend } from "./backend.js";
import { conflict, invalidInput, ToolError, unavailable } from "../../core/errors.js";

/** The embedder of the backend the domain was served with (the process's one in the function). */
export async function queryEmbedder(ctx: RequestContext): Promise<Embedder> {
  try {
    return await knowledgeBackend(ctx).embedder();
  } catch (err) {
    throw asEmbeddingToolError(err, ctx);
  }
}

/**
 * Recent query vectors by model and text: an agent often repeats a search with other filters, a
 * larger limit or after an error. KNOWLEDGE_QUERY_CACHE_SIZE=0 turns it off (benchmarks that
 * measure embedding repeat their queries).
 */
const QUERY_CACHE_SIZE = Math.max(0, Math.floor(Number(process.env.KNOWLEDGE_QUERY_CACHE_SIZE ?? 256)) || 0);
const queryCache = new Map<string, number[]>();

/** Embeds one query text (with `e`, or the process's embedder), turning provider failures into sentences the caller can act on. */
export async function embedQuery(text: string, ctx: RequestContext, e?: Embedder): Promise<{ vector: number[]; model: string }> {
  const use = e ?? (await queryEmbedder(ctx));
  const key = `${use.model}\u0000${text}`;
  const cached = queryCache.get(key);
  if (cached) {
    queryCache.delete(key); // most recently used last
    queryCache.set(key, cached);
    return { vector: cached, model: use.model };
  }
  try {
    const [vector] = await use.embed([text], "query");
    if (QUERY_CACHE_SIZE) {
      queryCache.set(key, vector!);
      if (queryCache.size > QUERY_CACHE_SIZE) queryCache.delete(queryCache.keys().next().value!);
    }
    return { vector: vector!, model: use.model };
  } catch (err) {
    throw asEmbeddingToolError(err, ctx);
  }
}

export const EMBEDDING_UNAVAILABLE = "Semantic search is temporarily unavailable; try again later";
export const EMBEDDING_NOT_CONFIGURED = "Semantic search is not configured on this server; the operator can find the cause in the server logs";

/**
 * Provider failures as tool errors. Upstream text (project ids, IAM roles, quota names) goes to
 * the log with the request id, where the operator looks; the caller gets a fixed sentence.
 */
export function asEmbeddingToolError(err: unknown, ctx: Pick<RequestContext, "log" | "requestId">): ToolError {
  if (err instanceof ToolError) return err;
  const e = err instanceof EmbeddingError ? err : undefined;
  ctx.log.error("embedding failed", {
    requestId: ctx.requestId,
    reason: e?.reason ?? "unexpected",
    status: e?.status,
    error: e ? e.message : String((err as Error)?.message ?? err),
    detail: e?.detail,
  });
  if (e?.reason === "invalid") return invalidInput("The embedding service could not embed this query; shorten or rephrase it");
  if (e?.reason === "config") return unavailable(EMBEDDING_NOT_CONFIGURED);
  return unavailable(EMBEDDING_UNAVAILABLE);
}

/** The error for a knowledge base whose vectors come from another model than the queries. */
export function modelMismatch(stored: string[], current: string, uid: string): ToolError {
  return conflict(
    `Your knowledge base was embedded with ${stored.join(", ")}, but this server embeds queries with ${current}; vectors from different models cannot be compared. Re-import your files to re-embed them (npm run kb:import -- --user ${uid} <files or folders…>)`,
  );
}

/**
 * Below this best similarity, and with none of its words in any chunk, a query matched nothing:
 * hybrid search answers "no match" instead of the nearest noise. Per model, since each spreads
 * its similarities differently: on bench/knowledge-hybrid.ts' set USE-lite gave the right notes of
 * paraphrases ≥ 0.30 and words in no note 0.20–0.44: it cannot tell all of them apart, so only
 * the clearly unrelated are caught, and a paraphrase sharing no word with any note and scoring
 * below this reads as no match (none of the benchmark's did); gemini-embedding-001 spreads similarities higher, so other models
 * use a higher default (not measured here: no Vertex access offline). KNOWLEDGE_WEAK_SIMILARITY overrides both.
 */
const WEAK_SIMILARITY: Record<string, number> = { [LOCAL_MODEL]: 0.35 };
const WEAK_SIMILARITY_DEFAULT = 0.6;
export function weakSimilarity(model: string): number {
  const override = Number(process.env.KNOWLEDGE_WEAK_SIMILARITY);
  if (process.env.KNOWLEDGE_WEAK_SIMILARITY && Number.isFinite(override)) return override;
  return WEAK_SIMILARITY[model] ?? WEAK_SIMILARITY_DEFAULT;
}
