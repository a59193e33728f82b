// Production embeddings: gemini-embedding-001 on Vertex AI through @google/genai in Vertex mode
// (not the deprecated @google-cloud/vertexai). One client per process.
// Batching: @google/genai sends `contents: string[]` as one `:predict` request with one instance
// per text, answered in order. Google's quota page allows up to 250 texts and 20,000 tokens per
// request for gemini-embedding-001, so texts go in batches of at most MAX_BATCH_TEXTS and about
// MAX_BATCH_TOKENS (estimated at 3 characters a token, which over-counts English), a few batches
// in flight. Some regions and older deployments still take one instance per request and answer
// 400 ("… 1 instance(s) is allowed per prediction", "batchSize must be 1"): then the rest of the
// process sends what the answer allows (one text if it does not say), logged once.
// Rate limits (429) and server errors (5xx) are retried: 3 attempts in all, waiting 1 s, then
// 2 s (then 4 s, … if attempts are raised). Anything else fails at once with a clear sentence.
// GOOGLE_VERTEX_BASE_URL (honoured by @google/genai) points the client elsewhere, e.g. tests.
import { GoogleGenAI, type GoogleGenAIOptions } from "@google/genai";
import { ToolError } from "../core/errors.js";
import { BUDGETS, callDependency } from "./deadline.js";
import { EMBEDDING_DIMENSIONS, EmbeddingError, normalize, type Embedder, type EmbedTask } from "./embedder.js";

export const VERTEX_MODEL = "gemini-embedding-001";
/** Texts per `:predict` request (Google's limit for gemini-embedding-001). */
export const MAX_BATCH_TEXTS = 250;
/** Estimated tokens per request (Google's limit: 20,000), at 3 characters a token. */
export const MAX_BATCH_TOKENS = 20_000;
const estimatedTokens = (text: string) => Math.ceil(text.length / 3);

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
  /** Requests in flight at once, per embed() call. */
  concurrency?: number;
  /** Texts per request (default EMBEDDINGS_VERTEX_BATCH, else 250). */
  maxBatchTexts?: number;
  /** Per-request timeout. */
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** Where the one-time "this endpoint takes fewer texts per request" notice goes (default: stderr). */
  warn?: (message: string) => void;
}

/** A 400 saying the request held more instances than the endpoint takes, and how many it takes. */
function batchLimitOf(status: number | undefined, message: string): number | undefined {
  if (status !== 400) return undefined;
  const stated = /(\d+) instances?(?: ?\(s\))? (?:is|are) allowed per (?:prediction|request)/i.exec(message) ?? /batch ?size must be (?:at most )?(\d+)/i.exec(message);
  if (stated) return Math.max(1, Number(stated[1]));
  if (/batch ?size|too many instances|only supports? (?:a )?single (?:input|instance)|one (?:input|instance) (?:at a time|per request)/i.test(message)) return 1;
  return undefined;
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
  private readonly warn: (message: string) => void;
  /** Texts per request; lowered for the rest of the process when the endpoint says so. */
  private maxBatchTexts: number;

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
    this.warn = opts.warn ?? ((message) => console.warn(message));
    const configured = Number(env.EMBEDDINGS_VERTEX_BATCH);
    this.maxBatchTexts = Math.max(1, Math.min(MAX_BATCH_TEXTS, opts.maxBatchTexts ?? (Number.isInteger(configured) && configured > 0 ? configured : MAX_BATCH_TEXTS)));
  }

  /** Texts per request now (tests). */
  get batchTexts(): number {
    return this.maxBatchTexts;
  }

  async embed(texts: string[], task: EmbedTask): Promise<number[][]> {
    const out = new Array<number[]>(texts.length);
    // At most `concurrency` requests of this call in flight (per call: concurrent searches do not
    // wait for each other or for an import).
    let running = 0;
    const waiting: (() => void)[] = [];
    const inFlight = async <T>(task: () => Promise<T>): Promise<T> => {
      while (running >= this.concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
      try {
        return await task();
      } finally {
        running--;
        waiting.shift()?.();
      }
    };
    const run = async (from: number, to: number): Promise<void> => {
      const result = await inFlight(() => this.embedBatch(texts.slice(from, to), task));
      // Refused as too large: the limit is lower now; cut this range again.
      if (result === "too-large") return void (await Promise.all(this.cut(from, to, texts).map(([a, b]) => run(a, b))));
      result.forEach((v, k) => (out[from + k] = v));
    };
    await Promise.all(this.cut(0, texts.length, texts).map(([a, b]) => run(a, b)));
    return out;
  }

  /** Splits texts[from, to) into ranges within the batch limits, in order. */
  private cut(from: number, to: number, texts: string[]): [number, number][] {
    const ranges: [number, number][] = [];
    let start = from;
    let tokens = 0;
    for (let i = from; i < to; i++) {
      const t = estimatedTokens(texts[i] || " ");
      if (i > start && (i - start >= this.maxBatchTexts || tokens + t > MAX_BATCH_TOKENS)) {
        ranges.push([start, i]);
        start = i;
        tokens = 0;
      }
      tokens += t;
    }
    if (to > start) ranges.push([start, to]);
    return ranges;
  }

  /** One `:predict` request for `batch` (retried per the policy), or "too-large" if the endpoint takes fewer texts. */
  private async embedBatch(batch: string[], task: EmbedTask): Promise<number[][] | "too-large"> {
    let lastStatus: number | undefined;
    let lastMessage = "";
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      try {
        const response = await callDependency(BUDGETS.vertex, (abortSignal) =>
          this.client.models.embedContent({
            model: VERTEX_MODEL,
            contents: batch.map((t) => t || " "),
            config: { taskType: task === "query" ? "RETRIEVAL_QUERY" : "RETRIEVAL_DOCUMENT", outputDimensionality: EMBEDDING_DIMENSIONS, abortSignal },
          }),
        );
        const embeddings = response.embeddings ?? [];
        const bad = embeddings.length !== batch.length ? undefined : embeddings.find((e) => e.values?.length !== EMBEDDING_DIMENSIONS);
        if (embeddings.length !== batch.length || bad) {
          const got = embeddings.length !== batch.length ? `${embeddings.length} embeddings for ${batch.length} texts` : `${bad!.values ? `${bad!.values.length} values` : "no embedding"} instead of ${EMBEDDING_DIMENSIONS}`;
          throw new EmbeddingError(`Vertex AI returned ${got}`, "unavailable", undefined, `model ${VERTEX_MODEL}`);
        }
        return embeddings.map((e) => normalize(e.values!));
      } catch (err) {
        if (err instanceof EmbeddingError || err instanceof ToolError) throw err;
        const status = statusOf(err);
        lastStatus = status;
        lastMessage = messageOf(err);
        const limit = batch.length > 1 ? batchLimitOf(status, lastMessage) : undefined;
        if (limit !== undefined && limit < batch.length) {
          if (limit < this.maxBatchTexts) {
            this.warn(`Vertex AI ${VERTEX_MODEL} takes ${limit} text(s) per request here ("${lastMessage}"); sending at most ${limit} per request from now on`);
            this.maxBatchTexts = limit;
          }
          return "too-large";
        }
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
