// take_screenshot end to end: a real X display with a real window, the real desktop agent
// process paired through the real device flow, the fotos function in the emulator suite, a real
// MCP client. Covers every mode of the seed, delay, no matching window, the agent stopped, killed
// mid-capture, restarted, paused, without a display, and what another user can not do.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import sharp from "sharp";
import type { Client } from "@modelcontextprotocol/client";
import { adminDb, createUser, functionUrl, idTokenFor, type TestUser } from "../support/emulators.js";
import { callTool, connect, textOf } from "../support/mcp.js";
import { confirmUserCode, pairDevice } from "../support/devices.js";
import {
  agentCommand,
  agentCommandWith,
  ensureX11Packages,
  newAgentHome,
  openWindow,
  pairAgent,
  pairedAgent,
  runAgent,
  startProxy,
  startTwoMonitorDisplay,
  startXvfb,
  waitFor,
  type AgentProcess,
  type TestWindow,
  type XDisplay,
} from "./agent-harness.js";

const WINDOW_TITLE = "Fotos Test Window - Invoice 4711";
const WINDOW_TEXT = "HELLO FOTOS 4711";

let x: XDisplay;
let win: TestWindow;
let alice: TestUser;
let bob: TestUser;
let aliceHome: string;
let agent: AgentProcess;
let client: Client;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

async function imageOf(result: Awaited<ReturnType<typeof callTool>>) {
  const block = result.content.find((c) => c.type === "image");
  if (!block || block.type !== "image") throw new Error(`no image in ${JSON.stringify(result).slice(0, 300)}`);
  const data = Buffer.from(block.data, "base64");
  return { data, mimeType: block.mimeType, meta: await sharp(data).metadata() };
}

async function readScreenshot(c: Client, id: string) {
  const res = await c.readResource({ uri: `screenshots://${id}` });
  const blob = res.contents.find((r) => "blob" in r);
  const json = res.contents.find((r) => "text" in r);
  const png = Buffer.from((blob as { blob: string }).blob, "base64");
  return { png, meta: JSON.parse((json as { text: string }).text), size: await sharp(png).metadata() };
}

const aliceDevice = async () => (await adminDb().collection("fotosAgents").where("owner", "==", alice.uid).get()).docs[0]!.id;
const requestsOf = async (device: string) => (await adminDb().collection("fotosCaptureRequests").where("device", "==", device).get()).docs;

beforeAll(async () => {
  await ensureX11Packages();
  x = await startXvfb(1920, 1080);
  cleanups.push(() => x.stop());
  win = await openWindow(x.display, WINDOW_TITLE, WINDOW_TEXT);
  cleanups.push(() => win.close());
  bob = await createUser();
  ({ user: alice, home: aliceHome, agent, client } = await pairedAgent("alice-laptop", x.display, cleanups));
}, 300_000);

// A failed test shows what the agent printed (its log says what it saw and did).
afterEach((ctx) => {
  if (ctx.task.result?.state === "fail" && agent) console.error(`agent output:\n${agent.output()}`);
});

afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
});

describe("the paired agent captures on request", () => {
  test("the agent keeps its credential in a file only the user can read, and ran without a tray (Xvfb has none)", async () => {
    const { statSync } = await import("node:fs");
    expect(statSync(`${aliceHome}/credentials.json`).mode & 0o777).toBe(0o600);
    expect(agent.output()).toMatch(/console mode/);
    const status = await agentCommand(aliceHome, "status");
    expect(status.code).toBe(0);
    expect(status.output).toMatch(/paired: "alice-laptop"/);
    expect(status.output).toMatch(/credential accepted/);
  });

  test("starts at login only when asked: `autostart enable` writes an XDG autostart entry running this agent, `disable` removes it", async () => {
    const { existsSync, mkdtempSync, readFileSync } = await import("node:fs");
    const config = mkdtempSync("/tmp/fotos-xdg-");
    const entry = `${config}/autostart/fotos-agent.desktop`;
    expect(existsSync(entry)).toBe(false);
    const on = await agentCommandWith({ XDG_CONFIG_HOME: config }, aliceHome, "autostart", "enable");
    expect(on.code).toBe(0);
    const text = readFileSync(entry, "utf8");
    expect(text).toMatch(/^\[Desktop Entry\]\nType=Application\nName=Fotos agent\n/);
    expect(text).toContain(`Exec=env FOTOS_AGENT_HOME="${aliceHome}" "${process.execPath}" "`);
    expect(text).toMatch(/desktop-agent\/bin\/fotos-agent\.js" run\n/);
    expect((await agentCommandWith({ XDG_CONFIG_HOME: config }, aliceHome, "status")).output).toContain(`autostart: ${entry}`);
    await agentCommandWith({ XDG_CONFIG_HOME: config }, aliceHome, "autostart", "disable");
    expect(existsSync(entry)).toBe(false);
  });

  test("fullscreen (the default): the whole screen, a model-sized copy, the original behind screenshots://{id}, listed first", async () => {
    const result = await callTool(client, "take_screenshot", {});
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as Record<string, unknown>;
    expect(data).toMatchObject({ mode: "fullscreen", width: 1920, height: 1080, agent: "alice-laptop", otherAgents: [] });
    expect(textOf(result)).toContain(`Screenshot ${data.id}: 1920×1080 px, fullscreen`);
    const image = await imageOf(result);
    expect(Math.max(image.meta.width!, image.meta.height!)).toBe(1568);
    expect(image.data.length).toBeLessThan(1024 * 1024);

    const original = await readScreenshot(client, data.id as string);
    expect([original.size.width, original.size.height]).toEqual([1920, 1080]);
    expect(original.meta).toMatchObject({ id: data.id, mode: "fullscreen", width: 1920, height: 1080 });
    // The window is really in the picture: white xterm where it was opened, black root elsewhere.
    const { data: px, info } = await sharp(original.png).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => px[(y * info.width + x) * info.channels]!;
    expect(at(100 + Math.floor(win.width / 2), 100 + win.height - 5)).toBeGreaterThan(200);
    expect(at(1800, 1000)).toBeLessThan(30);

    const list = await callTool(client, "list_screenshots", {});
    expect((list.structuredContent as { screenshots: { id: string }[] }).screenshots[0]!.id).toBe(data.id);
  });

  test("window by title, case-insensitive: exactly that window's pixels", async () => {
    const result = await callTool(client, "take_screenshot", { mode: "window", window_title: "fotos TEST window - invoice" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ mode: "window", windowTitle: "fotos TEST window - invoice", width: win.width, height: win.height });
    const image = await imageOf(result);
    expect([image.meta.width, image.meta.height]).toEqual([win.width, win.height]);
  });

  test("delay_ms is waited before the capture, with progress meanwhile", async () => {
    const progress: number[] = [];
    const started = Date.now();
    const result = await client.callTool(
      { name: "take_screenshot", arguments: { delay_ms: 2000 } },
      { onprogress: (p) => void progress.push(p.progress) },
    );
    const elapsed = Date.now() - started;
    expect(result.isError).toBeFalsy();
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(progress.length).toBeGreaterThan(0);
  });

  test("no matching window: the seed's error, word for word from the agent, and nothing stored", async () => {
    const before = (await callTool(client, "list_screenshots", { limit: 100 })).structuredContent as { count: number };
    const result = await callTool(client, "take_screenshot", { mode: "window", window_title: "no-such-window-xyz" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      'Error: No window found whose title contains "no-such-window-xyz" (case-insensitive): check the title or capture the fullscreen instead (404)',
    );
    const after = (await callTool(client, "list_screenshots", { limit: 100 })).structuredContent as { count: number };
    expect(after.count).toBe(before.count);
  });

  test("window mode without window_title, and a monitor that does not exist, are refused before the agent is asked", async () => {
    const noTitle = await callTool(client, "take_screenshot", { mode: "window" });
    expect(textOf(noTitle)).toMatch(/^Error: Invalid input: window_title is required when mode is "window"/);
    const noMonitor = await callTool(client, "take_screenshot", { mode: "monitor", monitor_index: 3 });
    expect(textOf(noMonitor)).toMatch(/^Error: Invalid input: monitor_index 3 does not exist on "alice-laptop", which has 1 monitor \(0: 1920×1080 at 0,0\)/);
  });

  test("paused captures are refused with an error that says so; resumed, they work again", async () => {
    await agentCommand(aliceHome, "pause");
    await agent.waitForOutput(/captures paused/);
    const paused = await callTool(client, "take_screenshot", {});
    expect(textOf(paused)).toMatch(/^Error: Captures are paused on "alice-laptop": resume them/);
    await agentCommand(aliceHome, "resume");
    await agent.waitForOutput(/captures resumed/);
    expect((await callTool(client, "take_screenshot", {})).isError).toBeFalsy();
  });
});

describe("another user", () => {
  test("cannot have Alice's agent capture, nor list or read her screenshots", async () => {
    const mine = ((await callTool(client, "list_screenshots", {})).structuredContent as { screenshots: { id: string }[] }).screenshots;
    const deviceId = await aliceDevice();
    const before = (await requestsOf(deviceId)).length;
    const bobClient = await connect("fotos", { token: bob.token });
    try {
      const capture = await callTool(bobClient, "take_screenshot", {});
      expect(textOf(capture)).toMatch(/^Error: Fotos application is not running: no Fotos agent is paired with your account yet\. To capture screenshots, start it with `npx fotos-agent run`/);
      expect((await callTool(bobClient, "list_screenshots", {})).structuredContent).toEqual({ count: 0, screenshots: [] });
      const theirs = await bobClient.readResource({ uri: `screenshots://${mine[0]!.id}` }).catch((e: Error) => e.message);
      const unknown = await bobClient.readResource({ uri: "screenshots://00000000-0000-0000-0000-000000000000" }).catch((e: Error) => e.message);
      expect(theirs).toContain("Screenshot not found");
      expect(String(theirs).replace(mine[0]!.id, "ID")).toBe(String(unknown).replace("00000000-0000-0000-0000-000000000000", "ID"));
    } finally {
      await bobClient.close();
    }
    expect((await requestsOf(deviceId)).length).toBe(before);
  });

  test("cannot claim, answer or upload for Alice's requests with their own paired agent, and Alice's sign-in is no device token", async () => {
    const deviceId = await aliceDevice();
    // A request for one of Alice's devices that is not running, so her agent does not take it.
    const ref = adminDb().collection("fotosCaptureRequests").doc();
    await ref.set({ owner: alice.uid, device: `${deviceId}-other`, status: "pending", mode: "fullscreen", delayMs: 0, createdAt: new Date(), expiresAt: new Date(Date.now() + 60_000) });
    const bobDevice = await pairDevice(bob, "desktop-agent", "bob-pc");
    bob.token = await idTokenFor(bob.uid);
    const post = (path: string, token: string, body: unknown, type = "application/json") =>
      fetch(functionUrl("fotos", path), { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": type }, body: body as string });
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#ff0000" } }).png().toBuffer();
    const claim = await post("/agent/claim", bobDevice.accessToken, JSON.stringify({ requestId: ref.id, sessionId: "bob-session-1" }));
    expect(claim.status).toBe(403);
    const upload = await post(`/agent/upload?request=${ref.id}`, bobDevice.accessToken, new Uint8Array(png), "image/png");
    expect(upload.status).toBe(403);
    const fail = await post("/agent/fail", bobDevice.accessToken, JSON.stringify({ requestId: ref.id, error: "nope" }));
    expect(fail.status).toBe(403);
    const withIdToken = await post("/agent/claim", alice.token, JSON.stringify({ requestId: ref.id, sessionId: "alice-session-1" }));
    expect([401, 403]).toContain(withIdToken.status);
    expect((await ref.get()).get("status")).toBe("pending");
  });
});

describe("when the agent is not there", () => {
  test("killed mid-capture: the tool ends with a clear error soon after, and nothing is left pending", async () => {
    const deviceId = await aliceDevice();
    const call = callTool(client, "take_screenshot", { delay_ms: 60_000 });
    await waitFor("the agent to claim the request", async () => (await requestsOf(deviceId)).some((d) => d.get("status") === "claimed"));
    await agent.kill();
    const result = await call;
    expect(textOf(result)).toMatch(/^Error: The Fotos agent on "alice-laptop" stopped before it answered \(last seen .+\), so no screenshot was taken\. Start it again/);
    const open = (await requestsOf(deviceId)).filter((d) => ["pending", "claimed"].includes(d.get("status")));
    expect(open).toEqual([]);
  });

  test("restarted, the same agent captures again", async () => {
    agent = await runAgent(aliceHome, x.display);
    const result = await callTool(client, "take_screenshot", { mode: "window", window_title: "invoice 4711" });
    expect(result.isError).toBeFalsy();
  });

  test("stopped: the seed's 'not running' error naming when it was last seen and how to start it, without waiting for a timeout", async () => {
    expect(await agent.stop()).toBe(0);
    const result = await callTool(client, "take_screenshot", {});
    expect(textOf(result)).toMatch(
      /^Error: Fotos application is not running: no Fotos agent of yours is online \(last seen \d{4}-\d\d-\d\dT[\d:.]+Z on "alice-laptop"\)\. To capture screenshots, start it with `npx fotos-agent run` on your computer/,
    );
    agent = await runAgent(aliceHome, x.display); // for the tests after this one
  });

  test("started without a display: the seed's 'no display server' error", async () => {
    const dave = await createUser();
    const home = newAgentHome();
    await pairAgent(home, "dave-server", (code) => confirmUserCode(dave, code));
    dave.token = await idTokenFor(dave.uid);
    const headless = await runAgent(home, undefined);
    try {
      const daveClient = await connect("fotos", { token: dave.token });
      const result = await callTool(daveClient, "take_screenshot", {});
      await daveClient.close();
      expect(textOf(result)).toMatch(/^Error: No display server is available for screenshot capture: the Fotos agent on "dave-server" runs without a graphical session/);
    } finally {
      await headless.stop();
    }
  });
});

describe("a network drop while the agent answers", () => {
  test("the upload is retried when the network is back: the tool gets its screenshot, stored once", async () => {
    const erin = await createUser();
    const home = newAgentHome();
    await pairAgent(home, "erin-laptop", (code) => confirmUserCode(erin, code));
    erin.token = await idTokenFor(erin.uid);
    // The agent reaches the functions through a proxy that can drop (its Firestore listener does not).
    const functions = new URL(functionUrl("fotos"));
    const proxy = await startProxy(Number(functions.port));
    const { readFileSync, writeFileSync } = await import("node:fs");
    const credsPath = `${home}/credentials.json`;
    const via = (url: string) => url.replace(functions.host, `127.0.0.1:${proxy.port}`);
    const creds = JSON.parse(readFileSync(credsPath, "utf8"));
    writeFileSync(credsPath, JSON.stringify({ ...creds, server: via(creds.server), tokenEndpoint: via(creds.tokenEndpoint) }), { mode: 0o600 });
    const erinAgent = await runAgent(home, x.display, { FOTOS_AGENT_HEARTBEAT_MS: "5000" });
    const erinClient = await connect("fotos", { token: erin.token });
    let passed = false;
    try {
      const deviceId = (await adminDb().collection("fotosAgents").where("owner", "==", erin.uid).get()).docs[0]!.id;
      const call = callTool(erinClient, "take_screenshot", { delay_ms: 5000 });
      // The claim's answer has reached the agent (it logs the capture it is about to take, after the delay).
      await erinAgent.waitForOutput(/capture [0-9a-f-]+: fullscreen after 5000 ms/);
      await proxy.down();
      await erinAgent.waitForOutput(/\/agent\/upload failed .*retrying/);
      await proxy.up();
      const result = await call;
      expect(result.isError).toBeFalsy();
      const done = (await requestsOf(deviceId)).filter((d) => d.get("status") === "done");
      expect(done).toHaveLength(1);
      const listed = (await callTool(erinClient, "list_screenshots", {})).structuredContent as { count: number; screenshots: { id: string }[] };
      expect(listed.count).toBe(1);
      expect(listed.screenshots[0]!.id).toBe(done[0]!.get("screenshotId"));
      passed = true;
    } finally {
      if (!passed) console.error(`agent output:\n${erinAgent.output()}`);
      await erinClient.close();
      await erinAgent.stop();
      await proxy.close();
    }
  }, 180_000);
});

describe("two monitors (Xorg dummy driver: two xrandr outputs side by side)", () => {
  let two: XDisplay;
  let carol: TestUser;
  let carolAgent: AgentProcess;
  let carolClient: Client;

  beforeAll(async () => {
    two = await startTwoMonitorDisplay({ width: 1920, height: 1080 }, { width: 1280, height: 1024 });
    carol = await createUser();
    const home = newAgentHome();
    await pairAgent(home, "carol-desk", (code) => confirmUserCode(carol, code));
    carol.token = await idTokenFor(carol.uid);
    carolAgent = await runAgent(home, two.display);
    carolClient = await connect("fotos", { token: carol.token });
  }, 180_000);
  afterAll(async () => {
    await carolClient?.close();
    await carolAgent?.stop();
    await two?.stop();
  });

  test("the agent reports both monitors with their sizes and positions", async () => {
    const snap = await adminDb().collection("fotosAgents").where("owner", "==", carol.uid).get();
    expect(snap.docs[0]!.get("monitors")).toEqual([
      expect.objectContaining({ index: 0, width: 1920, height: 1080, x: 0, y: 0 }),
      expect.objectContaining({ index: 1, width: 1280, height: 1024, x: 1920, y: 0 }),
    ]);
  });

  test("monitor by index captures only that monitor; fullscreen composites both at their positions", async () => {
    const second = await callTool(carolClient, "take_screenshot", { mode: "monitor", monitor_index: 1 });
    expect(second.structuredContent).toMatchObject({ mode: "monitor", monitorIndex: 1, width: 1280, height: 1024 });
    const first = await callTool(carolClient, "take_screenshot", { mode: "monitor", monitor_index: 0 });
    expect(first.structuredContent).toMatchObject({ mode: "monitor", monitorIndex: 0, width: 1920, height: 1080 });
    const all = await callTool(carolClient, "take_screenshot", { mode: "fullscreen" });
    expect(all.structuredContent).toMatchObject({ mode: "fullscreen", width: 3200, height: 1080 });
  });

  test("a call that names no mode takes what the person's capture.defaultMode says; a call that names one takes that", async () => {
    const settings = adminDb().doc(`users/${carol.uid}/fotos/settings`);
    await settings.set({ capture: { defaultMode: "monitor" } });
    try {
      const unnamed = await callTool(carolClient, "take_screenshot", { monitor_index: 1 });
      expect(unnamed.structuredContent).toMatchObject({ mode: "monitor", monitorIndex: 1, width: 1280, height: 1024 });
      const named = await callTool(carolClient, "take_screenshot", { mode: "fullscreen" });
      expect(named.structuredContent).toMatchObject({ mode: "fullscreen", width: 3200 });
    } finally {
      await settings.delete();
    }
  });
});
