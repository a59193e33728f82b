// `fotos-agent mcp` bridged to the person's fotos function (in the emulator suite), started as
// Claude Desktop starts it, on an Xvfb desktop with a titled xterm. Paired once with
// `fotos-agent mcp pair` (the real device flow, confirmed as the person), the grant is listed on
// the connected-apps page; captures are taken here and appear in list_screenshots of the remote MCP
// URL; every other call is the function's (its store, OCR, settings); nothing is kept locally.
// Unreachable: --bridged says so naming the URL; without --bridged the server works standalone.
// Revoked on the connected-apps page: the next call says so.
import { spawn } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { adminDb, createUser, functionUrl, idTokenFor, type TestUser } from "../support/emulators.js";
import { connect } from "../support/mcp.js";
import { confirmUserCode, csrfOf, oauthUrl, signInCookie } from "../support/devices.js";
import { buildAgent, ensureX11Packages, openWindow, startXvfb, waitFor, type TestWindow, type XDisplay } from "./agent-harness.js";
import { call, FOTOS_AGENT_BIN, FOTOS_MCP_BIN, hostEnv, imageOf, startStdioServer, tempDir, textOf, type StdioServer } from "./stdio-harness.js";

const WINDOW_TITLE = "Fotos Bridged Window - Ticket 3141";
const WINDOW_TEXT = "Note: HELLO BRIDGE mail carol@example.com";
const DEVICE_NAME = "alice-desktop-claude";

let x: XDisplay;
let win: TestWindow;
let alice: TestUser;
let bob: TestUser;
let home: string;
let localFolder: string;
let server: StdioServer;
let remote: Client;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

/** `fotos-agent mcp pair` as the person runs it in a terminal, confirming the code in the browser as `user`. */
async function pairForMcp(agentHome: string, user: TestUser): Promise<void> {
  await buildAgent();
  const proc = spawn(process.execPath, [FOTOS_AGENT_BIN, "mcp", "pair", "--server", functionUrl("fotos"), "--name", DEVICE_NAME], {
    env: { ...process.env, FOTOS_AGENT_HOME: agentHome },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  proc.stderr.on("data", (d) => (out += d));
  const [code] = await waitFor("the pairing code", () => /\b[A-Z]{4}-[A-Z]{4}\b/.exec(out) ?? (proc.exitCode !== null ? Promise.reject(new Error(out)) : undefined));
  await confirmUserCode(user, code);
  const status = await new Promise<number | null>((r) => (proc.exitCode !== null ? r(proc.exitCode) : proc.once("exit", r)));
  expect(status, out).toBe(0);
  expect(out).toContain(`Paired "${DEVICE_NAME}" for AI apps on this computer`);
}

const remoteList = async (client: Client, limit = 10) =>
  ((await call(client, "list_screenshots", { limit })).structuredContent as { screenshots: { id: string; mode: string; windowTitle?: string; sourceId?: string }[] }).screenshots;

beforeAll(async () => {
  await ensureX11Packages();
  x = await startXvfb(1920, 1080);
  cleanups.push(() => x.stop());
  win = await openWindow(x.display, WINDOW_TITLE, WINDOW_TEXT, "70x6+300+300");
  cleanups.push(() => win.close());
  [alice, bob] = await Promise.all([createUser(), createUser()]);
  home = tempDir("fotos-mcp-bridged-home-");
  await pairForMcp(home, alice);
  alice.token = await idTokenFor(alice.uid); // confirming signed alice in with a password, revoking older tokens
  localFolder = tempDir("fotos-mcp-bridged-local-");
  server = await startStdioServer(FOTOS_AGENT_BIN, ["mcp"], hostEnv({ DISPLAY: x.display, FOTOS_AGENT_HOME: home, FOTOS_MCP_DIR: localFolder }));
  cleanups.push(() => server.close());
  remote = await connect("fotos", { token: alice.token });
  cleanups.push(() => remote.close());
}, 300_000);

afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
});

describe("bridged fotos-mcp", () => {
  test("paired and reachable: bridged, saying to which function; the grant is on the connected-apps page", async () => {
    expect(server.client.getServerVersion()).toMatchObject({ name: "fotos", description: "AI-powered screenshot capture, annotation, and analysis" });
    expect(server.client.getInstructions()).toContain(`Bridged to your fotos function at ${functionUrl("fotos")}`);
    const cookie = await signInCookie(alice);
    const apps = await (await fetch(oauthUrl("/apps"), { headers: { cookie } })).text();
    expect(apps).toContain(DEVICE_NAME);
    expect(apps).toContain("Fotos connection for AI apps");
    alice.token = await idTokenFor(alice.uid);
    await remote.close();
    remote = await connect("fotos", { token: alice.token });
  });

  test("the same tools and prompts as the function's MCP URL", async () => {
    expect((await server.client.listTools()).tools).toEqual((await remote.listTools()).tools);
    expect((await server.client.listPrompts()).prompts).toEqual((await remote.listPrompts()).prompts);
  });

  let shot: string;

  test("take_screenshot captures the window here; it appears in list_screenshots of the remote MCP URL, not in another user's, and nothing stays on this computer", async () => {
    const result = await call(server.client, "take_screenshot", { mode: "window", window_title: "bridged window" });
    expect(result.isError, textOf(result)).toBeFalsy();
    const meta = result.structuredContent as { id: string };
    expect(meta).toMatchObject({ mode: "window", windowTitle: "bridged window", width: win.width, height: win.height });
    expect(await imageOf(result)).toMatchObject({ width: win.width, height: win.height });
    shot = meta.id;
    expect((await remoteList(remote))[0]).toMatchObject({ id: shot, mode: "window", windowTitle: "bridged window" });
    const bobClient = await connect("fotos", { token: bob.token });
    try {
      expect((await remoteList(bobClient)).map((s) => s.id)).not.toContain(shot);
    } finally {
      await bobClient.close();
    }
    expect(readdirSync(localFolder)).toEqual([]);
  });

  test("OCR and redaction run on the function: the window's text is read, the email covered, the copies listed remotely", async () => {
    const ocr = await call(server.client, "ocr_screenshot", { screenshot_id: shot });
    expect(ocr.isError, textOf(ocr)).toBeFalsy();
    expect(ocr.structuredContent).toMatchObject({ screenshot_id: shot, cached: false });
    expect((ocr.structuredContent as { text: string }).text).toContain("BRIDGE mail carol@example.com");
    // The function cached it: the remote resource says so.
    const cached = JSON.parse(((await remote.readResource({ uri: `screenshots://${shot}/ocr` })).contents[0] as { text: string }).text);
    expect(cached).toMatchObject({ screenshot_id: shot, cached: true });
    const redacted = await call(server.client, "auto_redact_pii", { screenshot_id: shot });
    const data = redacted.structuredContent as { screenshot_id: string; redacted: boolean; detections: { type: string }[] };
    expect(data.redacted).toBe(true);
    expect(data.detections.map((d) => d.type)).toContain("email");
    expect((await remoteList(remote))[0]).toMatchObject({ id: data.screenshot_id, mode: "redacted", sourceId: shot });
    expect(readdirSync(localFolder)).toEqual([]);
  });

  test("ocr_screenshot without screenshot_id: captured here, uploaded, read there", async () => {
    const result = await call(server.client, "ocr_screenshot", {});
    expect(result.isError, textOf(result)).toBeFalsy();
    const { screenshot_id, text } = result.structuredContent as { screenshot_id: string; text: string };
    // This is about the flow (captured here, read there). A full screen shows the terminal's small
    // bitmap font at the window's edge on a black desktop, where OCR reads some words wrongly
    // (docs/fotos-vision.md); the window capture above checks the whole line.
    expect(text).toContain("BRIDGE");
    expect((await remoteList(remote))[0]).toMatchObject({ id: screenshot_id, mode: "fullscreen" });
  });

  test("resources and prompts are the function's: the person's stored settings, the remote history, the image", async () => {
    await adminDb().collection("users").doc(alice.uid).collection("fotos").doc("settings").set({ ui: { theme: "dark" }, ai: { ocrLanguage: "deu" } });
    const settings = JSON.parse(((await server.client.readResource({ uri: "settings://current" })).contents[0] as { text: string }).text);
    expect(settings.ui.theme).toBe("dark");
    expect(settings.ai.ocrLanguage).toBe("deu");
    const local = JSON.parse(((await server.client.readResource({ uri: "screenshots://recent" })).contents[0] as { text: string }).text);
    const there = JSON.parse(((await remote.readResource({ uri: "screenshots://recent" })).contents[0] as { text: string }).text);
    expect(local).toEqual(there);
    const image = await server.client.readResource({ uri: `screenshots://${shot}` });
    expect(image.contents.find((c) => "blob" in c)).toBeTruthy();
    const prompt = await server.client.getPrompt({ name: "describe_ui", arguments: { screenshot_id: shot } });
    expect(prompt.messages[0]!.content.type).toBe("image");
    await expect(server.client.readResource({ uri: "screenshots://not-there" })).rejects.toThrow(/Screenshot not found: "not-there"/);
    const missing = await call(server.client, "annotate_screenshot", { screenshot_id: "not-there", annotations: [{ type: "rect", x: 1, y: 1, width: 2, height: 2 }] });
    expect(textOf(missing)).toBe('Error: Screenshot not found: "not-there". list_screenshots shows the ids of your screenshots (404)');
  });
});

describe("when the function is not reachable", () => {
  const offlineHome = () => {
    const dir = tempDir("fotos-mcp-offline-home-");
    copyFileSync(join(home, "mcp-credentials.json"), join(dir, "mcp-credentials.json"));
    const creds = JSON.parse(readFileSync(join(dir, "mcp-credentials.json"), "utf8"));
    // A port nothing listens on: the function and its token endpoint are down.
    writeFileSync(join(dir, "mcp-credentials.json"), JSON.stringify({ ...creds, server: "http://127.0.0.1:9/demo/us-central1/fotos", tokenEndpoint: "http://127.0.0.1:9/demo/us-central1/oauth/token" }));
    return dir;
  };

  test("--bridged: every call says the Fotos service is not reachable, naming its URL", async () => {
    const offline = await startStdioServer(FOTOS_MCP_BIN, ["--bridged"], hostEnv({ DISPLAY: x.display, FOTOS_AGENT_HOME: offlineHome(), FOTOS_MCP_DIR: tempDir("fotos-mcp-offline-") }));
    try {
      for (const [tool, args] of [["take_screenshot", {}], ["list_screenshots", {}]] as const) {
        const result = await call(offline.client, tool, args);
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/^Error: Fotos service is not reachable at http:\/\/127\.0\.0\.1:9\/demo\/us-central1\/fotos \(.+\)\. Check your connection, or start fotos-agent mcp with --standalone/);
      }
      await expect(offline.client.readResource({ uri: "screenshots://recent" })).rejects.toThrow(/Fotos service is not reachable at http:\/\/127\.0\.0\.1:9/);
    } finally {
      await offline.close();
    }
  });

  test("without --bridged: standalone, capturing into the local folder", async () => {
    const folder = tempDir("fotos-mcp-fallback-");
    const fallback = await startStdioServer(FOTOS_MCP_BIN, [], hostEnv({ DISPLAY: x.display, FOTOS_AGENT_HOME: offlineHome(), FOTOS_MCP_DIR: folder }));
    try {
      expect(fallback.client.getInstructions()).toContain("Standalone");
      expect(fallback.stderr()).toContain("is not reachable");
      const result = await call(fallback.client, "take_screenshot", { mode: "window", window_title: WINDOW_TITLE });
      expect(result.isError).toBeFalsy();
      expect(readdirSync(folder)).toContain(`${(result.structuredContent as { id: string }).id}.png`);
    } finally {
      await fallback.close();
    }
  });
});

describe("revoked on the connected-apps page", () => {
  test("the next call says the grant was revoked and how to pair again", async () => {
    const deviceId = JSON.parse(readFileSync(join(home, "mcp-credentials.json"), "utf8")).deviceId as string;
    const cookie = await signInCookie(alice);
    const page = await (await fetch(oauthUrl("/apps"), { headers: { cookie } })).text();
    const res = await fetch(oauthUrl("/apps/revoke"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ kind: "device", id: deviceId, csrf: csrfOf(page) }).toString(),
      redirect: "manual",
    });
    expect(res.status).toBeLessThan(400);
    const result = await call(server.client, "list_screenshots", {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("This computer's Fotos grant for AI apps was revoked: run `fotos-agent mcp pair --server");
  });
});
