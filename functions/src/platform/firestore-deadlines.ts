// Firestore's Admin SDK takes no per-call signal or deadline, so its calls are bounded here, once
// per process (applied by platform/firebase.ts): every read, write and transaction made while a
// request is served goes through callDependency with Firestore's budget (platform/deadline.ts),
// and every listener's first snapshot must arrive within it. Calls made inside a bounded call (the
// SDK's own, a transaction's reads) are covered by it. Outside a request nothing is bounded. An
// abandoned call ends on the client's own timeout; the request is answered without it.
import { CollectionReference, DocumentReference, Firestore, Query, WriteBatch } from "firebase-admin/firestore";
import { activeScope, BUDGETS, callDependency, DependencyUnavailable, recovered, registerProbe, sentence, timedOut, type Write } from "./deadline.js";

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
    const b = BUDGETS.firestore;
    const timer = setTimeout(() => {
      first = false;
      unsubscribe?.();
      timedOut(b, scope.log, { budgetMs: b.ms, listener: true });
      onError(new DependencyUnavailable(b.dependency, sentence(b, "timed out", b.ms, "none")));
    }, b.ms);
    unsubscribe = original.call(
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
    ) as () => void;
    return () => {
      clearTimeout(timer);
      unsubscribe?.();
    };
  };
  (wrapped as { bounded?: true }).bounded = true;
  target.onSnapshot = wrapped as unknown as Method;
}

let instrumented = false;

/** Bounds every Firestore call made while a request is served (once per process). */
export function instrumentFirestore(db: Firestore): void {
  if (instrumented) return;
  instrumented = true;
  for (const name of ["getAll", "listCollections"]) bound(Firestore.prototype, name, "none");
  bound(Firestore.prototype, "runTransaction", "unknown");
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
