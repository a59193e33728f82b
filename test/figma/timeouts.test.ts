// A tool never waits on a plugin that is gone: killed mid-command (no goodbye) → a clear error
// after the missed heartbeats (a 4 s keep-alive: two missed polls and a grace, 10 s);
// closed mid-command → at once. Either way nothing is left pending for a plugin to run later.
// The overall command timeout (FIGMA_COMMAND_TIMEOUT_MS, 60 s by default) is checked on an instance
// started with a short one.
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { startInstances, type Instances } from "../../scripts/emulator/instances.js";
import { adminDb, createUser } from "../support/emulators.js";
import { callTool, figmaClient, openPlugin, stopAllPlugins, textOf } from "./support.js";

afterEach(stopAllPlugins);

const configured = Number(process.env.FIGMA_COMMAND_TIMEOUT_MS ?? 60_000);
const pendingCommands = async (roomId: string) => (await adminDb().collection(`figma_sessions/${roomId}/figma_commands`).get()).size;

// With a command timeout shorter than the missed heartbeats (10 s), the timeout
// would answer first: these run with the default one.
describe.skipIf(configured < 20_000)("plugin gone mid-command", () => {
  test("killed after taking the command: the tool says the plugin stopped responding; nothing is left", async () => {
    const user = await createUser();
    const plugin = await openPlugin(user, { fileName: "Crashes", dieOnTool: "delete_node" });
    const agent = await figmaClient(user);
    const r = await callTool(agent, "delete_node", { nodeId: "1:4" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(
      new RegExp(
        `^Error: The Figma plugin for "Crashes" \\(${plugin.roomId}\\) stopped responding \\(no heartbeat for \\d+ seconds\\): ` +
          "check that Figma is still open, the computer is awake and online, and the plugin window shows Connected, then try again \\(503\\)$",
      ),
    );
    expect(plugin.messages.filter((m) => m.type === "command").map((m) => m.tool)).toEqual(["delete_node"]);
    expect(await pendingCommands(plugin.roomId)).toBe(0);
    // The dead session is no longer offered.
    expect(textOf(await callTool(agent, "get_selection"))).toMatch(/^Error: No active Figma plugin sessions: the user should open the plugin\./);
    await agent.close();
  });

  test("closed while the tool waits: the tool says so at once; nothing is left", async () => {
    const user = await createUser();
    const plugin = await openPlugin(user, { fileName: "Closes", hangOnTool: "get_styles" });
    const agent = await figmaClient(user);
    const call = callTool(agent, "get_styles");
    await plugin.next((m) => m.type === "command" && m.tool === "get_styles");
    await plugin.close();
    const r = await call;
    expect(textOf(r)).toBe(`Error: The Figma plugin for "Closes" (${plugin.roomId}) was closed before it answered: open the plugin in that file again, then retry (503)`);
    expect((await adminDb().doc(`figma_sessions/${plugin.roomId}`).get()).exists).toBe(false);
    expect(await pendingCommands(plugin.roomId)).toBe(0);
    await agent.close();
  });
});

test.skipIf(configured < 20_000)("while it waits, the tool reports MCP progress naming the file", async () => {
  const user = await createUser();
  const plugin = await openPlugin(user, { fileName: "Slow file", hangOnTool: "get_styles" });
  const agent = await figmaClient(user);
  const progress: { progress: number; total?: number; message?: string }[] = [];
  const call = agent.callTool({ name: "get_styles", arguments: {} }, { onprogress: (p) => void progress.push(p), timeout: 120_000 });
  await expect.poll(() => progress.length, { timeout: 30_000, interval: 200 }).toBeGreaterThan(0);
  expect(progress[0]).toMatchObject({ message: 'Waiting for Figma ("Slow file")…', total: configured });
  await plugin.close(); // ends the wait: "was closed"
  expect(textOf((await call) as never)).toMatch(/^Error: The Figma plugin for "Slow file" .* was closed before it answered/);
  await agent.close();
});

// The overall timeout, whatever the suite's setting: a figma instance of its own with a 3 s
// timeout (the functions' build served as Cloud Run does), the plugin on the suite's. They share
// the commands through Firestore, as two instances of the function do in production.
describe("a live plugin that never answers", () => {
  const SHORT_MS = 3000;
  let own: Instances;
  beforeAll(async () => {
    own = await startInstances(["figma"], { log: new PassThrough().resume(), env: { FIGMA_COMMAND_TIMEOUT_MS: String(SHORT_MS) } });
  }, 240_000);
  afterAll(() => own?.close());

  test("the tool times out naming the file and what to check; nothing is left pending", async () => {
    const user = await createUser();
    const plugin = await openPlugin(user, { fileName: "Busy", hangOnTool: "get_styles" });
    const agent = await figmaClient(user, { url: `http://${own.hosts.figma}/` });
    const r = await callTool(agent, "get_styles");
    expect(textOf(r)).toBe(
      `Error: Figma did not answer within ${SHORT_MS / 1000} seconds for "Busy" (${plugin.roomId}): check that the file is still open in Figma, ` +
        "that the MCP Bridge plugin window shows Connected and is not busy (a large export or scan can take a while), then try again (504)",
    );
    expect(plugin.messages.filter((m) => m.type === "command").map((m) => m.tool)).toEqual(["get_styles"]);
    expect(await pendingCommands(plugin.roomId)).toBe(0);
    await agent.close();
  });
});
