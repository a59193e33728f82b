// Firestore's calls bounded per request (platform/firestore-deadlines.ts) against the Firestore
// emulator: SDK work that spans several bounded calls must not inherit one call's signal, which is
// aborted when that call ends.
import { expect, test } from "vitest";
import { log } from "../../functions/src/core/log.js";
import { runInScope } from "../../functions/src/platform/deadline.js";
import { firestore } from "../../functions/src/platform/firebase.js";

test("parallel recursive deletes in one request each finish: one that ends first cancels none of the other's writes", async () => {
  const db = firestore();
  const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  for (let round = 0; round < 3; round++) {
    const small = db.collection(`recursive-delete-small-${run}-${round}`);
    const big = db.collection(`recursive-delete-big-${run}-${round}`);
    await small.doc("only").set({ n: 0 });
    const batch = db.batch();
    for (let i = 0; i < 240; i++) batch.set(big.doc(`d${i}`).collection(`sub-${run}`).doc("x"), { i }).set(big.doc(`d${i}`), { i });
    await batch.commit();
    // As the home page's "delete everything" does: several deletes at once within the request.
    const scope = { deadlineAt: Date.now() + 120_000, log, signal: new AbortController().signal };
    await runInScope(scope, () => Promise.all([db.recursiveDelete(small), db.recursiveDelete(big)]));
    expect((await big.count().get()).data().count).toBe(0);
    expect((await db.collectionGroup(`sub-${run}`).where("i", ">=", 0).count().get()).data().count).toBe(0);
  }
}, 120_000);
