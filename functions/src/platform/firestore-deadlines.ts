// Firestore's Admin SDK takes no per-call signal or deadline, so its calls are bounded here, once
// per process (applied by platform/firebase.ts): every read, write and transaction made while a
// request is served goes through callDependency with Firestore's budget (platform/deadline.ts),
// and every listener's first snapshot must arrive within it. Calls made inside a bounded call (the
// SDK's own, a transaction's reads) are covered by it. Outside a request nothing is bounded.
// The gRPC calls themselves end at that deadline too (endOnTheWire): the client cancels the
// stream (RST_STREAM) and no retry starts after it, so a stalled database holds nothing of ours.
import { CollectionReference, DocumentReference, Firestore, Query, v1, WriteBatch } from "firebase-admin/firestore";
import { activeScope, BUDGETS, callDependency, DependencyUnavailable, recovered, registerProbe, runInScope, sentence, timedOut, type Write } from "./deadline.js";

type Method = (...args: unknown[]) => unknown;

function bound(proto: object, name: string, write: Write | ((args: unknown[]) => Write)): void {
  const target = proto as Record<string, Method>;
  const original = target[name];
  if (typeof original !== "function" || (original as { bounded?: true }).bounded) return;
  const wrapped = function (this: unknown, ...args: unknown[]): unknown {
    const scope = activeScope();
    if (!scope || scope.inside) return original.apply(this, args);
    return callDependency(BUDGETS.firestore, () => original.apply(this, args) as Promise<unknown>, { write: typeof write === "function" ? write(args) : write });
  };
  (wrapped as { bounded?: true }).bounded = true;
  target[name] = wrapped;
}

/** A listener whose first snapshot does not arrive within the budget gets the unavailable error. */
function boundListener(proto: object): void {
  const target = proto as Record<string, Method>;
  const original = target.onSnapshot;
  if (typeof original !== "function" || (original as { bounded?: true }).bounded) return;
  const wrapped = function (this: unknown, onNext: (snap: unknown) => void, onError?: (err: Error) => void): () => void {
    const scope = activeScope();
    if (!scope || scope.inside || !onError) return original.call(this, onNext, onError) as () => void;
    let first = true;
    let unsubscribe: (() => void) | undefined;
    // The SDK only half-closes a detached listener's stream, which a stalled database never
    // answers: its stream is cancelled when it is detached.
    const detached = new AbortController();
    const detach = () => (unsubscribe?.(), detached.abort());
    const b = BUDGETS.firestore;
    const timer = setTimeout(() => {
      first = false;
      detach();
      timedOut(b, scope.log, { budgetMs: b.ms, listener: true });
      onError(new DependencyUnavailable(b.dependency, sentence(b, "timed out", b.ms, "none")));
    }, b.ms);
    unsubscribe = runInScope({ ...scope, detached: detached.signal }, () => original.call(
      this,
      (snap: unknown) => {
        if (first) {
          first = false;
          clearTimeout(timer);
          recovered(b.dependency, scope.log);
        }
        onNext(snap);
      },
      (err: Error) => {
        clearTimeout(timer);
        onError(err);
      },
    ) as () => void);
    return () => {
      clearTimeout(timer);
      detach();
    };
  };
  (wrapped as { bounded?: true }).bounded = true;
  target.onSnapshot = wrapped as unknown as Method;
}

type CallOptions = {
  timeout?: number;
  signal?: AbortSignal;
  retry?: { retryCodes: number[]; backoffSettings: Record<string, unknown> } | null;
  [key: string]: unknown;
};
/** gRPC's CANCELLED: not among the codes any Firestore call retries on. */
const CANCELLED = 1;
type CreateCallOptions = (methodName: string, retryCodes?: number[]) => CallOptions;

/**
 * Gives every gRPC call Firestore makes while a request is served the deadline of the bounded
 * call it belongs to (else the request's own), and the bounded call's signal. The SDK builds each
 * call's options in one place (the Firestore class's createCallOptions, not part of its typed
 * API: nothing else in it takes a deadline or a signal per call); the timeout is read at each
 * attempt, so an attempt started late gets only what is left, and the retry settings (a commit
 * passes its own, 60 s per attempt and 600 s in all) are cut to what is left. Tested against a
 * server that never answers (test/unit/deadlines-firestore.test.ts): the streams are reset at the deadline.
 */
function endOnTheWire(): boolean {
  const proto = Firestore.prototype as unknown as { createCallOptions?: CreateCallOptions & { bounded?: true } };
  const original = proto.createCallOptions;
  if (typeof original !== "function") return false;
  if (original.bounded) return true;
  const wrapped = function (this: unknown, methodName: string, retryCodes?: number[]): CallOptions {
    const options = original.call(this, methodName, retryCodes);
    const scope = activeScope();
    if (!scope) return options;
    const deadlineAt = scope.callDeadlineAt ?? scope.deadlineAt;
    // Read as each attempt starts. One past the deadline is not sent: it ends as cancelled, which
    // nothing retries (gax would read a timeout of 0 as its default, 30 s).
    const left = () => {
      const ms = deadlineAt - Date.now();
      if (ms <= 0) throw Object.assign(new Error(`Firestore ${methodName}: the deadline passed before this attempt was sent`), { code: CANCELLED });
      return ms;
    };
    Object.defineProperty(options, "timeout", { get: left, enumerable: true });
    if (scope.callDeadlineAt && scope.signal) options.signal = scope.signal;
    if (methodName === "listen" && scope.detached) options.signal = scope.detached;
    // A stream that ends without an answer is sent again by gax's stream retry with its first
    // timeout again, past the deadline: not within a bounded call.
    if (scope.callDeadlineAt) options.retryRequestOptions = { retries: 0, noResponseRetries: 0 };
    if (options.retry) {
      const ms = Math.max(1, deadlineAt - Date.now());
      options.retry = { ...options.retry, backoffSettings: { ...options.retry.backoffSettings, initialRpcTimeoutMillis: ms, maxRpcTimeoutMillis: ms, totalTimeoutMillis: ms } };
    }
    return options;
  };
  (wrapped as { bounded?: true }).bounded = true;
  proto.createCallOptions = wrapped;
  return true;
}

/**
 * gax hands a call's signal to unary calls only: a read's stream (documents, a query, an
 * aggregation) is cancelled here when the bounded call's signal fires (the request was cancelled,
 * or the deadline passed), and a listener's when it is detached, if the stream has not ended yet.
 */
function cancelStreamsOnSignal(): void {
  const proto = (v1 as unknown as { FirestoreClient?: { prototype: Record<string, Method> } }).FirestoreClient?.prototype;
  if (!proto) return;
  for (const name of ["batchGetDocuments", "runQuery", "runAggregationQuery", "listen"]) {
    const original = proto[name];
    if (typeof original !== "function" || (original as { bounded?: true }).bounded) continue;
    // The call options come last (a listener's stream takes nothing else).
    const wrapped = function (this: unknown, ...args: unknown[]): unknown {
      const stream = original.apply(this, args) as { cancel(): void; once(event: string, listener: () => void): void };
      const signal = (args.at(-1) as CallOptions | undefined)?.signal;
      if (!signal) return stream;
      let ended = false;
      const cancel = () => ended || stream.cancel();
      const done = () => ((ended = true), signal.removeEventListener("abort", cancel));
      for (const event of ["end", "close", "error"]) stream.once(event, done);
      if (signal.aborted) cancel();
      else signal.addEventListener("abort", cancel, { once: true });
      return stream;
    };
    (wrapped as { bounded?: true }).bounded = true;
    proto[name] = wrapped as Method;
  }
}

/**
 * A recursive delete gets a BulkWriter of its own: the SDK's default one is shared by every delete
 * in the process, so a batch it sends for one delete would carry another bounded call's signal,
 * which is aborted when that call ends (two parallel deletes: the second's writes were cancelled).
 */
function ownBulkWriter(): void {
  const proto = Firestore.prototype as unknown as { recursiveDelete: Method & { ownWriter?: true }; bulkWriter(): { close(): Promise<void> } };
  const original = proto.recursiveDelete;
  if (original.ownWriter) return;
  const wrapped = async function (this: Firestore, ref: unknown, writer?: unknown): Promise<unknown> {
    if (writer) return original.call(this, ref, writer);
    const own = (this as unknown as typeof proto).bulkWriter();
    try {
      return await original.call(this, ref, own);
    } finally {
      await own.close().catch(() => undefined);
    }
  };
  (wrapped as { ownWriter?: true }).ownWriter = true;
  proto.recursiveDelete = wrapped as Method & { ownWriter?: true };
}

let instrumented = false;

/** Bounds every Firestore call made while a request is served (once per process). */
export function instrumentFirestore(db: Firestore): void {
  if (instrumented) return;
  instrumented = true;
  cancelStreamsOnSignal();
  if (!endOnTheWire()) console.warn("firestore-deadlines: this Firestore SDK builds its call options elsewhere; a call past its deadline is abandoned, not cancelled");
  for (const name of ["getAll", "listCollections"]) bound(Firestore.prototype, name, "none");
  bound(Firestore.prototype, "runTransaction", "unknown");
  ownBulkWriter();
  bound(Firestore.prototype, "recursiveDelete", "idempotent");
  for (const name of ["get", "listCollections"]) bound(DocumentReference.prototype, name, "none");
  // A set without merge replaces the document: the same result however often; a second create
  // is refused (already exists), never a second document. A merge or an update may add up.
  bound(DocumentReference.prototype, "set", (args) => ((args[1] as { merge?: boolean; mergeFields?: unknown } | undefined)?.merge || (args[1] as { mergeFields?: unknown } | undefined)?.mergeFields ? "unknown" : "idempotent"));
  for (const name of ["create", "delete"]) bound(DocumentReference.prototype, name, "idempotent");
  bound(DocumentReference.prototype, "update", "unknown");
  bound(Query.prototype, "get", "none");
  bound(CollectionReference.prototype, "listDocuments", "none");
  bound(CollectionReference.prototype, "add", "unknown");
  // Aggregate and vector queries' classes are not exported at run time; unsent queries give them.
  const unsent = db.collection("_");
  bound(Object.getPrototypeOf(unsent.count()) as object, "get", "none");
  bound(Object.getPrototypeOf(unsent.findNearest({ vectorField: "v", queryVector: [1], limit: 1, distanceMeasure: "COSINE" })) as object, "get", "none");
  bound(WriteBatch.prototype, "commit", "unknown");
  boundListener(DocumentReference.prototype);
  boundListener(Query.prototype);
  // A read of a document that need not exist: answered at once by a Firestore that answers.
  registerProbe("firestore", () => db.collection("health").doc("probe").get());
}
