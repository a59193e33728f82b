// firestore.rules for DermalVision: a user's own client app may read (never write) their own
// profile, sessions and reports; nobody else may read or write them. Runs in a separate project
// id so loading these rules does not touch the functions' project in the shared emulator.
import { afterAll, beforeAll, describe, test } from "vitest";
import { assertFails, assertSucceeds, type RulesTestEnvironment } from "@firebase/rules-unit-testing";
import { rulesEnvironment } from "../support/rules.js";
import { collection, deleteDoc, doc, getDoc, getDocs, setDoc, updateDoc, type Firestore } from "firebase/firestore";

let env: RulesTestEnvironment;
const OWNER = "rules-owner";
const OTHER = "rules-other";
const CLINICIAN = "rules-clinician";

beforeAll(async () => {
  env = await rulesEnvironment("demo-rules-dermal");
  await env.withSecurityRulesDisabled(async (ctx) => {
    const db = ctx.firestore() as unknown as Firestore;
    await setDoc(doc(db, `users/${OWNER}`), { tier: "premium", sharedWith: [CLINICIAN] });
    await setDoc(doc(db, `users/${OWNER}/sessions/s1`), { sessionId: "s1", status: "completed" });
    await setDoc(doc(db, `users/${OWNER}/reports/s1`), { sessionId: "s1", overallScore: 70 });
  });
});
afterAll(async () => env?.cleanup());

const as = (uid: string, claims: Record<string, unknown> = {}) => env.authenticatedContext(uid, claims).firestore() as unknown as Firestore;
const PATHS = [`users/${OWNER}`, `users/${OWNER}/sessions/s1`, `users/${OWNER}/reports/s1`];

describe("the owner's app", () => {
  test("reads their own profile, sessions and reports", async () => {
    const db = as(OWNER);
    for (const p of PATHS) await assertSucceeds(getDoc(doc(db, p)));
    await assertSucceeds(getDocs(collection(db, `users/${OWNER}/sessions`)));
    await assertSucceeds(getDocs(collection(db, `users/${OWNER}/reports`)));
  });

  test("cannot write them: create, update or delete", async () => {
    const db = as(OWNER);
    await assertFails(setDoc(doc(db, `users/${OWNER}`), { tier: "pro" }));
    await assertFails(updateDoc(doc(db, `users/${OWNER}`), { sharedWith: [OTHER] }));
    await assertFails(setDoc(doc(db, `users/${OWNER}/sessions/s2`), { sessionId: "s2" }));
    await assertFails(updateDoc(doc(db, `users/${OWNER}/reports/s1`), { overallScore: 99 }));
    await assertFails(deleteDoc(doc(db, `users/${OWNER}/sessions/s1`)));
    await assertFails(setDoc(doc(db, `users/${OTHER}`), { tier: "pro" }));
  });
});

describe("everyone else", () => {
  test("another user, a clinician the owner shared with, and signed-out clients read nothing", async () => {
    for (const db of [as(OTHER), as(CLINICIAN, { clinician: true }), env.unauthenticatedContext().firestore() as unknown as Firestore]) {
      for (const p of PATHS) await assertFails(getDoc(doc(db, p)));
      await assertFails(getDocs(collection(db, `users/${OWNER}/sessions`)));
      await assertFails(getDocs(collection(db, `users/${OWNER}/reports`)));
      await assertFails(getDocs(collection(db, "users")));
      await assertFails(setDoc(doc(db, `users/${OWNER}`), { sharedWith: [OTHER] }));
    }
  });
});
