// firestore.rules for the Fotos desktop agent: signed in with its device token (claims `device`,
// `owner`, `kind`), an agent reads the capture requests addressed to its own device, and nothing
// else: not another device's, not another user's, not after the device is revoked, never a write.
import { afterAll, beforeAll, describe, test } from "vitest";
import { assertFails, assertSucceeds, type RulesTestEnvironment } from "@firebase/rules-unit-testing";
import { rulesEnvironment, seedDevices } from "../support/rules.js";
import { collection, deleteDoc, doc, getDoc, getDocs, query, setDoc, updateDoc, where, type Firestore } from "firebase/firestore";

let env: RulesTestEnvironment;
const ALICE = "rules-alice";
const BOB = "rules-bob";
const R = "fotosCaptureRequests";

beforeAll(async () => {
  env = await rulesEnvironment("demo-rules-fotos");
  await env.withSecurityRulesDisabled(async (ctx) => {
    const db = ctx.firestore() as unknown as Firestore;
    await seedDevices(db, "desktop-agent", [
      { id: "dev-a", uid: ALICE, name: "laptop" },
      { id: "dev-a2", uid: ALICE, name: "desktop" },
      { id: "dev-b", uid: BOB, name: "bob's" },
      { id: "dev-revoked", uid: ALICE, name: "old", revoked: true },
    ]);
    await setDoc(doc(db, `${R}/req-a`), { owner: ALICE, device: "dev-a", status: "pending", mode: "fullscreen" });
    await setDoc(doc(db, `${R}/req-a2`), { owner: ALICE, device: "dev-a2", status: "pending", mode: "fullscreen" });
    await setDoc(doc(db, `${R}/req-b`), { owner: BOB, device: "dev-b", status: "pending", mode: "fullscreen" });
    await setDoc(doc(db, `${R}/req-revoked`), { owner: ALICE, device: "dev-revoked", status: "pending", mode: "fullscreen" });
    await setDoc(doc(db, `fotosAgents/dev-a`), { owner: ALICE, online: true });
    await setDoc(doc(db, `users/${ALICE}/screenshots/s1`), { width: 10, height: 10 });
  });
});
afterAll(async () => env?.cleanup());

const agent = (deviceId: string, owner: string, kind = "desktop-agent") =>
  env.authenticatedContext(`device_${deviceId}`, { device: deviceId, owner, kind }).firestore() as unknown as Firestore;

const ownQuery = (db: Firestore, deviceId: string, owner: string) =>
  query(collection(db, R), where("device", "==", deviceId), where("owner", "==", owner), where("status", "==", "pending"));

describe("a paired desktop agent", () => {
  test("reads its own capture requests: one by id, and the query it listens with", async () => {
    const db = agent("dev-a", ALICE);
    await assertSucceeds(getDoc(doc(db, `${R}/req-a`)));
    await assertSucceeds(getDocs(ownQuery(db, "dev-a", ALICE)));
  });

  test("cannot read another device's requests, of its owner or of another user, by id or by query", async () => {
    const db = agent("dev-a", ALICE);
    await assertFails(getDoc(doc(db, `${R}/req-a2`)));
    await assertFails(getDoc(doc(db, `${R}/req-b`)));
    await assertFails(getDocs(ownQuery(db, "dev-a2", ALICE)));
    await assertFails(getDocs(ownQuery(db, "dev-b", BOB)));
    await assertFails(getDocs(query(collection(db, R), where("owner", "==", ALICE))));
    await assertFails(getDocs(collection(db, R)));
  });

  test("cannot claim to be another device or owner: the claims must match the device record", async () => {
    // A token whose owner claim names someone else than the device's owner reads nothing.
    await assertFails(getDoc(doc(agent("dev-b", ALICE), `${R}/req-b`)));
    await assertFails(getDocs(ownQuery(agent("dev-a", BOB), "dev-a", BOB)));
  });

  test("reads nothing once its device is revoked", async () => {
    const db = agent("dev-revoked", ALICE);
    await assertFails(getDoc(doc(db, `${R}/req-revoked`)));
    await assertFails(getDocs(ownQuery(db, "dev-revoked", ALICE)));
  });

  test("writes nothing: no new requests, no status changes, no deletes, no agent records", async () => {
    const db = agent("dev-a", ALICE);
    await assertFails(setDoc(doc(db, `${R}/forged`), { owner: ALICE, device: "dev-a", status: "pending" }));
    await assertFails(updateDoc(doc(db, `${R}/req-a`), { status: "done" }));
    await assertFails(deleteDoc(doc(db, `${R}/req-a`)));
    await assertFails(setDoc(doc(db, `fotosAgents/dev-a`), { online: true }));
    await assertFails(getDoc(doc(db, `fotosAgents/dev-a`)));
  });

  test("reads no screenshots (those go through the fotos function)", async () => {
    await assertFails(getDoc(doc(agent("dev-a", ALICE), `users/${ALICE}/screenshots/s1`)));
  });
});

describe("everyone else", () => {
  test("the owner's own sign-in, another kind of device, and signed-out clients read no capture requests", async () => {
    const owner = env.authenticatedContext(ALICE).firestore() as unknown as Firestore;
    const figma = agent("dev-a", ALICE, "figma-plugin");
    const anonymous = env.unauthenticatedContext().firestore() as unknown as Firestore;
    for (const db of [owner, figma, anonymous]) {
      await assertFails(getDoc(doc(db, `${R}/req-a`)));
      await assertFails(getDocs(ownQuery(db, "dev-a", ALICE)));
    }
  });
});
