// The render pool on its own (no emulator, no mermaid: a stand-in worker speaking the protocol).
// A runaway job is stopped by terminating its thread while the other worker keeps serving; a
// worker that cannot start is retried with backoff and callers are refused quickly, not queued.
// Timeouts here are upper bounds for the test runner only: the assertions are about order and state.
import { afterEach, expect, test } from "vitest";
import { CANCELLED_MESSAGE, RenderPool, START_FAILED_MESSAGE } from "../../functions/src/platform/mermaid/pool.js";
import type { Logger } from "../../functions/src/core/log.js";
import { ToolError } from "../../functions/src/core/errors.js";

const FAKE_WORKER = new URL("./fixtures/fake-worker.mjs", import.meta.url);

interface Entry {
  level: string;
  message: string;
  fields: Record<string, unknown>;
}

function recordingLog(entries: Entry[]): Logger {
  const at =
    (level: string) =>
    (message: string, fields: Record<string, unknown> = {}) =>
      void entries.push({ level, message, fields });
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error"), child: () => logger };
  return logger;
}

async function until(check: () => boolean, what: string, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`gave up waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const pools: RenderPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

function pool(options: ConstructorParameters<typeof RenderPool>[0] & object, log: Entry[]): RenderPool {
  const p = new RenderPool({ workerUrl: FAKE_WORKER, execArgv: [], log: recordingLog(log), ...options });
  pools.push(p);
  return p;
}

test("a runaway job: the other worker serves first, the stuck thread is terminated and replaced", async () => {
  const log: Entry[] = [];
  const p = pool({ size: 2, renderTimeoutMs: 1_000 }, log);
  await p.start();
  await until(() => p.readyCount === 2, "both workers warm");
  const before = p.threadIds;

  let slowSettled = false;
  const slow = p.run({ op: "verify", code: "hang" });
  slow.catch(() => undefined).finally(() => (slowSettled = true));
  const normal = await p.run<{ threadId: number }>({ op: "verify", code: "graph TD\nA-->B" });

  // Served while the runaway job was still running, by the other worker.
  expect(slowSettled).toBe(false);
  const stuck = before.find((id) => id !== normal.threadId)!;
  expect(before).toContain(normal.threadId);
  expect(stuck).toBeDefined();

  const err = await slow.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  expect((err as ToolError).kind).toBe("timeout");
  expect((err as ToolError).message).toMatch(/^Rendering did not finish within 1 seconds and was stopped: .*a state that contains itself.*Simplify it or split it$/);

  // The stuck thread really stopped (its exit was observed), and it is no longer in the pool.
  await until(() => log.some((e) => e.message === "mermaid render worker stopped" && e.fields.threadId === stuck), "the stuck worker's exit");
  expect(p.threadIds).not.toContain(stuck);

  // A fresh worker took its place and serves.
  await until(() => p.readyCount === 2, "the replacement warm");
  const fresh = p.threadIds.find((id) => !before.includes(id));
  expect(fresh).toBeDefined();
  const served = new Set<number>();
  const replies = await Promise.all([1, 2].map(() => p.run<{ threadId: number }>({ op: "verify", code: "x" })));
  for (const r of replies) served.add(r.threadId);
  expect(served).toEqual(new Set(p.threadIds));
  expect(served.has(stuck)).toBe(false);
}, 30_000);

test.each([
  ["fails its warm-up", { failWarmup: true }],
  ["crashes while loading", { crashOnStart: true }],
])("a worker that %s: logged, retried with backoff, then callers are refused at once", async (_name, workerData) => {
  const log: Entry[] = [];
  // A queue timeout far beyond the test's own: only the start failure can answer the caller.
  const p = pool({ size: 1, workerData, backoffMs: 20, maxBackoffMs: 200, maxStartFailures: 3, queueTimeoutMs: 600_000 }, log);
  const waiting = p.run({ op: "verify", code: "graph TD\nA-->B" });
  await expect(waiting).rejects.toMatchObject({ kind: "unavailable", message: START_FAILED_MESSAGE });
  const failures = log.filter((e) => e.level === "error" && e.message === "mermaid render worker failed to start");
  expect(failures.map((e) => e.fields.failures)).toEqual([1, 2, 3]);
  expect(p.failing).toBe(true);
  expect(p.readyCount).toBe(0);

  // Later callers do not queue at all: refused before any worker could have been asked.
  const before = log.length;
  await expect(p.run({ op: "verify", code: "x" })).rejects.toMatchObject({ kind: "unavailable", message: START_FAILED_MESSAGE });
  expect(log.slice(before).filter((e) => e.message === "mermaid render worker failed to start").length).toBeLessThanOrEqual(1);
  // start() settles too (the instance does not hang in warm-up).
  await p.start();
}, 30_000);

test("a start that failed once recovers: the next attempt serves", async () => {
  const log: Entry[] = [];
  // The first worker fails its warm-up; the retry uses the same entry, so flip the fixture's
  // behaviour by giving the pool a normal worker after the first failure.
  const p = pool({ size: 1, workerData: { failWarmup: true }, backoffMs: 20, maxStartFailures: 3 }, log);
  void p.start();
  await until(() => log.some((e) => e.level === "error"), "the first failure");
  (p as unknown as { opts: { workerData: unknown } }).opts.workerData = {};
  const reply = await p.run<{ threadId: number }>({ op: "verify", code: "x" });
  expect(reply.threadId).toBeGreaterThan(0);
  expect(p.failing).toBe(false);
}, 30_000);

test("a cancelled render frees its worker: the stuck thread is replaced and the next job is served", async () => {
  const log: Entry[] = [];
  // No render deadline that could free the worker instead: only the cancellation can.
  const p = pool({ size: 1, renderTimeoutMs: 600_000 }, log);
  await p.start();
  const [stuck] = p.threadIds;
  const controller = new AbortController();
  const hung = p.run({ op: "verify", code: "hang" }, { signal: controller.signal });
  // Queued behind the hung job: it can only be served once the worker is freed.
  const next = p.run<{ threadId: number }>({ op: "verify", code: "x" });
  expect(p.queued).toBe(1);
  controller.abort();
  await expect(hung).rejects.toMatchObject({ kind: "unavailable", message: CANCELLED_MESSAGE });
  const served = await next;
  expect(served.threadId).not.toBe(stuck);
  expect(p.threadIds).not.toContain(stuck);
  await until(() => log.some((e) => e.message === "mermaid render worker stopped" && e.fields.threadId === stuck), "the cancelled worker's exit");
}, 30_000);

test("a cancelled render that finishes within the grace keeps its worker: no restart", async () => {
  const log: Entry[] = [];
  const p = pool({ size: 1, renderTimeoutMs: 600_000, cancelGraceMs: 20_000 }, log);
  await p.start();
  const [worker] = p.threadIds;
  const controller = new AbortController();
  const running = p.run({ op: "verify", code: "busy:300" }, { signal: controller.signal });
  expect(p.queued).toBe(0); // dispatched: the worker is computing it
  controller.abort();
  // The caller is answered at once, not when the render ends.
  await expect(running).rejects.toMatchObject({ kind: "unavailable", message: CANCELLED_MESSAGE });
  const next = await p.run<{ threadId: number }>({ op: "verify", code: "x" });
  expect(next.threadId).toBe(worker);
  expect(p.threadIds).toEqual([worker]);
  expect(log.filter((e) => e.message === "mermaid render worker stopped")).toEqual([]);
}, 30_000);

test("cancelled renders never leave extra workers behind once their deadlines pass", async () => {
  const log: Entry[] = [];
  const renderTimeoutMs = 400;
  const p = pool({ size: 1, renderTimeoutMs, cancelGraceMs: 0 }, log);
  await p.start();
  for (let i = 0; i < 3; i++) {
    const [current] = p.threadIds;
    const controller = new AbortController();
    const hung = p.run({ op: "verify", code: "hang" }, { signal: controller.signal });
    expect(p.queued).toBe(0); // running on the warm worker
    controller.abort();
    await expect(hung).rejects.toMatchObject({ message: CANCELLED_MESSAGE });
    await until(() => !p.threadIds.includes(current!) && p.readyCount === 1, "the stuck worker replaced and the replacement warm");
  }
  // Timers fire in order of expiry: once this one has, every cancelled job's deadline has passed.
  await new Promise((r) => setTimeout(r, renderTimeoutMs + 50));
  expect(p.threadIds).toHaveLength(1);
  await until(() => p.readyCount === 1, "the last replacement warm");
  // The first worker and one replacement per cancel: 4 started in all, never more.
  expect(log.filter((e) => e.message === "mermaid render worker ready")).toHaveLength(4);
  const reply = await p.run<{ threadId: number }>({ op: "verify", code: "x" });
  expect(p.threadIds).toEqual([reply.threadId]);
}, 30_000);

test("a cancelled job that is still queued leaves the queue and never runs", async () => {
  const p = pool({ size: 1, renderTimeoutMs: 600_000 }, []);
  await p.start();
  const [worker] = p.threadIds;
  const blocker = new AbortController();
  const hung = p.run({ op: "verify", code: "hang" }, { signal: blocker.signal });
  hung.catch(() => undefined);
  const waiting = new AbortController();
  const queued = p.run({ op: "verify", code: "x" }, { signal: waiting.signal });
  expect(p.queued).toBe(1);
  waiting.abort();
  await expect(queued).rejects.toMatchObject({ message: CANCELLED_MESSAGE });
  expect(p.queued).toBe(0);
  // The running job was not touched by the other caller's cancel.
  expect(p.threadIds).toEqual([worker]);
  blocker.abort();
  await expect(hung).rejects.toMatchObject({ message: CANCELLED_MESSAGE });
}, 30_000);

test("past the queue bound a burst is refused at once with busy and a retry-after; the queued jobs are still served", async () => {
  const p = pool({ size: 1, queueMax: 3, renderTimeoutMs: 600_000, queueTimeoutMs: 600_000 }, []);
  await p.start();
  const blocker = new AbortController();
  const hung = p.run({ op: "verify", code: "hang" }, { signal: blocker.signal });
  hung.catch(() => undefined);
  const queued = [1, 2, 3].map(() => p.run<{ threadId: number }>({ op: "verify", code: "x" }));
  const refused = await Promise.allSettled([1, 2, 3, 4, 5].map(() => p.run({ op: "verify", code: "x" })));
  // Refused while the worker was still stuck: nobody waited for a slot that was not there.
  expect(p.queued).toBe(3);
  for (const r of refused) {
    expect(r.status).toBe("rejected");
    const err = (r as PromiseRejectedResult).reason as ToolError;
    expect(err).toBeInstanceOf(ToolError);
    expect(err.kind).toBe("unavailable");
    expect(err.toText()).toMatch(/^Error: The diagram renderer is busy: try again in \d+ seconds \(503\)$/);
    expect(err.extra.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  }
  blocker.abort();
  const served = await Promise.all(queued);
  expect(served).toHaveLength(3);
}, 30_000);

test("past the wait budget a job is refused at once, even with room in the queue", async () => {
  // Any expected wait (one job ahead × the recent job time, never 0) exceeds a 1 ms budget.
  const p = pool({ size: 1, queueMax: 50, maxWaitMs: 1, renderTimeoutMs: 600_000, queueTimeoutMs: 600_000 }, []);
  await p.start();
  // An idle warm worker: no wait, served.
  await expect(p.run({ op: "verify", code: "x" })).resolves.toBeDefined();
  const blocker = new AbortController();
  const hung = p.run({ op: "verify", code: "hang" }, { signal: blocker.signal });
  hung.catch(() => undefined);
  await until(() => p.queued === 0, "the hung job on the worker");
  const refused = p.run({ op: "verify", code: "x" });
  await expect(refused).rejects.toMatchObject({ kind: "unavailable", message: expect.stringMatching(/^The diagram renderer is busy: try again in \d+ seconds?$/) });
  expect(p.queued).toBe(0);
  blocker.abort();
  await expect(hung).rejects.toMatchObject({ message: CANCELLED_MESSAGE });
}, 30_000);

test("retries are bounded: after the failed starts no timer is left, and a caller or health check retries on demand", async () => {
  const log: Entry[] = [];
  const p = pool({ size: 1, workerData: { failWarmup: true }, backoffMs: 20, maxBackoffMs: 50, maxStartFailures: 3, queueTimeoutMs: 600_000 }, log);
  await p.start();
  expect(p.failing).toBe(true);
  const health = p.health();
  expect(health.ok).toBe(false);
  expect((health as { reason: string }).reason).toMatch(/could not start \(3 failed attempts in a row\)/);
  // Nothing scheduled: an idle, failed pool does no work on its own.
  expect((p as unknown as { respawnTimers: Set<unknown> }).respawnTimers.size).toBe(0);
  const attempts = () => log.filter((e) => e.message === "mermaid render worker failed to start").length;
  expect(attempts()).toBe(3);
  // Once the machine (here: the worker) is fine again, demand brings the pool back.
  (p as unknown as { opts: { workerData: unknown } }).opts.workerData = {};
  await until(() => {
    p.health();
    return p.readyCount === 1;
  }, "a retry on demand");
  expect(p.health()).toEqual({ ok: true });
  const reply = await p.run<{ threadId: number }>({ op: "verify", code: "x" });
  expect(reply.threadId).toBeGreaterThan(0);
}, 30_000);
