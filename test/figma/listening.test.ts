// An open plugin that waits in Firestore: signed in as its device with the token the function
// hands out at register, it listens to its room's pending commands, claims each there (a write the
// rules allow once per command) and answers through the function, and holds no request at the function while idle (its keep-alive
// is a write of the session's lastSeenAt). A listening plugin that stops is noticed as a polling
// one is; when listening cannot start it long-polls, and says so.
import { afterEach, describe, expect, test } from "vitest";
import { adminDb, createUser } from "../support/emulators.js";
import type { PluginProcess } from "./plugin.js";
import { callTool, figmaClient, openPlugin, stopAllPlugins, structured, textOf } from "./support.js";

afterEach(stopAllPlugins);

type Request = [number, number, string];
const requests = async (p: PluginProcess): Promise<Request[]> => {
  const before = p.messages.length;
  p.child.send({ type: "net" });
  return (await p.next((m) => m.type === "net" && p.messages.indexOf(m) >= before)).requests as Request[];
};
const modeOf = (p: PluginProcess) => {
  const connected = p.messages.filter((m) => m.type === "state" && (m.state as { status: string }).status === "connected").at(-1);
  return connected?.state as { mode: string; why?: string };
};
const lastSeen = async (roomId: string) => (await adminDb().doc(`figma_sessions/${roomId}`).get()).get("lastSeenAt").toMillis() as number;
const pendingCommands = async (roomId: string) => (await adminDb().collection(`figma_sessions/${roomId}/figma_commands`).get()).size;

type Node = { name: string; characters?: string; children?: Node[] };
const texts = (n: Node): string[] => [...(n.characters !== undefined ? [n.characters] : []), ...(n.children ?? []).flatMap(texts)];

describe("listening in Firestore", () => {
  test("commands reach the plugin and answers come back, each command run once; idle, it keeps no request at the function and stays alive", async () => {
    const user = await createUser();
    const plugin = await openPlugin(user, { fileName: "Listening" });
    expect(modeOf(plugin)).toMatchObject({ mode: "listening" });
    const agent = await figmaClient(user);

    const r = await callTool(agent, "get_selection");
    expect(structured(r), textOf(r)).toMatchObject({ sessionId: plugin.roomId, fileName: "Listening", selection: [{ id: "1:2" }] });

    // Several at once: each is claimed by exactly one claim and run exactly once.
    const made = await Promise.all(Array.from({ length: 3 }, (_, i) => callTool(agent, "create_text", { x: 0, y: i * 30, text: `listened-${i}` })));
    for (const m of made) expect(m.isError, textOf(m)).toBeFalsy();
    const run = plugin.messages.filter((m) => m.type === "command").map((m) => m.commandId);
    expect(new Set(run).size).toBe(run.length);
    const listened = texts((await plugin.dump()) as Node).filter((t) => t.startsWith("listened-"));
    expect(listened.sort()).toEqual(Array.from({ length: 3 }, (_, i) => `listened-${i}`));
    expect(await pendingCommands(plugin.roomId)).toBe(0);

    // Commands are claimed in Firestore; the function only registers the plugin and takes its answers.
    const used = new Set((await requests(plugin)).map(([, , path]) => path.split("?")[0]));
    expect([...used].sort()).toEqual(["/plugin/results", "/plugin/sessions"]);
    const delivered = await adminDb().collection(`figma_sessions/${plugin.roomId}/figma_commands`).get();
    expect(delivered.size).toBe(0); // answered, then removed by the waiting tools

    // Idle: its lastSeenAt keeps moving (written in Firestore) while no request goes to the function.
    while ((await requests(plugin)).some(([, end]) => end < 0)) await new Promise((res) => setTimeout(res, 100)); // the last answers' posts
    const idleFrom = Date.now();
    const seenBefore = await lastSeen(plugin.roomId);
    let seenNow = seenBefore;
    for (let i = 0; i < 60 && seenNow <= seenBefore; i++) {
      await new Promise((res) => setTimeout(res, 500));
      seenNow = await lastSeen(plugin.roomId);
    }
    expect(seenNow).toBeGreaterThan(seenBefore);
    expect((await requests(plugin)).filter(([start, end]) => end > idleFrom || start > idleFrom)).toEqual([]);
    expect(structured(await callTool(agent, "list_sessions"))).toMatchObject({ count: 1, sessions: [{ roomId: plugin.roomId }] });
    await agent.close();
  }, 180_000);

  test("a listening plugin that stops is noticed: the waiting tool says it stopped responding; nothing is left", async () => {
    const user = await createUser();
    const plugin = await openPlugin(user, { fileName: "Stops", dieOnTool: "delete_node" });
    expect(modeOf(plugin)).toMatchObject({ mode: "listening" });
    const agent = await figmaClient(user);
    const r = await callTool(agent, "delete_node", { nodeId: "1:4" });
    expect(textOf(r)).toMatch(
      new RegExp(
        `^Error: The Figma plugin for "Stops" \\(${plugin.roomId}\\) stopped responding \\(no heartbeat for \\d+ seconds\\): ` +
          "check that Figma is still open, the computer is awake and online, and the plugin window shows Connected, then try again \\(503\\)$",
      ),
    );
    expect(await pendingCommands(plugin.roomId)).toBe(0);
    expect(textOf(await callTool(agent, "get_selection"))).toMatch(/^Error: No active Figma plugin sessions: the user should open the plugin\./);
    await agent.close();
  });

  test("a listening plugin closed: the session ends at once", async () => {
    const user = await createUser();
    const plugin = await openPlugin(user, { fileName: "Closes" });
    await plugin.close();
    expect((await adminDb().doc(`figma_sessions/${plugin.roomId}`).get()).exists).toBe(false);
  });
});

describe("falling back to the long-poll", () => {
  test("when Firebase cannot be reached, the plugin long-polls, says why, and answers as before", async () => {
    const user = await createUser();
    const plugin = await openPlugin(user, { fileName: "Refused", refuseListening: true });
    expect(modeOf(plugin)).toMatchObject({ mode: "polling", why: expect.stringMatching(/^Firestore could not be reached \(.+\)$/) });
    const agent = await figmaClient(user);
    const r = await callTool(agent, "create_text", { x: 0, y: 0, text: "polled" });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(texts((await plugin.dump()) as Node)).toContain("polled");
    const used = (await requests(plugin)).map(([, , path]) => path.split("?")[0]);
    expect(used).toContain("/plugin/commands");
    await agent.close();
  });

  test("turned off, the plugin long-polls", async () => {
    const user = await createUser();
    const plugin = await openPlugin(user, { fileName: "Off", listen: "off" });
    expect(modeOf(plugin)).toMatchObject({ mode: "polling", why: "listening is turned off" });
    const agent = await figmaClient(user);
    expect(structured(await callTool(agent, "get_selection"))).toMatchObject({ sessionId: plugin.roomId });
    await agent.close();
  });
});
