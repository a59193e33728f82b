// The plugin window as Figma runs it: the built dist/ui.html in a sandboxed iframe (opaque origin,
// so every request carries `Origin: null`) in Debian's Chromium, beside the built dist/code.js
// running against the model of the Figma API. A person pairs (clicks, reads the code, confirms it
// on the sign-in server), the window shows Connected and the room id, and an agent's tool call is
// answered through the window, which listens in Firestore (the emulators answer a `null` origin);
// the device credential ends up in figma.clientStorage.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, expect, test } from "vitest";
import puppeteer, { type Browser, type Frame, type Page } from "puppeteer-core";
import { createUser, functionUrl } from "../support/emulators.js";
import { confirmUserCode } from "../support/devices.js";
import { createFakeFigma } from "./fake-figma.js";
import { callTool, figmaClient, structured, textOf } from "./support.js";

let browser: Browser;
let page: Page;
let out: string;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "figma-window-"));
  const plugin = new URL("../../figma-plugin/build.mjs", import.meta.url).pathname;
  execFileSync(process.execPath, [plugin], { env: { ...process.env, FIGMA_MCP_URL: functionUrl("figma"), FIGMA_PLUGIN_OUT: out }, stdio: "pipe" });
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
});
afterAll(async () => {
  await page?.evaluate(() => document.getElementById("ui")?.remove()).catch(() => undefined); // the window closes: it says goodbye
  await browser?.close();
});

/** Starts Figma's side: the bundled main thread in a VM, the window in a sandboxed iframe. */
async function openWindow(fileName: string) {
  const { api } = createFakeFigma({ fileName, user: { id: "31337", name: "Ada" } });
  const stored = new Map<string, unknown>();
  page = await browser.newPage();
  const figma = {
    ...api,
    showUI: () => undefined,
    on: () => undefined,
    notify: () => undefined,
    openExternal: () => undefined,
    ui: {
      postMessage: (m: unknown) => void page.evaluate((json) => (window as unknown as { toUi(j: string): void }).toUi(json), JSON.stringify(m)).catch(() => undefined),
      onmessage: undefined as undefined | ((m: unknown) => Promise<void>),
    },
    clientStorage: {
      getAsync: async (k: string) => stored.get(k),
      setAsync: async (k: string, v: unknown) => void stored.set(k, v),
      deleteAsync: async (k: string) => void stored.delete(k),
    },
  };
  runInNewContext(readFileSync(join(out, "dist/code.js"), "utf8"), { figma, __html__: "", console });
  await page.exposeFunction("toMain", (json: string) => figma.ui.onmessage!(JSON.parse(json)));
  await page.setContent(`<!doctype html><body>
    <iframe id="ui" sandbox="allow-scripts" style="width:320px;height:380px;border:0"></iframe>
    <script>
      const ui = document.getElementById("ui");
      window.toUi = (json) => ui.contentWindow.postMessage({ pluginMessage: JSON.parse(json) }, "*");
      window.addEventListener("message", (e) => { if (e.source === ui.contentWindow && e.data && e.data.pluginMessage !== undefined) window.toMain(JSON.stringify(e.data.pluginMessage)); });
    </script></body>`);
  await page.evaluate((html) => ((document.getElementById("ui") as HTMLIFrameElement).srcdoc = html), readFileSync(join(out, "dist/ui.html"), "utf8"));
  const frame = await waitForFrame(page);
  return { frame, stored };
}

async function waitForFrame(p: Page): Promise<Frame> {
  for (let i = 0; i < 200; i++) {
    const frame = p.frames().find((f) => f !== p.mainFrame());
    if (frame && (await frame.$("#pair").catch(() => null))) return frame;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the plugin window did not load");
}

test("pair in the window, see Connected and the room id, answer an agent through it", async () => {
  const user = await createUser();
  const { frame, stored } = await openWindow("Window file");

  await frame.waitForSelector("#view-pair:not([hidden])", { timeout: 30_000 });
  await frame.click("#pair");
  await frame.waitForSelector("#view-code:not([hidden])", { timeout: 30_000 });
  const userCode = await frame.$eval("#user-code", (el) => el.textContent ?? "");
  expect(userCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  expect(await frame.$eval("#verify-link", (el) => (el as HTMLAnchorElement).href)).toContain(functionUrl("oauth"));

  await confirmUserCode(user, userCode);
  await frame.waitForFunction(() => document.getElementById("status")?.textContent === "Connected", { timeout: 60_000 });
  const roomId = await frame.$eval("#room", (el) => el.textContent ?? "");
  expect(roomId).toMatch(/^room-[0-9a-f]{24}$/);
  expect(stored.get("mcp-bridge-credential")).toMatchObject({ deviceId: expect.any(String), refreshToken: expect.any(String) });
  // In the sandboxed iframe (`Origin: null`, no IndexedDB) the window signed in to the Auth emulator
  // and listens in the Firestore emulator: the agent's call below reaches it with no poll held.
  expect(await frame.$eval("#mode", (el) => el.textContent ?? "")).toBe("Listening in Firestore: nothing is kept open on the server while idle.");

  const agent = await figmaClient(user, { userIds: ["31337"] });
  const r = await callTool(agent, "get_selection");
  expect(r.isError, textOf(r)).toBeFalsy();
  expect(structured(r)).toMatchObject({ sessionId: roomId, fileName: "Window file", selection: [{ id: "1:2", name: "Title" }] });
  expect(structured(await callTool(agent, "list_sessions"))).toMatchObject({ sessions: [{ roomId, fileName: "Window file", userName: "Ada", userId: "31337" }] });
  await agent.close();
}, 180_000);
