// Entry of a render worker thread. One job at a time; the pool terminates the whole thread when
// a job runs past its deadline, which is the only way to stop a runaway synchronous layout.
import { parentPort } from "node:worker_threads";
import { JobFailure, render, verify, warmup } from "./engine.js";
import type { Job, WorkerReply, WorkerRequest } from "./protocol.js";

async function run(job: Job): Promise<unknown> {
  switch (job.op) {
    case "verify":
      return verify(job.code);
    case "render":
      return render(job.code, job.theme, job.png, job.labels);
    case "warmup":
      return warmup();
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
