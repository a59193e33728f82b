// A small pool of warm render workers. Each job runs in a worker thread with a hard deadline:
// when it passes, the worker is terminated (which stops even a synchronous layout loop), the
// caller gets a clear timeout error, and a fresh worker is started and warmed in its place.
// Requests never wait on a runaway diagram: the other workers keep serving.
// A worker that cannot warm up (or crashes while starting) is logged and retried with exponential
// backoff, never in a tight loop; once several starts in a row have failed and no worker is
// ready, callers are told at once that the renderer is unavailable instead of waiting in a queue.
import { Worker } from "node:worker_threads";
import { envNumber } from "../../../mcp/env.js";
import { timedOut, unavailable } from "../../../mcp/errors.js";
import { log as rootLog, type Logger } from "../../../mcp/log.js";
import type { Job, JobError, WorkerReply } from "./protocol.js";

const RENDER_TIMEOUT_MS = envNumber("MERMAID_RENDER_TIMEOUT_MS", 10_000, { min: 100 });
const QUEUE_TIMEOUT_MS = envNumber("MERMAID_QUEUE_TIMEOUT_MS", 30_000, { min: 100 });
// Two workers: one runaway diagram never blocks everyone. Under the emulator one: it runs a
// process per concurrent request, and each would otherwise warm (and hold) its own two.
const POOL_SIZE = Math.floor(envNumber("MERMAID_WORKERS", process.env.FUNCTIONS_EMULATOR === "true" ? 1 : 2, { min: 1 }));
const WARMUP_TIMEOUT_MS = 60_000;
/** Recycle a worker after this many jobs, so jsdom/mermaid state never grows without bound. */
const JOBS_PER_WORKER = 2_000;

export const START_FAILED_MESSAGE = "The diagram renderer could not start; try again later";

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
  queueTimer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy?: { id: number; pending: Pending; timer: NodeJS.Timeout };
  jobs: number;
}

export interface PoolOptions {
  size?: number;
  /** Worker entry (tests use a stand-in); default: worker.ts/worker.js next to this file. */
  workerUrl?: URL;
  execArgv?: string[];
  /** Passed to the worker as workerData (tests only). */
  workerData?: unknown;
  renderTimeoutMs?: number;
  queueTimeoutMs?: number;
  warmupTimeoutMs?: number;
  /** Consecutive failed starts, with no worker ready, after which run() fails fast. */
  maxStartFailures?: number;
  /** Delay before the first retry of a failed start; doubles per failure up to maxBackoffMs. */
  backoffMs?: number;
  maxBackoffMs?: number;
  log?: Logger;
}

function workerEntry(): { url: URL; execArgv: string[] } {
  const self = import.meta.url;
  if (self.endsWith(".ts")) return { url: new URL("./worker.ts", self), execArgv: tsxExecArgv() };
  return { url: new URL("./worker.js", self), execArgv: [] };
}

/** Running from source (tsx, vitest): a worker needs the same loader to read .ts. */
function tsxExecArgv(): string[] {
  return process.execArgv.some((a) => a.includes("tsx")) ? process.execArgv : [...process.execArgv, "--import", "tsx"];
}

export class RenderPool {
  private slots: Slot[] = [];
  private queue: Pending[] = [];
  private nextId = 1;
  private started?: Promise<void>;
  private firstReady?: () => void;
  private closed = false;
  /** Starts that failed in a row (reset by any worker becoming ready). */
  private startFailures = 0;
  private respawnTimers = new Set<NodeJS.Timeout>();
  private readonly size: number;
  private readonly opts: Required<Omit<PoolOptions, "workerUrl" | "workerData" | "size">> & Pick<PoolOptions, "workerUrl" | "workerData">;

  constructor(options: PoolOptions | number = {}) {
    const o = typeof options === "number" ? { size: options } : options;
    this.size = Math.max(1, o.size ?? POOL_SIZE);
    const entry = o.workerUrl ? { url: o.workerUrl, execArgv: o.execArgv ?? [] } : workerEntry();
    this.opts = {
      workerUrl: entry.url,
      execArgv: o.execArgv ?? entry.execArgv,
      workerData: o.workerData,
      renderTimeoutMs: o.renderTimeoutMs ?? RENDER_TIMEOUT_MS,
      queueTimeoutMs: o.queueTimeoutMs ?? QUEUE_TIMEOUT_MS,
      warmupTimeoutMs: o.warmupTimeoutMs ?? WARMUP_TIMEOUT_MS,
      maxStartFailures: o.maxStartFailures ?? 3,
      backoffMs: o.backoffMs ?? 100,
      maxBackoffMs: o.maxBackoffMs ?? 10_000,
      log: o.log ?? rootLog.child({ component: "mermaid-render-pool" }),
    };
  }

  /**
   * Starts and warms the workers (once per instance). Resolves when the first is warm, so the
   * instance serves as soon as it can; the others warm after it rather than competing with it
   * for the CPU (a Cloud Run instance may have only one). Also resolves (never rejects) when
   * starting has failed too often: requests are then refused quickly while retries continue.
   */
  start(): Promise<void> {
    this.started ??= new Promise<void>((resolve) => {
      this.firstReady = resolve;
      this.spawn();
    });
    return this.started;
  }

  /** True when starting workers has failed repeatedly and none is ready to serve. */
  get failing(): boolean {
    return this.startFailures >= this.opts.maxStartFailures && !this.slots.some((s) => s.ready);
  }

  /** Workers warm and able to take a job (tests). */
  get readyCount(): number {
    return this.slots.filter((s) => s.ready).length;
  }

  /** Thread ids of the live workers (tests). */
  get threadIds(): number[] {
    return this.slots.map((s) => s.worker.threadId);
  }

  private spawn(): void {
    if (this.closed) return;
    const worker = new Worker(this.opts.workerUrl!, {
      execArgv: this.opts.execArgv,
      workerData: this.opts.workerData,
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    });
    worker.unref();
    const slot: Slot = { worker, ready: false, jobs: 0 };
    this.slots.push(slot);
    worker.on("message", (reply: WorkerReply) => this.onReply(slot, reply));
    worker.on("error", (err) => this.onExit(slot, err));
    worker.on("exit", (code) => this.onExit(slot, undefined, code));
    // The first job of every worker is its warm-up, through the same path as real work.
    this.dispatch(slot, {
      job: { op: "warmup" },
      timeoutMs: this.opts.warmupTimeoutMs,
      resolve: () => this.onWarm(slot),
      reject: (err) => this.onStartFailed(slot, err),
    });
  }

  private onWarm(slot: Slot): void {
    slot.ready = true;
    this.startFailures = 0;
    this.firstReady?.();
    this.firstReady = undefined;
    // The rest of the pool once one serves (also after a failed start recovered). Workers that
    // are starting or waiting for a retry count: a replacement is always one for one.
    for (let n = this.slots.length + this.respawnTimers.size; n < this.size; n++) this.spawn();
    this.drain();
  }

  private onStartFailed(slot: Slot, err: unknown): void {
    this.startFailures++;
    const detail = err instanceof JobRejected ? err.detail : err;
    this.opts.log.error("mermaid render worker failed to start", { err: detail, failures: this.startFailures, threadId: slot.worker.threadId });
    this.retire(slot);
    if (this.failing) {
      // Nobody is coming soon: tell the waiting callers now rather than after the queue timeout.
      for (const p of this.queue.splice(0)) {
        if (p.queueTimer) clearTimeout(p.queueTimer);
        p.reject(unavailable(START_FAILED_MESSAGE));
      }
      this.firstReady?.();
      this.firstReady = undefined;
    }
    const delay = Math.min(this.opts.backoffMs * 2 ** (this.startFailures - 1), this.opts.maxBackoffMs);
    const timer = setTimeout(() => {
      this.respawnTimers.delete(timer);
      this.spawn();
    }, delay);
    timer.unref();
    this.respawnTimers.add(timer);
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
    if (!slot.ready) return; // a failed warm-up: onStartFailed has retired the slot
    if (slot.jobs >= JOBS_PER_WORKER) this.replace(slot);
    else this.drain();
  }

  private onTimeout(slot: Slot): void {
    const busy = slot.busy;
    slot.busy = undefined;
    if (!slot.ready) {
      busy?.pending.reject(new Error(`warm-up did not finish within ${this.opts.warmupTimeoutMs} ms`));
      return;
    }
    const seconds = Math.round((busy?.pending.timeoutMs ?? this.opts.renderTimeoutMs) / 1000);
    busy?.pending.reject(
      timedOut(
        `Rendering did not finish within ${seconds} seconds and was stopped: the diagram is too large or uses a construct the renderer cannot lay out (e.g. a state that contains itself). Simplify it or split it`,
      ),
    );
    this.replace(slot);
  }

  private onExit(slot: Slot, err?: Error, code?: number): void {
    if (!this.slots.includes(slot)) return;
    const busy = slot.busy;
    slot.busy = undefined;
    if (busy) {
      clearTimeout(busy.timer);
      const oom = err && /memory|ERR_WORKER_OUT_OF_MEMORY/i.test(`${err.message} ${(err as { code?: string }).code ?? ""}`);
      busy.pending.reject(
        oom
          ? timedOut("Rendering ran out of memory and was stopped: the diagram is too large. Simplify it or split it")
          : new JobRejected({ kind: "internal", message: err?.message ?? `render worker exited (code ${code ?? "?"})`, stack: err?.stack }),
      );
      // A warm-up's reject already retired the slot and scheduled the retry.
      if (!slot.ready) return;
    } else if (!slot.ready) {
      this.onStartFailed(slot, err ?? new Error(`render worker exited while starting (code ${code ?? "?"})`));
      return;
    }
    this.opts.log.warn("mermaid render worker exited", { err, code, threadId: slot.worker.threadId });
    this.replace(slot);
  }

  /** Takes a slot out of the pool and stops its worker. */
  private retire(slot: Slot): void {
    this.slots = this.slots.filter((s) => s !== slot);
    if (slot.busy) clearTimeout(slot.busy.timer);
    slot.worker.removeAllListeners();
    slot.worker.on("error", () => undefined);
    const threadId = slot.worker.threadId;
    void slot.worker.terminate().then(
      (code) => this.opts.log.debug("mermaid render worker stopped", { threadId, code }),
      () => undefined,
    );
  }

  /** A worker that served and must go (deadline passed, crashed, recycled): a fresh one at once. */
  private replace(slot: Slot): void {
    this.retire(slot);
    this.spawn();
  }

  private drain(): void {
    for (const slot of this.slots) {
      if (!this.queue.length) return;
      if (slot.ready && !slot.busy) this.dispatch(slot, this.queue.shift()!);
    }
  }

  /** Runs one job on a warm worker; rejects with a ToolError on timeout, overload or start failure. */
  run<T>(job: Job, timeoutMs = this.opts.renderTimeoutMs): Promise<T> {
    void this.start();
    if (this.failing) return Promise.reject(unavailable(START_FAILED_MESSAGE));
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { job, timeoutMs, resolve: resolve as (v: unknown) => void, reject };
      pending.queueTimer = setTimeout(() => {
        this.queue = this.queue.filter((p) => p !== pending);
        reject(unavailable("The diagram renderer is busy: try again in a few seconds"));
      }, this.opts.queueTimeoutMs);
      this.queue.push(pending);
      this.drain();
    });
  }

  /** Stops every worker (tests, benchmarks). */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.respawnTimers) clearTimeout(t);
    this.respawnTimers.clear();
    for (const p of this.queue.splice(0)) if (p.queueTimer) clearTimeout(p.queueTimer);
    const slots = this.slots;
    this.slots = [];
    await Promise.all(
      slots.map((s) => {
        if (s.busy) clearTimeout(s.busy.timer);
        s.worker.removeAllListeners();
        return s.worker.terminate();
      }),
    );
  }
}

let shared: RenderPool | undefined;
export const renderPool = (): RenderPool => (shared ??= new RenderPool());
