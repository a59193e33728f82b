// What every embeddings provider implements and shares (embeddings.ts picks one; the adapters
// import only this, so the front and its adapters form no import circle).

export const EMBEDDING_DIMENSIONS = 768 as const;

export type EmbedTask = "document" | "query";

export interface Embedder {
  /** Identifies the vector space; stored beside every vector. */
  readonly model: string;
  readonly dimensions: typeof EMBEDDING_DIMENSIONS;
  /** One unit-length vector per text, in order. */
  embed(texts: string[], task: EmbedTask): Promise<number[][]>;
  /** Makes the first real calls fast (an instance's warm-up); never calls a paid API. */
  warmup?(): Promise<void>;
}

/**
 * Why an embedding could not be made. `message` is written for the operator and carries nothing
 * from upstream; `detail` holds the upstream text (project ids, IAM roles, quota names), which
 * belongs in logs and in the import command's output, never in a tool result.
 */
export class EmbeddingError extends Error {
  override readonly name = "EmbeddingError";
  constructor(
    message: string,
    /** "unavailable": try again later; "config": fix the setup; "invalid": bad input. */
    readonly reason: "unavailable" | "config" | "invalid",
    readonly status?: number,
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** Scales a vector to unit length (cosine distance then equals 1 - dot product). */
export function normalize(vector: number[]): number[] {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum) || 1;
  return vector.map((v) => v / norm);
}
