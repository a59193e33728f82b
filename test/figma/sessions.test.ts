// The seed's session flow, exactly: explicit room id; otherwise the sessions of the URL's
// ?userIds= (all of the caller's without it): 0 → open the plugin, 1 → used, several for one
// user → structured list (roomId, fileName, userName), several users → users with their sessions.
// Plus the registry's life cycle: closed → gone at once; silent → not offered and cleaned up;
// reconnect → same room.
import { afterEach, describe, expect, test } from "vitest";
import { adminDb, createUser } from "../support/emulators.js";
import { callTool, figmaClient, openPlugin, stopAllPlugins, structured, textOf } from "./support.js";

afterEach(stopAllPlugins);

const OPEN_PLUGIN =
  "In the Figma desktop app open the file, then run the MCP Bridge plugin (Plugins → Development → MCP Bridge, or Plugins → MCP Bridge once installed), " +
  "pair it with your account if it asks, and keep its window open until it shows Connected and a room id";

describe("resolution", () => {
  test("0 sessions: the user is told to open the plugin, and how", async () => {
    const user = await createUser();
    const agent = await figmaClient(user);
    const r = await callTool(agent, "get_selection");
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(`Error: No active Figma plugin sessions: the user should open the plugin. ${OPEN_PLUGIN} (404)`);
    const listed = await callTool(agent, "list_sessions");
    expect(structured(listed)).toEqual({ count: 0, userIds: [], sessions: [] });
    await agent.close();
  });

  test("1 session: used without asking; an explicit room id works too", async () => {
    const user = await createUser();
    const plugin = await openPlugin(user, { fileName: "Only file" });
    const agent = await figmaClient(user);
    const first = await callTool(agent, "get_selection");
    expect(structured(first), textOf(first)).toMatchObject({ sessionId: plugin.roomId, fileName: "Only file" });
    expect(structured(await callTool(agent, "get_selection", { sessionId: plugin.roomId }))).toMatchObject({ sessionId: plugin.roomId });
    expect(structured(await callTool(agent, "get_selection", { roomId: plugin.roomId }))).toMatchObject({ sessionId: plugin.roomId });
    await agent.close();
  });

  test("several sessions of one user: a structured list to choose from; the explicit id then picks one", async () => {
    const user = await createUser();
    const a = await openPlugin(user, { fileName: "Alpha", figmaUserId: "501", figmaUserName: "Grace" });
    const b = await openPlugin(user, { fileName: "Beta", figmaUserId: "501", figmaUserName: "Grace" });
    const agent = await figmaClient(user);
    const r = await callTool(agent, "get_document_info");
    expect(r.isError).toBe(true);
    const expected = [a, b]
      .map((p, i) => ({ roomId: p.roomId, fileName: ["Alpha", "Beta"][i], userName: "Grace", userId: "501", pageName: "Home" }));
    expect(structured(r)).toMatchObject({ error: "multiple_sessions", sessions: expected });
    expect(textOf(r)).toBe(
      `Error: 2 Figma sessions are open for Grace: ${a.roomId} ("Alpha", page "Home"); ${b.roomId} ("Beta", page "Home"). ` +
        "Ask the user which file to use, then call again with sessionId set to its room id (409)",
    );
    const chosen = await callTool(agent, "get_document_info", { sessionId: b.roomId, depth: 0 });
    expect(structured(chosen)).toMatchObject({ sessionId: b.roomId, fileName: "Beta" });
    await agent.close();
  });

  test("several users: the users with their names and sessions; ?userIds= narrows to one", async () => {
    const user = await createUser();
    const grace = await openPlugin(user, { fileName: "Alpha", figmaUserId: "501", figmaUserName: "Grace" });
    const linus = await openPlugin(user, { fileName: "Gamma", figmaUserId: "777", figmaUserName: "Linus" });
    const agent = await figmaClient(user);
    const r = await callTool(agent, "get_selection");
    expect(r.isError).toBe(true);
    expect(structured(r)).toMatchObject({
      error: "multiple_users",
      users: [
        { userId: "501", userName: "Grace", sessions: [{ roomId: grace.roomId, fileName: "Alpha" }] },
        { userId: "777", userName: "Linus", sessions: [{ roomId: linus.roomId, fileName: "Gamma" }] },
      ],
    });
    expect(textOf(r)).toContain(`Figma sessions are open for 2 users: Grace (Figma user id 501): ${grace.roomId} ("Alpha", page "Home") | Linus (Figma user id 777): ${linus.roomId} ("Gamma", page "Home")`);
    await agent.close();

    const linusAgent = await figmaClient(user, { userIds: ["777"] });
    expect(structured(await callTool(linusAgent, "get_selection"))).toMatchObject({ sessionId: linus.roomId, fileName: "Gamma" });
    expect(structured(await callTool(linusAgent, "list_sessions"))).toMatchObject({ count: 1, userIds: ["777"], sessions: [{ roomId: linus.roomId, userName: "Linus" }] });
    await linusAgent.close();

    const both = await figmaClient(user, { userIds: ["501", "777"] });
    const bothResult = await callTool(both, "get_selection");
    expect(structured(bothResult), textOf(bothResult)).toMatchObject({ error: "multiple_users" });
    await both.close();

    const nobody = await figmaClient(user, { userIds: ["999"] });
    expect(textOf(await callTool(nobody, "get_selection"))).toBe(`Error: No active Figma plugin sessions for Figma user id 999: the user should open the plugin. ${OPEN_PLUGIN} (404)`);
    await nobody.close();
  });

  test("an unknown or malformed room id", async () => {
    const user = await createUser();
    await openPlugin(user);
    const agent = await figmaClient(user);
    const unknown = await callTool(agent, "get_selection", { sessionId: "room-000000000000000000000000" });
    expect(textOf(unknown)).toBe(
      'Error: Figma session "room-000000000000000000000000" is not open (closed, or not yours): call list_sessions and pass one of the roomIds it lists as sessionId (404)',
    );
    const malformed = await callTool(agent, "get_selection", { sessionId: "Landing page" });
    expect(textOf(malformed)).toBe('Error: sessionId must be a room id of the form "room-…" (as list_sessions or the plugin window shows it), not "Landing page" (400)');
    await agent.close();
  });
});

describe("the registry's life cycle", () => {
  test("a closed plugin is gone at once; a silent one is not offered and is cleaned up", async () => {
    const user = await createUser();
    const closing = await openPlugin(user, { fileName: "Closing" });
    const crashing = await openPlugin(user, { fileName: "Crashing" });
    const agent = await figmaClient(user);
    expect(structured(await callTool(agent, "list_sessions")).count).toBe(2);

    await closing.close();
    expect((await adminDb().doc(`figma_sessions/${closing.roomId}`).get()).exists).toBe(false);
    const afterClose = structured(await callTool(agent, "list_sessions"));
    expect((afterClose.sessions as { roomId: string }[]).map((s) => s.roomId)).toEqual([crashing.roomId]);

    await crashing.kill(); // no goodbye: only the missing heartbeats tell
    await expect.poll(async () => structured(await callTool(agent, "list_sessions")).count, { timeout: 30_000, interval: 500 }).toBe(0);
    expect((await adminDb().doc(`figma_sessions/${crashing.roomId}`).get()).exists).toBe(false);
    await agent.close();
  });

  test("a plugin asking for a long keep-alive is held to 4 s, so a stopped one is noticed within 10 s", async () => {
    const user = await createUser();
    const slow = await openPlugin(user, { fileName: "Old plugin", keepaliveSeconds: 10 });
    const session = (await adminDb().doc(`figma_sessions/${slow.roomId}`).get()).data()!;
    expect(session.keepaliveSeconds).toBe(4);
  });

  test("a plugin that reconnects (network back, computer awake) keeps its room", async () => {
    const user = await createUser();
    const first = await openPlugin(user, { fileName: "Resumed" });
    const roomId = first.roomId;
    first.child.send({ type: "kick" }); // drop the connection and reconnect
    await first.next((m) => m.type === "state" && (m.state as { status: string }).status === "connecting");
    await first.next((m, ) => m.type === "state" && (m.state as { status: string; roomId?: string }).status === "connected" && first.messages.filter((x) => x.type === "state" && (x.state as { status: string }).status === "connected").length >= 2);
    const agent = await figmaClient(user);
    expect(structured(await callTool(agent, "get_selection", { sessionId: roomId }))).toMatchObject({ sessionId: roomId });
    expect(structured(await callTool(agent, "list_sessions")).count).toBe(1);
    await agent.close();
  });
});
