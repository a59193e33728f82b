// Waiting for a Firestore document to reach a state (a capture request answered by the desktop
// agent, a command answered by the Figma plugin…), bounded by a timeout and by the caller's
// AbortSignal (a client that cancels frees the wait at once). One admin-SDK listener per wait,
// always detached.
import type { DocumentReference, DocumentSnapshot } from "firebase-admin/firestore";
import { ToolError, timedOut } from "../core/errors.js";

export interface WaitOptions {
  /** Stops the wait (e.g. ctx.signal: the client cancelled or went away). */
  signal?: AbortSignal | undefined;
  /** Longest wait; then a timeout ToolError with `timeoutMessage`. */
  timeoutMs: number;
  /** The sentence of the timeout error (what happened + what to do). */
  timeoutMessage?: string;
}

/** Thrown when the wait's signal fires; the shared layer logs it and the client is gone anyway. */
export class WaitCancelled extends ToolError {
  constructor() {
    super("timeout", "The request was cancelled before it completed");
  }
}

/**
 * Resolves with the first snapshot of `doc` for which `predicate` is true (the current one
 * included), or rejects: timeout → timedOut(timeoutMessage), signal → WaitCancelled, listener
 * error → that error.
 */
export function waitFor(
  doc: DocumentReference,
  predicate: (snap: DocumentSnapshot) => boolean,
  { signal, timeoutMs, timeoutMessage = `No answer within ${Math.round(timeoutMs / 1000)} s; try again` }: WaitOptions,
): Promise<DocumentSnapshot> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new WaitCancelled());
    let settled = false;
    let unsubscribe: (() => void) | undefined;
    const finish = (done: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      unsubscribe?.();
      done();
    };
    const onAbort = () => finish(() => reject(new WaitCancelled()));
    const timer = setTimeout(() => finish(() => reject(timedOut(timeoutMessage))), timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    unsubscribe = doc.onSnapshot(
      (snap) => {
        let match = false;
        try {
          match = predicate(snap);
        } catch (err) {
          return finish(() => reject(err));
        }
        if (match) finish(() => resolve(snap));
      },
      (err) => finish(() => reject(err)),
    );
    if (settled) unsubscribe(); // settled synchronously before onSnapshot returned
  });
}
