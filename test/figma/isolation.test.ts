// Only sessions the caller's own paired plugins registered are ever reachable. A second user who
// knows the first user's Figma user id and room id reaches nothing: not through ?userIds=, not
// through an explicit room id, not through the plugin routes with their own plugin's token, not in
// Firestore with the sign-in their own plugin is given, and not through Firestore directly (rules
// deny every user; a plugin's own reads: rules.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertFails, type RulesTestEnvironment } from "@firebase/rules-unit-testing";
import { rulesEnvironment } from "../support/rules.js";
import { collection, connectFirestoreEmulator, doc, getDoc, getDocs, initializeFirestore, query, serverTimestamp, setDoc, updateDoc, where, type Firestore } from "firebase/firestore";
import { deleteApp, initializeApp } from "firebase/app";
import { connectAuthEmulator, inMemoryPersistence, initializeAuth, signInWithCustomToken } from "firebase/auth";
import type { SessionRegistered } from "../../functions/src/contracts/figma-plugin.js";
import { adminDb, createUser, functionUrl, type TestUser } from "../support/emulators.js";
import { pairDevice } from "../support/devices.js";
import type { PluginProcess } from "./plugin.js";
import { callTool, figmaClient, openPlugin, stopAllPlugins, structured, textOf } from "./support.js";

let alice: TestUser;
let mallory: TestUser;
let alicePlugin: PluginProcess;
let malloryToken: string;

beforeAll(async () => {
  alice = await createUser();
  mallory = await createUser();
  alicePlugin = await openPlugin(alice, { fileName: "Secret roadmap", figmaUserId: "4242", figmaUserName: "Alice" });
  malloryToken = (await pairDevice(mallory, "figma-plugin", "Mallory's plugin")).accessToken;
});
afterAll(stopAllPlugins);

const notFoundText = (roomId: string) => new RegExp(`^Error: Figma session "${roomId}" is not open \\(closed, or not yours\\): call list_sessions`);

describe("through MCP", () => {
  test("Alice's Figma user id in Mallory's URL finds nothing", async () => {
    const agent = await figmaClient(mallory, { userIds: ["4242"] });
    const r = await callTool(agent, "get_document_info");
    expect(textOf(r)).toMatch(/^Error: No active Figma plugin sessions for Figma user id 4242: the user should open the plugin\./);
    expect(structured(await callTool(agent, "list_sessions"))).toMatchObject({ count: 0, sessions: [] });
    await agent.close();
  });

  test("Alice's room id reads exactly like an unknown one", async () => {
    const agent = await figmaClient(mallory);
    const mine = await callTool(agent, "get_document_info", { sessionId: alicePlugin.roomId });
    const unknown = await callTool(agent, "get_document_info", { sessionId: "room-ffffffffffffffffffffffff" });
    expect(mine.isError).toBe(true);
    expect(textOf(mine)).toMatch(notFoundText(alicePlugin.roomId));
    expect(textOf(mine).replace(alicePlugin.roomId, "X")).toBe(textOf(unknown).replace("room-ffffffffffffffffffffffff", "X"));
    for (const tool of ["delete_node", "set_text_content"]) {
      const r = await callTool(agent, tool, { sessionId: alicePlugin.roomId, nodeId: "1:2", text: "pwned" });
      expect(textOf(r)).toMatch(notFoundText(alicePlugin.roomId));
    }
    await agent.close();
    // Nothing reached Alice's plugin.
    expect(alicePlugin.messages.filter((m) => m.type === "command")).toEqual([]);
  });
});

describe("through the plugin routes with Mallory's own plugin token", () => {
  const post = (path: string, body: unknown, token = malloryToken) =>
    fetch(functionUrl("figma", path), { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", origin: "null" }, body: JSON.stringify(body) });

  test("polling, heartbeating, answering or closing Alice's room: 404, and Alice's session is untouched", async () => {
    const poll = await fetch(functionUrl("figma", `/plugin/commands?room=${alicePlugin.roomId}`), { headers: { authorization: `Bearer ${malloryToken}`, origin: "null" } });
    expect(poll.status).toBe(404);
    expect((await post("/plugin/heartbeat", { roomId: alicePlugin.roomId })).status).toBe(404);
    expect((await post("/plugin/results", { roomId: alicePlugin.roomId, commandId: "0".repeat(24), ok: true, result: {} })).status).toBe(404);
    expect((await post("/plugin/close", { roomId: alicePlugin.roomId })).status).toBe(404);
    expect((await adminDb().doc(`figma_sessions/${alicePlugin.roomId}`).get()).exists).toBe(true);
  });

  test("registering with Alice's room id gets Mallory a room of her own", async () => {
    const res = await post("/plugin/sessions", { roomId: alicePlugin.roomId, figmaUserId: "4242", figmaUserName: "Alice", fileName: "Secret roadmap" });
    expect(res.status).toBe(200);
    const { roomId } = (await res.json()) as { roomId: string };
    expect(roomId).toMatch(/^room-[0-9a-f]{24}$/);
    expect(roomId).not.toBe(alicePlugin.roomId);
    expect((await adminDb().doc(`figma_sessions/${alicePlugin.roomId}`).get()).data()).toMatchObject({ ownerUid: alice.uid, fileName: "Secret roadmap" });
    // Alice's agent still sees only Alice's session, even with Mallory's fake "Alice" session around.
    const agent = await figmaClient(alice);
    expect(structured(await callTool(agent, "get_selection"))).toMatchObject({ sessionId: alicePlugin.roomId });
    await agent.close();
  });

  test("in Firestore, signed in as her own plugin, Mallory reads and claims nothing of Alice's room; her own room she reads", async () => {
    const res = await post("/plugin/sessions", { figmaUserId: "666", figmaUserName: "Mallory", fileName: "Mine" });
    const { roomId, listen } = (await res.json()) as SessionRegistered;
    expect(listen).toBeDefined();
    const app = initializeApp({ projectId: listen!.firebase.projectId, apiKey: listen!.firebase.apiKey }, `mallory-${Date.now()}`);
    try {
      const auth = initializeAuth(app, { persistence: inMemoryPersistence });
      connectAuthEmulator(auth, `http://${listen!.firebase.authEmulatorHost}`, { disableWarnings: true });
      await signInWithCustomToken(auth, listen!.firebase_custom_token);
      const db = initializeFirestore(app, {});
      const [host, port] = listen!.firebase.firestoreEmulatorHost!.split(":");
      connectFirestoreEmulator(db, host!, Number(port));
      const pending = (room: string) => query(collection(db, `figma_sessions/${room}/figma_commands`), where("state", "==", "pending"));
      // Another room of Alice's plugin (no window listens to it) with a command waiting, as a tool files it.
      const aliceRoom = adminDb().doc(`figma_sessions/room-${"c".repeat(24)}`);
      await aliceRoom.create({ ...(await adminDb().doc(`figma_sessions/${alicePlugin.roomId}`).get()).data(), roomId: aliceRoom.id });
      const bait = aliceRoom.collection("figma_commands").doc("b".repeat(24));
      await bait.create({ commandId: bait.id, tool: "get_selection", argsJson: "{}", state: "pending", createdAt: new Date() });
      try {
        for (const room of [alicePlugin.roomId, aliceRoom.id]) await expect(getDocs(pending(room))).rejects.toMatchObject({ code: "permission-denied" });
        await expect(updateDoc(doc(db, bait.path), { state: "delivered", deliveredAt: serverTimestamp() })).rejects.toMatchObject({ code: "permission-denied" });
        await expect(updateDoc(doc(db, `figma_sessions/${alicePlugin.roomId}`), { lastSeenAt: serverTimestamp() })).rejects.toMatchObject({ code: "permission-denied" });
        expect((await bait.get()).get("state")).toBe("pending");
      } finally {
        await adminDb().recursiveDelete(aliceRoom);
      }
      expect((await getDocs(pending(roomId))).size).toBe(0);
    } finally {
      await deleteApp(app);
    }
  });

  test("a user's ID token is not a plugin credential", async () => {
    expect((await post("/plugin/sessions", { figmaUserId: "1", fileName: "x" }, mallory.token)).status).toBe(401);
  });
});

describe("through Firestore directly", () => {
  let env: RulesTestEnvironment;
  beforeAll(async () => {
    env = await rulesEnvironment("demo-rules-figma");
    await env.withSecurityRulesDisabled(async (ctx) => {
      await setDoc(doc(ctx.firestore() as unknown as Firestore, "figma_sessions/room-aaaaaaaaaaaaaaaaaaaaaaaa"), { ownerUid: "owner" });
    });
  });
  afterAll(async () => env?.cleanup());

  test("clients can neither read nor write the registry, not even their own sessions", async () => {
    const owner = env.authenticatedContext("owner").firestore() as unknown as Firestore;
    await assertFails(getDoc(doc(owner, "figma_sessions/room-aaaaaaaaaaaaaaaaaaaaaaaa")));
    await assertFails(getDocs(collection(owner, "figma_sessions")));
    await assertFails(setDoc(doc(owner, "figma_sessions/room-bbbbbbbbbbbbbbbbbbbbbbbb"), { ownerUid: "owner" }));
    await assertFails(setDoc(doc(owner, "figma_sessions/room-aaaaaaaaaaaaaaaaaaaaaaaa/figma_commands/x"), { tool: "delete_node" }));
  });
});
