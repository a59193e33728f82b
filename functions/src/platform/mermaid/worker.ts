// Entry of a render worker thread. One job at a time; the pool terminates the whole thread when
// a job runs past its deadline, which is the only way to stop a runaway synchronous layout.
// Node's compile cache: the pool sets NODE_COMPILE_CACHE for the thread, so Node switches it on
// before this file (in functions/lib: the one-file bundle) is even read; the call below covers a
// worker started some other way (default directory: <tmp>/mermaid-compile-cache).
import module from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parentPort } from "node:worker_threads";
import type { Job, WorkerReply, WorkerRequest } from "./protocol.js";

const loadedAt = performance.now();

const enableCompileCache = (module as unknown as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
try {
  enableCompileCache?.(process.env.NODE_COMPILE_CACHE || join(tmpdir(), "mermaid-compile-cache"));
} catch {
  // A read-only or full disk only costs speed.
}

const { JobFailure, layout, render, verify, warmup } = await import("./engine.js");
const modulesAt = performance.now();

async function run(job: Job): Promise<unknown> {
  switch (job.op) {
    case "verify":
      return verify(job.code);
    case "render":
      return render(job.code, job.theme, job.png, job.labels);
    case "layout":
      return layout(job.code);
    case "warmup":
      return warmup({ loaded: loadedAt, modules: modulesAt });
  }
}

parentPort!.on("message", async ({ id, job }: WorkerRequest) => {
  let reply: WorkerReply;
  try {
    reply = { id, ok: true, result: await run(job) };
  } catch (err) {
    reply =
      err instanceof JobFailure
        ? { id, ok: false, error: err.detail }
        : { id, ok: false, error: { kind: "internal", message: err instanceof Error ? `${err.name}: ${err.message}` : String(err), stack: err instanceof Error ? err.stack : undefined } };
  }
  // PNG bytes are copied (resvg's buffers live outside the JS heap and cannot be transferred).
  parentPort!.postMessage(reply);
});
