// A small pool of warm render workers. Each job runs in a worker thread with a hard deadline:
// when it passes, the worker is terminated (which stops even a synchronous layout loop), the
// caller gets a clear timeout error, and a fresh worker is started and warmed in its place.
// Requests never wait on a runaway diagram: the other workers keep serving.
// A worker that cannot warm up (or crashes while starting) is logged and retried with exponential
// backoff and jitter, a bounded number of times; after that only a caller (or a health check)
// triggers the next attempt, so a busy machine is never kept busy by retries, and an idle pool
// uses no CPU at all (no timers). While no worker can serve, callers are told so at once.
// Load shedding: when QUEUE_MAX jobs wait, or the expected wait passes MAX_WAIT_MS, a caller is
// refused at once with "busy, retry after N s" rather than left waiting. A caller's AbortSignal
// cancels its job: the caller is answered at once; a queued job leaves the queue; a running one
// gets a short grace (CANCEL_GRACE_MS) to finish, after which its worker is terminated (the only
// way to stop a synchronous layout) and replaced. Most renders end well within the grace, and a
// worker restart costs far more than a render, so a cancelled short render must not cost a
// restart. (A render longer than the grace still does; fair use bounds how often one client can.)
// A cancelled render never holds a worker for long.
import { existsSync, readFileSync, statSync } from "node:fs";
import { tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { envNumber } from "../../core/env.js";
import { timedOut, ToolError } from "../../core/errors.js";
import { log as rootLog, type Logger } from "../../core/log.js";
import type { Job, JobError, WarmupTimings, WorkerReply } from "./protocol.js";

const RENDER_TIMEOUT_MS = envNumber("MERMAID_RENDER_TIMEOUT_MS", 10_000, { min: 100 });
const QUEUE_TIMEOUT_MS = envNumber("MERMAID_QUEUE_TIMEOUT_MS", 30_000, { min: 100 });
/** Jobs that may wait for a worker; beyond that callers are refused at once (docs/mermaid.md). */
const QUEUE_MAX = Math.floor(envNumber("MERMAID_QUEUE_MAX", 24, { min: 1 }));
/**
 * The longest a new job is expected to wait for a worker (queue ahead × recent job time ÷ warm
 * workers) before it is refused at once: a caller gets a diagram within ~2.5 s or a prompt "busy,
 * retry after N s", never a long silence. The queue bound alone cannot promise that: how long 24
 * jobs take depends on how busy the machine is.
 */
const MAX_WAIT_MS = envNumber("MERMAID_MAX_WAIT_MS", 1_500, { min: 1 });
/**
 * Old-space cap per worker, from the memory the instance really has (cgroup limit, else the
 * machine's): what is left after the request thread (~300 MB with its libraries) shared by the
 * workers, less 30 % for what a worker holds outside its old space (young generation, code, jsdom
 * and resvg buffers); between 128 and 256 MB. A 1 GiB instance with two workers gets 2 × 256 MB
 * (measured: a worker's heap is ~80 MB warm, ~125 MB live after the corpus, peaks ~260 MB with garbage;
 * a job that needs more is stopped with an out-of-memory 504 and its worker replaced, instead of
 * the container being killed). No more than 256 MB on larger machines either: more only lets garbage
 * pile up before V8 collects it (RSS, not capacity). docs/mermaid.md has the numbers.
 * MERMAID_WORKER_HEAP_MB overrides.
 */
function instanceMemoryMb(): number {
  try {
    const limit = readFileSync("/sys/fs/cgroup/memory.max", "utf8").trim();
    if (/^\d+$/.test(limit)) return Math.min(Number(limit), totalmem()) / 1048576;
  } catch {
    // No cgroup v2 limit visible: the machine's memory is the limit.
  }
  return totalmem() / 1048576;
}
export function defaultHeapMb(workers: number, memoryMb = instanceMemoryMb()): number {
  const perWorker = (memoryMb - 300) / workers / 1.4;
  return Math.max(128, Math.min(256, Math.floor(perWorker / 32) * 32));
}
// One worker per vCPU: the function declares cpu: 1 (index.ts). On one vCPU a second worker adds
// no throughput: it slows the render it shares the CPU with and holds a second heap (bench/load.ts
// compares the two). A runaway diagram is stopped by the render deadline; callers meanwhile get
// "busy, retry after".
const POOL_SIZE = Math.floor(envNumber("MERMAID_WORKERS", 1, { min: 1 }));
const WORKER_HEAP_MB = Math.floor(envNumber("MERMAID_WORKER_HEAP_MB", defaultHeapMb(POOL_SIZE), { min: 64 }));
/**
 * Young generation per worker: 8 MB instead of V8's 32 MB keeps a worker smaller after many
 * renders for a little warm render time (more frequent scavenges; docs/mermaid.md). 32 trades back.
 */
const WORKER_YOUNG_MB = Math.floor(envNumber("MERMAID_WORKER_YOUNG_MB", 8, { min: 1 }));
// A warm-up is a fixed diagram, not a runaway one: on a machine busy with dozens of processes it is
// slow, not stuck, and killing it only to start again from scratch is how retry storms begin.
const WARMUP_TIMEOUT_MS = 180_000;
/** How long a cancelled job that is already running may still finish before its worker is replaced. */
const CANCEL_GRACE_MS = envNumber("MERMAID_CANCEL_GRACE_MS", 1_000, { min: 0 });
/** Recycle a worker after this many jobs, so jsdom/mermaid state never grows without bound. */
const JOBS_PER_WORKER = 2_000;

export const START_FAILED_MESSAGE = "The diagram renderer could not start; try again later";
export const CANCELLED_MESSAGE = "Rendering was cancelled by the client";

/** "busy, retry after N s": refused at once when the queue is full (or a wait ran out). */
export function busyError(retryAfterSeconds: number): ToolError {
  const unit = retryAfterSeconds === 1 ? "second" : "seconds";
  return new ToolError("unavailable", `The diagram renderer is busy: try again in ${retryAfterSeconds} ${unit}`, { retryAfterSeconds });
}

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
  /** Removes the caller's abort listener once the job has settled. */
  release?(): void;
  /** Answered already (cancelled while running): the worker's reply, if any, is dropped. */
  settled?: boolean;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  busy?: { id: number; pending: Pending; timer: NodeJS.Timeout; startedAt: number };
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
  /** Jobs allowed to wait for a worker; more are refused at once (busy, retry after N s). */
  queueMax?: number;
  /** Expected wait beyond which a new job is refused at once (busy, retry after N s). */
  maxWaitMs?: number;
  heapMb?: number;
  /** Young generation per worker (MB). */
  youngMb?: number;
  warmupTimeoutMs?: number;
  /** Time a cancelled running job still gets to finish before its worker is replaced. */
  cancelGraceMs?: number;
  /**
   * Consecutive failed starts, with no worker ready, after which run() fails fast and retries stop
   * until a caller or health() asks again (at most once per maxBackoffMs).
   */
  maxStartFailures?: number;
  /** Delay before the first retry of a failed start; doubles per failure up to maxBackoffMs (±25 % jitter). */
  backoffMs?: number;
  maxBackoffMs?: number;
  log?: Logger;
}

/**
 * From source (.ts: vitest, tsx) the worker is worker.ts through tsx; from functions/lib it is the
 * esbuild bundle `npm run build` makes (scripts/bundle-worker.mjs, lib/platform/mermaid-bundle/: an
 * entry file with jsdom and mermaid's core, a file per diagram module, instead of ~2,500 modules),
 * or worker.js when lib was built by tsc alone.
 */
function workerEntry(): { url: URL; execArgv: string[] } {
  const self = import.meta.url;
  if (self.endsWith(".ts")) return { url: new URL("./worker.ts", self), execArgv: tsxExecArgv() };
  const bundle = new URL("../mermaid-bundle/worker.mjs", self);
  const plain = new URL("./worker.js", self);
  // A bundle older than worker.js is stale (tsc ran alone after a change): the modules are current.
  const fresh = existsSync(bundle) && (!existsSync(plain) || statSync(bundle).mtimeMs >= statSync(plain).mtimeMs);
  return { url: fresh ? bundle : plain, execArgv: [] };
}

/** Running from source (tsx, vitest): a worker needs the same loader to read .ts. */
function tsxExecArgv(): string[] {
  return process.execArgv.some((a) => a.includes("tsx")) ? process.execArgv : [...process.execArgv, "--import", "tsx"];
}

/**
 * Node's on-disk compile cache for the workers, switched on by the variable as each worker thread
 * starts, so it covers the worker's own code (the bundle) too. A replacement worker, the
 * second worker of the pool and (locally) every later process reuse compiled code. Default
 * <tmp>/mermaid-compile-cache: on Cloud Run /tmp is the instance's writable in-memory disk (~15 MB
 * here); an unwritable directory only costs speed. NODE_COMPILE_CACHE picks another.
 */
function compileCacheDir(): string {
  return process.env.NODE_COMPILE_CACHE || join(tmpdir(), "mermaid-compile-cache");
}

export interface RunOptions {
  timeoutMs?: number;
  /** The caller's cancellation (RequestContext.signal): aborting frees the job's worker. */
  signal?: AbortSignal;
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
  private lastStartAt = 0;
  private respawnTimers = new Set<NodeJS.Timeout>();
  /** Recent job duration (ms, moving average): the Retry-After estimate of a busy answer. */
  private jobMs = 300;
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
      queueMax: o.queueMax ?? QUEUE_MAX,
      maxWaitMs: o.maxWaitMs ?? MAX_WAIT_MS,
      heapMb: o.heapMb ?? WORKER_HEAP_MB,
      youngMb: o.youngMb ?? WORKER_YOUNG_MB,
      warmupTimeoutMs: o.warmupTimeoutMs ?? WARMUP_TIMEOUT_MS,
      cancelGraceMs: o.cancelGraceMs ?? CANCEL_GRACE_MS,
      maxStartFailures: o.maxStartFailures ?? 3,
      backoffMs: o.backoffMs ?? 1_000,
      maxBackoffMs: o.maxBackoffMs ?? 30_000,
      log: o.log ?? rootLog.child({ component: "mermaid-render-pool" }),
    };
  }

  /**
   * Starts and warms the workers (once per instance). Resolves when the first is warm, so the
   * instance serves as soon as it can; the others warm after it rather than competing with it
   * for the CPU (a Cloud Run instance may have only one). Also resolves (never rejects) when
   * starting has failed too often: requests are then refused quickly.
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

  /**
   * For /healthz: not ok while no worker can start. Asking counts as demand: after the automatic
   * retries are spent, a health check (like a call) starts the next attempt once the backoff allows.
   */
  health(): { ok: true } | { ok: false; reason: string } {
    if (!this.failing) return { ok: true };
    this.retryOnDemand();
    return { ok: false, reason: `the diagram renderer could not start (${this.startFailures} failed attempts in a row); retrying` };
  }

  /** Workers warm and able to take a job (tests). */
  get readyCount(): number {
    return this.slots.filter((s) => s.ready).length;
  }

  /** What the latest worker's start cost (ms since its thread started; the bench prints it). */
  lastWarmup?: WarmupTimings;

  /** Jobs waiting for a worker (tests). */
  get queued(): number {
    return this.queue.length;
  }

  /** Thread ids of the live workers (tests). */
  get threadIds(): number[] {
    return this.slots.map((s) => s.worker.threadId);
  }

  private spawn(): void {
    if (this.closed) return;
    this.lastStartAt = Date.now();
    const worker = new Worker(this.opts.workerUrl!, {
      execArgv: this.opts.execArgv,
      env: { ...process.env, NODE_COMPILE_CACHE: compileCacheDir() },
      workerData: this.opts.workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.opts.heapMb, maxYoungGenerationSizeMb: this.opts.youngMb },
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
      resolve: (timings) => this.onWarm(slot, timings as WarmupTimings),
      reject: (err) => this.onStartFailed(slot, err),
    });
  }

  private onWarm(slot: Slot, timings?: WarmupTimings): void {
    slot.ready = true;
    this.lastWarmup = timings;
    this.opts.log.info("mermaid render worker ready", { threadId: slot.worker.threadId, entry: this.opts.workerUrl!.pathname.split("/").slice(-2).join("/"), ms: timings });
    this.startFailures = 0;
    this.firstReady?.();
    this.firstReady = undefined;
    // The rest of the pool once one serves (also after a failed start recovered). Workers that
    // are starting or waiting for a retry count: a replacement is always one for one.
    for (let n = this.slots.length + this.respawnTimers.size; n < this.size; n++) this.spawn();
    this.drain();
  }

  private backoff(): number {
    const base = Math.min(this.opts.backoffMs * 2 ** Math.max(0, this.startFailures - 1), this.opts.maxBackoffMs);
    // Jitter: processes that failed together (a burst on one machine) do not retry together.
    return Math.round(base * (0.75 + Math.random() * 0.5));
  }

  private onStartFailed(slot: Slot, err: unknown): void {
    this.startFailures++;
    const detail = err instanceof JobRejected ? err.detail : err;
    this.opts.log.error("mermaid render worker failed to start", { err: detail, failures: this.startFailures, threadId: slot.worker.threadId });
    this.retire(slot);
    if (this.failing) {
      // Nobody is coming soon: tell the waiting callers now rather than after the queue timeout.
      for (const p of this.queue.splice(0)) this.settle(p, () => p.reject(this.startFailedError()));
      this.firstReady?.();
      this.firstReady = undefined;
      // Automatic retries are spent: the next attempt is made when someone asks (retryOnDemand),
      // so an idle or overloaded instance is not kept busy starting workers nobody waits for.
      return;
    }
    const timer = setTimeout(() => {
      this.respawnTimers.delete(timer);
      this.spawn();
    }, this.backoff());
    timer.unref();
    this.respawnTimers.add(timer);
  }

  /** One more start attempt after the automatic ones failed, at most once per maxBackoffMs. */
  private retryOnDemand(): void {
    if (this.closed || this.slots.length || this.respawnTimers.size) return;
    if (Date.now() - this.lastStartAt < this.opts.maxBackoffMs) return;
    this.opts.log.info("mermaid render pool: retrying start on demand", { failures: this.startFailures });
    this.spawn();
  }

  private startFailedError(): ToolError {
    const wait = Math.max(1, Math.ceil((this.lastStartAt + this.opts.maxBackoffMs - Date.now()) / 1000));
    return new ToolError("unavailable", START_FAILED_MESSAGE, { retryAfterSeconds: Math.min(wait, Math.ceil(this.opts.maxBackoffMs / 1000)) });
  }

  private dispatch(slot: Slot, pending: Pending): void {
    if (pending.queueTimer) clearTimeout(pending.queueTimer);
    const id = this.nextId++;
    const timer = setTimeout(() => this.onTimeout(slot), pending.timeoutMs);
    slot.busy = { id, pending, timer, startedAt: performance.now() };
    slot.jobs++;
    slot.worker.postMessage({ id, job: pending.job });
  }

  /** Ends a pending job exactly once: its timers and abort listener go with it. */
  private settle(pending: Pending, finish: () => void): void {
    if (pending.settled) return;
    pending.settled = true;
    if (pending.queueTimer) clearTimeout(pending.queueTimer);
    pending.release?.();
    finish();
  }

  private onReply(slot: Slot, reply: WorkerReply): void {
    const busy = slot.busy;
    if (!busy || busy.id !== reply.id || !this.slots.includes(slot)) return;
    clearTimeout(busy.timer);
    slot.busy = undefined;
    if (slot.ready) this.jobMs = this.jobMs * 0.8 + (performance.now() - busy.startedAt) * 0.2;
    this.settle(busy.pending, () => (reply.ok ? busy.pending.resolve(reply.result) : busy.pending.reject(new JobRejected(reply.error))));
    if (!slot.ready) return; // a failed warm-up: onStartFailed has retired the slot
    if (slot.jobs >= JOBS_PER_WORKER) this.replace(slot);
    else this.drain();
  }

  private onTimeout(slot: Slot): void {
    if (!this.slots.includes(slot)) return; // retired meanwhile: its replacement is already there
    const busy = slot.busy;
    slot.busy = undefined;
    if (!slot.ready) {
      if (busy) this.settle(busy.pending, () => busy.pending.reject(new Error(`warm-up did not finish within ${this.opts.warmupTimeoutMs} ms`)));
      return;
    }
    const seconds = Math.round((busy?.pending.timeoutMs ?? this.opts.renderTimeoutMs) / 1000);
    if (busy?.pending.settled) {
      this.opts.log.info("mermaid render cancelled and still running after the grace; its worker is replaced", { threadId: slot.worker.threadId });
    } else if (busy) {
      this.settle(busy.pending, () =>
        busy.pending.reject(
          timedOut(
            `Rendering did not finish within ${seconds} seconds and was stopped: the diagram is too large or uses a construct the renderer cannot lay out (e.g. a state that contains itself). Simplify it or split it`,
          ),
        ),
      );
    }
    this.replace(slot);
  }

  private onExit(slot: Slot, err?: Error, code?: number): void {
    if (!this.slots.includes(slot)) return;
    const busy = slot.busy;
    slot.busy = undefined;
    if (busy) {
      clearTimeout(busy.timer);
      const oom = err && /memory|ERR_WORKER_OUT_OF_MEMORY/i.test(`${err.message} ${(err as { code?: string }).code ?? ""}`);
      this.settle(busy.pending, () =>
        busy.pending.reject(
          oom
            ? timedOut("Rendering ran out of memory and was stopped: the diagram is too large. Simplify it or split it")
            : new JobRejected({ kind: "internal", message: err?.message ?? `render worker exited (code ${code ?? "?"})`, stack: err?.stack }),
        ),
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

  /** A worker that served and must go (deadline passed, crashed, cancelled, recycled): a fresh one at once. */
  private replace(slot: Slot): void {
    this.retire(slot);
    // One for one, never more: starting and waiting workers count.
    if (this.slots.length + this.respawnTimers.size < this.size) this.spawn();
  }

  private drain(): void {
    for (const slot of this.slots) {
      if (!this.queue.length) return;
      if (slot.ready && !slot.busy) this.dispatch(slot, this.queue.shift()!);
    }
  }

  /** Seconds until a new job would likely get a worker: the Retry-After of a busy answer. */
  private retryAfterSeconds(): number {
    const ahead = this.queue.length + this.slots.filter((s) => s.busy).length;
    return Math.min(30, Math.max(1, Math.ceil((ahead * this.jobMs) / this.size / 1000)));
  }

  /**
   * How long a job arriving now would likely wait for a worker. Unknown (0) while no worker is
   * warm: a cold instance's first callers wait for the start, which is bounded on its own.
   */
  private expectedWaitMs(): number {
    const ready = this.slots.filter((s) => s.ready);
    if (!ready.length || ready.some((s) => !s.busy)) return 0;
    return Math.ceil((this.queue.length + 1) / ready.length) * this.jobMs;
  }

  /**
   * Why a job submitted now would be refused at once (the renderer cannot start, or is busy), or
   * undefined. Callers may ask first to skip work a refusal makes moot (the fair-use count).
   */
  refusal(): ToolError | undefined {
    void this.start();
    if (this.failing) {
      this.retryOnDemand();
      return this.startFailedError();
    }
    if (this.queue.length >= this.opts.queueMax || this.expectedWaitMs() > this.opts.maxWaitMs) return busyError(this.retryAfterSeconds());
    return undefined;
  }

  /**
   * Runs one job on a warm worker; rejects with a ToolError on timeout, overload (busy, with a
   * retry-after), start failure or cancellation.
   */
  run<T>(job: Job, options: RunOptions | number = {}): Promise<T> {
    const { timeoutMs = this.opts.renderTimeoutMs, signal } = typeof options === "number" ? { timeoutMs: options } : options;
    if (signal?.aborted) return Promise.reject(new ToolError("unavailable", CANCELLED_MESSAGE));
    const refusal = this.refusal();
    if (refusal) return Promise.reject(refusal);
    return new Promise<T>((resolve, reject) => {
      const pending: Pending = { job, timeoutMs, resolve: resolve as (v: unknown) => void, reject };
      const expire = () => {
        // While the first worker is still warming up (a cold instance on a busy machine), waiting
        // is the answer: the start itself is bounded, and fails every waiting caller at once.
        if (!this.slots.some((s) => s.ready) && !this.failing && this.slots.length) {
          pending.queueTimer = setTimeout(expire, this.opts.queueTimeoutMs);
          return;
        }
        this.queue = this.queue.filter((p) => p !== pending);
        this.settle(pending, () => reject(busyError(this.retryAfterSeconds())));
      };
      pending.queueTimer = setTimeout(expire, this.opts.queueTimeoutMs);
      if (signal) {
        const onAbort = () => this.cancel(pending);
        signal.addEventListener("abort", onAbort, { once: true });
        pending.release = () => signal.removeEventListener("abort", onAbort);
      }
      this.queue.push(pending);
      this.drain();
    });
  }

  /**
   * The caller gave up: answered now. A queued job leaves the queue; a running one may finish
   * within the grace (its result is dropped), else its worker is terminated and replaced.
   */
  private cancel(pending: Pending): void {
    const cancelled = () => pending.reject(new ToolError("unavailable", CANCELLED_MESSAGE));
    if (this.queue.includes(pending)) {
      this.queue = this.queue.filter((p) => p !== pending);
      this.settle(pending, cancelled);
      return;
    }
    const slot = this.slots.find((s) => s.busy?.pending === pending);
    this.settle(pending, cancelled);
    if (!slot?.busy) return;
    const left = slot.busy.startedAt + pending.timeoutMs - performance.now();
    clearTimeout(slot.busy.timer);
    slot.busy.timer = setTimeout(() => this.onTimeout(slot), Math.max(0, Math.min(left, this.opts.cancelGraceMs)));
  }

  /** Stops every worker (tests, benchmarks). */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.respawnTimers) clearTimeout(t);
    this.respawnTimers.clear();
    for (const p of this.queue.splice(0)) {
      if (p.queueTimer) clearTimeout(p.queueTimer);
      p.release?.();
    }
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
