// What every knowledge handler needs: the caller's store and the process's embedder.
import { embedder, EmbeddingError, type Embedder } from "../../platform/embeddings.js";
import { firestore } from "../../platform/firebase.js";
import type { RequestContext } from "../../mcp/define.js";
import { invalidInput, ToolError, unauthenticated, unavailable } from "../../mcp/errors.js";
import { KnowledgeStore } from "./store.js";

export function storeFor(ctx: RequestContext): KnowledgeStore {
  if (!ctx.caller) throw unauthenticated();
  return new KnowledgeStore(firestore(), ctx.caller.uid);
}

export async function queryEmbedder(): Promise<Embedder> {
  try {
    return await embedder();
  } catch (err) {
    throw asEmbeddingToolError(err);
  }
}

/** Embeds one query text, turning provider failures into sentences the caller can act on. */
export async function embedQuery(text: string): Promise<{ vector: number[]; model: string }> {
  const e = await queryEmbedder();
  try {
    const [vector] = await e.embed([text], "query");
    return { vector: vector!, model: e.model };
  } catch (err) {
    throw asEmbeddingToolError(err);
  }
}

function asEmbeddingToolError(err: unknown): ToolError {
  if (err instanceof ToolError) return err;
  if (err instanceof EmbeddingError) {
    if (err.reason === "invalid") return invalidInput(err.message);
    return unavailable(err.reason === "config" ? `Semantic search is not available: ${err.message}` : err.message);
  }
  return unavailable("The embedding service failed unexpectedly. Try again in a minute");
}

/** The error for a knowledge base whose vectors come from another model than the queries. */
export function modelMismatch(stored: string[], current: string, uid: string): ToolError {
  return new ToolError(
    "conflict",
    `Your knowledge base was embedded with ${stored.join(", ")}, but this server embeds queries with ${current}; vectors from different models cannot be compared. Re-import your files to re-embed them (npm run kb:import -- --user ${uid} <files or folders…>)`,
  );
}
