// One embedding worker thread: loads the local model once, then embeds the batches the pool
// (embeddings-local.ts) sends, one at a time. Inference is synchronous WASM: in a worker it
// never blocks the request thread's event loop.
import { parentPort } from "node:worker_threads";
import { loadLocalModel } from "./embeddings-local-model.js";

export type WorkerRequest = { id: number; texts: string[] };
export type WorkerReply =
  | { type: "ready" }
  | { type: "failed"; error: string }
  | { id: number; vectors: Float32Array }
  | { id: number; error: string };

const port = parentPort!;
try {
  const model = await loadLocalModel();
  port.on("message", async ({ id, texts }: WorkerRequest) => {
    try {
      const vectors = await model.embed(texts);
      port.postMessage({ id, vectors } satisfies WorkerReply, [vectors.buffer as ArrayBuffer]);
    } catch (err) {
      port.postMessage({ id, error: (err as Error).message } satisfies WorkerReply);
    }
  });
  port.postMessage({ type: "ready" } satisfies WorkerReply);
} catch (err) {
  port.postMessage({ type: "failed", error: (err as Error).message } satisfies WorkerReply);
}
