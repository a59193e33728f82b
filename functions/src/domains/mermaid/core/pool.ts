// A small pool of warm render workers. Each job runs in a worker thread with a hard deadline:
// when it passes, the worker is terminated (which stops even a synchronous layout loop), the
// caller gets a clear "too complex" error, and a fresh worker is started and warmed in its place.
// Requests never wait on a runaway diagram: the other workers keep serving.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { timedOut, unavailable } from "../../../mcp/errors.js";
import type { Job, JobError, WorkerReply } from "./protocol.js";

export const RENDER_TIMEOUT_MS = Number(process.env.MERMAID_RENDER_TIMEOUT_MS ?? 10_000);
const QUEUE_TIMEOUT_MS = Number(process.env.MERMAID_QUEUE_TIMEOUT_MS ?? 30_000);
const POOL_SIZE = Math.max(1, Number(process.env.MERMAID_WORKERS ?? Math.min(2, Math.max(2, availableParallelism()))));
const WARMUP_TIMEOUT_MS = 60_000;
/** Recycle a worker after this many jobs, so jsdom/mermaid state never grows without bound. */
const JOBS_PER_WORKER = 2_000;

export class JobRejected extends Error {
  constructor(readonly detail: JobError) {
    super(detail.message);
  }
}

interface Pending {
  job: Job;
  timeoutMs: number;
  resolve(value: unknown): void;
  reject(err: unknown): void;
  queuedAt: number;
  queueTimer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy?: { id: number; pending: Pending; timer: NodeJS.Timeout };
  jobs: number;
}

function workerEntry(): { url: URL; execArgv: string[] } {
  const self = import.meta.url;
  if (self.endsWith(".ts")) {
    // Running from source (tsx): the worker needs the same loader.
    const execArgv = process.execArgv.some((a) => a.includes("tsx")) ? process.execArgv : [...process.execArgv, "--import", "tsx"];
    return { url: new URL("./worker.ts", self), execArgv };
  }
  return { url: new URL("./worker.js", self), execArgv: [] };
}

export class RenderPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextId = 1;
  private started?: Promise<void>;

  constructor(private readonly size = POOL_SIZE) {}

  /**
   * Starts and warms the workers (once per instance). Resolves when the first is warm, so the
   * instance serves as soon as it can; the others warm after it rather than competing with it
   * for the CPU (a Cloud Run instance may have only one).
   */
  start(): Promise<void> {
    this.started ??= this.spawn().then(() => {
      for (let i = 1; i < this.size; i++) void this.spawn();
    });
    return this.started;
  }

  private spawn(): Promise<void> {
    const { url, execArgv } = workerEntry();
    const worker = new Worker(url, { execArgv, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    worker.unref();
    const slot: Slot = { worker, ready: false, jobs: 0 };
    this.slots.push(slot);
    worker.on("message", (reply: WorkerReply) => this.onReply(slot, reply));
    worker.on("error", (err) => this.onExit(slot, err));
    worker.on("exit", () => this.onExit(slot));
    // The first job of every worker is its warm-up, through the same path as real work.
    return new Promise<void>((resolve) => {
      const pending: Pending = {
        job: { op: "warmup" },
        timeoutMs: WARMUP_TIMEOUT_MS,
        queuedAt: Date.now(),
        resolve: () => {
          slot.ready = true;
          resolve();
          this.drain();
        },
        reject: () => resolve(),
      };
      this.dispatch(slot, pending);
    });
  }

  private dispatch(slot: Slot, pending: Pending): void {
    if (pending.queueTimer) clearTimeout(pending.queueTimer);
    const id = this.nextId++;
    const timer = setTimeout(() => this.onTimeout(slot), pending.timeoutMs);
    slot.busy = { id, pending, timer };
    slot.jobs++;
    slot.worker.postMessage({ id, job: pending.job });
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    const busy = slot.busy;
    if (!busy || busy.id !== reply.id) return;
    clearTimeout(busy.timer);
    slot.busy = undefined;
    if (reply.ok) busy.pending.resolve(reply.result);
    else busy.pending.reject(new JobRejected(reply.error));
    if (slot.jobs >= JOBS_PER_WORKER) this.replace(slot);
    else this.drain();
  }

  private onTimeout(slot: Slot): void {
    const busy = slot.busy;
    slot.busy = undefined;
    const seconds = Math.round(busy ? busy.pending.timeoutMs / 1000 : RENDER_TIMEOUT_MS / 1000);
    busy?.pending.reject(
      timedOut(
        `Diagram too complex: rendering did not finish within ${seconds} seconds and was stopped. Simplify the diagram (fewer nodes, edges or messages, shorter labels) or split it into several smaller diagrams`,
      ),
    );
    this.replace(slot);
  }

  private onExit(slot: Slot, err?: Error): void {
    if (!this.slots.includes(slot)) return;
    const busy = slot.busy;
    slot.busy = undefined;
    if (busy) {
      clearTimeout(busy.timer);
      const oom = err && /memory|ERR_WORKER_OUT_OF_MEMORY/i.test(`${err.message} ${(err as { code?: string }).code ?? ""}`);
      busy.pending.reject(
        oom
          ? timedOut("Diagram too complex: rendering ran out of memory and was stopped. Simplify the diagram or split it into several smaller diagrams")
          : new JobRejected({ kind: "internal", message: err?.message ?? "render worker exited" }),
      );
    }
    this.replace(slot);
  }

  private replace(slot: Slot): void {
    this.slots = this.slots.filter((s) => s !== slot);
    slot.worker.removeAllListeners();
    slot.worker.on("error", () => undefined);
    void slot.worker.terminate().catch(() => undefined);
    void this.spawn();
  }

  private drain(): void {
    for (const slot of this.slots) {
      if (!this.queue.length) return;
      if (slot.ready && !slot.busy) this.dispatch(slot, this.queue.shift()!);
    }
  }

  /** Runs one job on a warm worker; rejects with a ToolError on timeout or overload. */
  run<T>(job: Job, timeoutMs = RENDER_TIMEOUT_MS): Promise<T> {
    void this.start();
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { job, timeoutMs, resolve: resolve as (v: unknown) => void, reject, queuedAt: Date.now() };
      pending.queueTimer = setTimeout(() => {
        this.queue = this.queue.filter((p) => p !== pending);
        reject(unavailable("The diagram renderer is busy: try again in a few seconds"));
      }, QUEUE_TIMEOUT_MS);
      this.queue.push(pending);
      this.drain();
    });
  }

  /** Stops every worker (tests, benchmarks). */
  async close(): Promise<void> {
    const slots = this.slots;
    this.slots = [];
    await Promise.all(slots.map((s) => (s.worker.removeAllListeners(), s.worker.terminate())));
  }
}

let shared: RenderPool | undefined;
export const renderPool = (): RenderPool => (shared ??= new RenderPool());
