// Production embeddings: gemini-embedding-001 on Vertex AI through @google/genai in Vertex mode
// (not the deprecated @google-cloud/vertexai). One client per process; each text is one
// `:predict` request (the API takes one instance per request), a few in flight at a time.
// Rate limits (429) and server errors (5xx) are retried: 3 attempts in all, waiting 1 s, then
// 2 s (then 4 s, … if attempts are raised). Anything else fails at once with a clear sentence.
// GOOGLE_VERTEX_BASE_URL (honoured by @google/genai) points the client elsewhere, e.g. tests.
import { GoogleGenAI, type GoogleGenAIOptions } from "@google/genai";
import { EMBEDDING_DIMENSIONS, EmbeddingError, normalize, type Embedder, type EmbedTask } from "./embeddings.js";

export const VERTEX_MODEL = "gemini-embedding-001";

export interface VertexEmbedderOptions {
  project?: string;
  location?: string;
  /** Base URL of the API (default: GOOGLE_VERTEX_BASE_URL, else Google's). */
  baseUrl?: string;
  /** Passed to google-auth-library (default: Application Default Credentials). */
  googleAuthOptions?: GoogleGenAIOptions["googleAuthOptions"];
  attempts?: number;
  /** Delay before retry n (1-based) is baseDelayMs * 2^(n-1): 1 s, 2 s, 4 s by default. */
  baseDelayMs?: number;
  concurrency?: number;
  /** Per-request timeout. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const RETRYABLE = (status: number | undefined) => status === 429 || (status !== undefined && status >= 500);

export class VertexEmbedder implements Embedder {
  readonly model = VERTEX_MODEL;
  readonly dimensions = EMBEDDING_DIMENSIONS;
  private readonly client: GoogleGenAI;
  private readonly attempts: number;
  private readonly baseDelayMs: number;
  private readonly concurrency: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(opts: VertexEmbedderOptions = {}) {
    const env = process.env;
    const project = opts.project ?? env.GOOGLE_CLOUD_PROJECT ?? env.GCLOUD_PROJECT;
    if (!project) throw new EmbeddingError("Vertex AI embeddings need a project: set GOOGLE_CLOUD_PROJECT", "config");
    const baseUrl = opts.baseUrl ?? env.GOOGLE_VERTEX_BASE_URL;
    this.client = new GoogleGenAI({
      vertexai: true,
      project,
      location: opts.location ?? env.VERTEX_LOCATION ?? env.GOOGLE_CLOUD_LOCATION ?? "us-central1",
      ...(opts.googleAuthOptions ? { googleAuthOptions: opts.googleAuthOptions } : {}),
      // No retries inside the client: this adapter owns the retry policy.
      httpOptions: { ...(baseUrl ? { baseUrl } : {}), timeout: opts.timeoutMs ?? 30_000 },
    });
    this.attempts = Math.max(1, opts.attempts ?? 3);
    this.baseDelayMs = opts.baseDelayMs ?? Number(env.EMBEDDINGS_RETRY_BASE_MS ?? 1000);
    this.concurrency = Math.max(1, opts.concurrency ?? 4);
    this.sleep = opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  async embed(texts: string[], task: EmbedTask): Promise<number[][]> {
    const out = new Array<number[]>(texts.length);
    let next = 0;
    const worker = async () => {
      while (next < texts.length) {
        const i = next++;
        out[i] = await this.embedOne(texts[i] ?? "", task);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.concurrency, texts.length) }, worker));
    return out;
  }

  private async embedOne(text: string, task: EmbedTask): Promise<number[]> {
    let lastStatus: number | undefined;
    let lastMessage = "";
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      try {
        const response = await this.client.models.embedContent({
          model: VERTEX_MODEL,
          contents: text || " ",
          config: { taskType: task === "query" ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT", outputDimensionality: EMBEDDING_DIMENSIONS },
        });
        const values = response.embeddings?.[0]?.values;
        if (!values || values.length !== EMBEDDING_DIMENSIONS) {
          throw new EmbeddingError(
            `Vertex AI returned ${values ? `${values.length} values` : "no embedding"} instead of ${EMBEDDING_DIMENSIONS}`,
            "unavailable",
            undefined,
            `model ${VERTEX_MODEL}`,
          );
        }
        return normalize(values);
      } catch (err) {
        if (err instanceof EmbeddingError) throw err;
        const status = statusOf(err);
        lastStatus = status;
        lastMessage = messageOf(err);
        if (!RETRYABLE(status) && status !== undefined) {
          throw new EmbeddingError(
            `Vertex AI refused the embedding request (HTTP ${status}). Check the project, region and the service account's aiplatform.user role`,
            status === 400 ? "invalid" : "config",
            status,
            lastMessage,
          );
        }
        if (status === undefined && /credentials/i.test(lastMessage)) {
          throw new EmbeddingError("Vertex AI embeddings need Google credentials (Application Default Credentials)", "config", undefined, lastMessage);
        }
        if (attempt < this.attempts) await this.sleep(this.baseDelayMs * 2 ** (attempt - 1));
      }
    }
    throw new EmbeddingError(
      `The embedding service (Vertex AI ${VERTEX_MODEL}) did not answer after ${this.attempts} attempts (last: ${lastStatus ? `HTTP ${lastStatus}` : "no response"}). Try again in a minute`,
      "unavailable",
      lastStatus,
      lastMessage || undefined,
    );
  }
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { status?: unknown })?.status;
  return typeof status === "number" ? status : undefined;
}

function messageOf(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  // @google/genai puts the JSON error body in the message: keep its human part, short.
  try {
    const parsed = JSON.parse(raw.slice(raw.indexOf("{"))) as { error?: { message?: string } };
    if (parsed.error?.message) return parsed.error.message.slice(0, 200);
  } catch {
    /* not JSON */
  }
  return raw.slice(0, 200);
}
