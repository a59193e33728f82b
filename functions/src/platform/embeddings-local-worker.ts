// One embedding worker thread: loads the local model once, then embeds the batches the pool
// (embeddings-local.ts) sends, one at a time. Inference is synchronous WASM: in a worker it
// never blocks the request thread's event loop.
import { parentPort, workerData } from "node:worker_threads";
import { loadLocalModel, type LocalModel } from "./embeddings-local-model.js";

export type WorkerData = { native: boolean };
export type WorkerRequest = { id: number; texts: string[] };
export type WorkerReply =
  | { type: "ready"; matrixProducts: LocalModel["matrixProducts"] }
  | { type: "failed"; error: string }
  | { id: number; vectors: Float32Array }
  | { id: number; error: string };

const port = parentPort!;
try {
  const model = await loadLocalModel({ native: (workerData as WorkerData).native });
  port.on("message", async ({ id, texts }: WorkerRequest) => {
    try {
      const vectors = await model.embed(texts);
      port.postMessage({ id, vectors } satisfies WorkerReply, [vectors.buffer as ArrayBuffer]);
    } catch (err) {
      port.postMessage({ id, error: (err as Error).message } satisfies WorkerReply);
    }
  });
  port.postMessage({ type: "ready", matrixProducts: model.matrixProducts } satisfies WorkerReply);
} catch (err) {
  port.postMessage({ type: "failed", error: (err as Error).message } satisfies WorkerReply);
}
