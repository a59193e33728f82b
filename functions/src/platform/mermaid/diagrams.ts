// What callers outside the engine use: a job's refusal as the tool error it is, and a diagram's
// layout (for building it as editable shapes elsewhere). The mermaid domain adds its own input
// rules and messages (domains/mermaid/core/service.ts).
import { invalidInput, tooLarge, ToolError } from "../../core/errors.js";
import type { DiagramLayout } from "../../contracts/figma-plugin.js";
import { JobRejected, renderPool } from "./pool.js";
import { MAX_CODE_LENGTH } from "./protocol.js";

/** A worker's refusal as the error a caller answers with (the diagram's fault → its sentence). */
export function fromWorker(err: unknown): never {
  if (err instanceof ToolError) throw err;
  if (err instanceof JobRejected) {
    if (err.detail.kind === "syntax" || err.detail.kind === "render") throw invalidInput(err.detail.message);
    if (err.detail.kind === "too_large") throw tooLarge(err.detail.message);
    // A plain Error: the shared layer logs it (with the worker's stack) and answers with its
    // generic sentence and the request id. The raw message never reaches the caller.
    const internal = new Error(`render worker: ${err.detail.message}`);
    if (err.detail.stack) internal.stack = `${internal.message}\n--- in the render worker ---\n${err.detail.stack}`;
    throw internal;
  }
  throw err;
}

/** The diagram laid out by the engine (layout.ts); `code` must be a non-empty diagram of at most MAX_CODE_LENGTH characters. */
export async function layoutDiagram(code: string, signal?: AbortSignal): Promise<DiagramLayout> {
  if (!code.trim() || code.length > MAX_CODE_LENGTH) throw invalidInput(`code must be Mermaid source of 1 to ${MAX_CODE_LENGTH} characters`);
  return renderPool().run<DiagramLayout>({ op: "layout", code }, { signal }).catch(fromWorker);
}
