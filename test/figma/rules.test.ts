// firestore.rules for the Figma plugin listening in Firestore: signed in with its device token
// (claims `device`, `owner`, `kind` = figma-plugin), a plugin reads the pending commands of the
// rooms its own device registered, claims each once (pending → delivered at the server's time), and
// stamps only its session's lastSeenAt with the server's time. Not another device's room (of the
// same person or another), not as a user, not as a desktop agent, not after the device is revoked;
// no other command write, no other session field.
import { afterAll, beforeAll, describe, test } from "vitest";
import { assertFails, assertSucceeds, type RulesTestEnvironment } from "@firebase/rules-unit-testing";
import { rulesEnvironment, seedDevices } from "../support/rules.js";
import { collection, deleteDoc, doc, getDoc, getDocs, query, serverTimestamp, setDoc, updateDoc, where, type Firestore } from "firebase/firestore";

let env: RulesTestEnvironment;
const ALICE = "figma-alice";
const BOB = "figma-bob";
const ROOM_A = "room-aaaaaaaaaaaaaaaaaaaaaaaa";
const ROOM_A2 = "room-a2a2a2a2a2a2a2a2a2a2a2a2";
const ROOM_B = "room-bbbbbbbbbbbbbbbbbbbbbbbb";
const ROOM_OLD = "room-000000000000000000000000";
const commands = (db: Firestore, room: string) => collection(db, `figma_sessions/${room}/figma_commands`);
const pending = (db: Firestore, room: string) => query(commands(db, room), where("state", "==", "pending"));

beforeAll(async () => {
  env = await rulesEnvironment("demo-rules-figma-plugin");
  await env.withSecurityRulesDisabled(async (ctx) => {
    const db = ctx.firestore() as unknown as Firestore;
    await seedDevices(db, "figma-plugin", [
      { id: "plug-a", uid: ALICE, name: "Figma — Alice" },
      { id: "plug-a2", uid: ALICE, name: "Figma — Alice's other Mac" },
      { id: "plug-b", uid: BOB, name: "Figma — Bob" },
      { id: "plug-old", uid: ALICE, name: "old", revoked: true },
    ]);
    const rooms: [string, string, string][] = [[ROOM_A, ALICE, "plug-a"], [ROOM_A2, ALICE, "plug-a2"], [ROOM_B, BOB, "plug-b"], [ROOM_OLD, ALICE, "plug-old"]];
    for (const [room, owner, device] of rooms) {
      await setDoc(doc(db, `figma_sessions/${room}`), { roomId: room, ownerUid: owner, deviceId: device, fileName: "File", pollId: null, lastSeenAt: new Date(0) });
      for (const c of ["c1", "c2", "c3"]) await setDoc(doc(db, `figma_sessions/${room}/figma_commands/${c}`), { commandId: c, tool: "get_selection", argsJson: "{}", state: "pending" });
    }
  });
});
afterAll(async () => env?.cleanup());

const plugin = (device: string, owner: string, kind = "figma-plugin") =>
  env.authenticatedContext(`device_${device}`, { device, owner, kind }).firestore() as unknown as Firestore;

describe("a paired Figma plugin", () => {
  test("reads its own room's pending commands: the query it listens with, and one by id", async () => {
    const db = plugin("plug-a", ALICE);
    await assertSucceeds(getDocs(pending(db, ROOM_A)));
    await assertSucceeds(getDoc(doc(db, `figma_sessions/${ROOM_A}/figma_commands/c1`)));
  });

  test("cannot read another device's room, of its owner or of another user, nor the registry", async () => {
    const db = plugin("plug-a", ALICE);
    await assertFails(getDocs(pending(db, ROOM_A2)));
    await assertFails(getDocs(pending(db, ROOM_B)));
    await assertFails(getDoc(doc(db, `figma_sessions/${ROOM_B}/figma_commands/c1`)));
    await assertFails(getDoc(doc(db, `figma_sessions/${ROOM_A}`)));
    await assertFails(getDocs(collection(db, "figma_sessions")));
  });

  test("claims that do not match the room's device and owner, or another kind of device, read nothing", async () => {
    await assertFails(getDocs(pending(plugin("plug-a", BOB), ROOM_A)));
    await assertFails(getDocs(pending(plugin("plug-b", ALICE), ROOM_A)));
    await assertFails(getDocs(pending(plugin("plug-a", ALICE, "desktop-agent"), ROOM_A)));
    const user = env.authenticatedContext(ALICE).firestore() as unknown as Firestore;
    await assertFails(getDocs(pending(user, ROOM_A)));
    await assertFails(getDocs(pending(env.unauthenticatedContext().firestore() as unknown as Firestore, ROOM_A)));
  });

  test("a revoked device reads nothing, not even its own room", async () => {
    await assertFails(getDocs(pending(plugin("plug-old", ALICE), ROOM_OLD)));
    await assertFails(updateDoc(doc(plugin("plug-old", ALICE), `figma_sessions/${ROOM_OLD}`), { lastSeenAt: serverTimestamp() }));
  });

  test("stamps only its own session's lastSeenAt, only with the server's time", async () => {
    const db = plugin("plug-a", ALICE);
    await assertSucceeds(updateDoc(doc(db, `figma_sessions/${ROOM_A}`), { lastSeenAt: serverTimestamp() }));
    await assertFails(updateDoc(doc(db, `figma_sessions/${ROOM_A}`), { lastSeenAt: new Date(Date.now() + 3_600_000) }));
    await assertFails(updateDoc(doc(db, `figma_sessions/${ROOM_A}`), { lastSeenAt: serverTimestamp(), pollId: "mine" }));
    await assertFails(updateDoc(doc(db, `figma_sessions/${ROOM_A}`), { ownerUid: BOB }));
    await assertFails(updateDoc(doc(db, `figma_sessions/${ROOM_A2}`), { lastSeenAt: serverTimestamp() }));
    await assertFails(updateDoc(doc(db, `figma_sessions/${ROOM_B}`), { lastSeenAt: serverTimestamp() }));
    await assertFails(setDoc(doc(db, "figma_sessions/room-cccccccccccccccccccccccc"), { ownerUid: ALICE, deviceId: "plug-a", lastSeenAt: serverTimestamp() }));
    await assertFails(deleteDoc(doc(db, `figma_sessions/${ROOM_A}`)));
  });

  test("claims a pending command of its own room once, at the server's time; nothing else", async () => {
    const db = plugin("plug-a", ALICE);
    const cmd = (room: string, id: string) => doc(db, `figma_sessions/${room}/figma_commands/${id}`);
    await assertFails(updateDoc(cmd(ROOM_A, "c2"), { state: "delivered" })); // no deliveredAt
    await assertFails(updateDoc(cmd(ROOM_A, "c2"), { state: "delivered", deliveredAt: new Date() })); // the client's clock
    await assertFails(updateDoc(cmd(ROOM_A, "c2"), { state: "delivered", deliveredAt: serverTimestamp(), tool: "delete_node" }));
    await assertFails(updateDoc(cmd(ROOM_A, "c2"), { state: "done", resultJson: "{}" }));
    await assertSucceeds(updateDoc(cmd(ROOM_A, "c2"), { state: "delivered", deliveredAt: serverTimestamp() }));
    // Taken: a second claim (this plugin's again, or another window's) is refused.
    await assertFails(updateDoc(cmd(ROOM_A, "c2"), { state: "delivered", deliveredAt: serverTimestamp() }));
    await assertFails(updateDoc(cmd(ROOM_A2, "c2"), { state: "delivered", deliveredAt: serverTimestamp() }));
    await assertFails(updateDoc(cmd(ROOM_B, "c2"), { state: "delivered", deliveredAt: serverTimestamp() }));
    await assertFails(updateDoc(doc(plugin("plug-old", ALICE), `figma_sessions/${ROOM_OLD}/figma_commands/c2`), { state: "delivered", deliveredAt: serverTimestamp() }));
    await assertFails(updateDoc(doc(plugin("plug-a", ALICE, "desktop-agent"), `figma_sessions/${ROOM_A}/figma_commands/c3`), { state: "delivered", deliveredAt: serverTimestamp() }));
    await assertFails(setDoc(cmd(ROOM_A, "c9"), { tool: "delete_node", state: "pending" }));
    await assertFails(deleteDoc(cmd(ROOM_A, "c1")));
  });
});
