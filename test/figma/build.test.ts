// What Figma loads: `npm run build -w figma-plugin` output. The bundled main thread (dist/code.js)
// runs in a fresh VM context with the model of the Figma API, opens its window and answers a
// command and a clientStorage request sent the way the window sends them; the window is one HTML
// file with its script inlined and the function's URL baked in; the manifest allows exactly the
// function's (and the sign-in server's) origin and, for listening in Firestore, Firestore's and
// Firebase Auth's (the emulators' in a local build). The Firebase SDK is in the window only.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { beforeAll, describe, expect, test } from "vitest";
import { createFakeFigma } from "./fake-figma.js";

const PLUGIN = new URL("../../figma-plugin/", import.meta.url).pathname;

function build(env: Record<string, string>): string {
  const out = mkdtempSync(join(tmpdir(), "figma-plugin-"));
  execFileSync(process.execPath, [join(PLUGIN, "build.mjs")], { env: { ...process.env, ...env, FIGMA_PLUGIN_OUT: out }, stdio: "pipe" });
  return out;
}

describe("a production build", () => {
  let out: string;
  beforeAll(() => {
    out = build({ FIGMA_MCP_URL: "https://us-central1-acme.cloudfunctions.net/figma" });
  });

  test("the manifest allows only the function's origin and Firestore's and Firebase Auth's", () => {
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ main: "dist/code.js", ui: "dist/ui.html", documentAccess: "dynamic-page", permissions: ["currentuser"], enablePrivatePluginApi: true });
    expect(manifest.networkAccess.allowedDomains).toEqual([
      "https://us-central1-acme.cloudfunctions.net",
      "https://firestore.googleapis.com",
      "https://identitytoolkit.googleapis.com",
      "https://securetoken.googleapis.com",
    ]);
    expect(manifest.networkAccess.devAllowedDomains).toBeUndefined();
  });

  test("the window is one file with its script inlined and the URLs baked in", () => {
    const html = readFileSync(join(out, "dist/ui.html"), "utf8");
    expect(html).not.toContain("/*UI_SCRIPT*/");
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect(html).toContain("https://us-central1-acme.cloudfunctions.net/figma");
    expect(html).toContain("https://us-central1-acme.cloudfunctions.net/oauth");
    expect(html).toContain("Pair with my account");
  });

  test("the Firebase SDK is bundled into the window, never into the main thread", () => {
    expect(readFileSync(join(out, "dist/ui.html"), "utf8")).toContain("firestore.googleapis.com");
    expect(readFileSync(join(out, "dist/code.js"), "utf8")).not.toMatch(/firestore\.googleapis\.com|identitytoolkit/);
  });

  test("the main thread runs commands and keeps the credential in clientStorage", async () => {
    const { api } = createFakeFigma({ fileName: "Bundled", user: { id: "7", name: "Ada" } });
    const toUi: { type: string; [k: string]: unknown }[] = [];
    const stored = new Map<string, unknown>();
    const figma = {
      ...api,
      showUI: () => undefined,
      on: () => undefined,
      notify: () => undefined,
      openExternal: () => undefined,
      ui: { postMessage: (m: never) => toUi.push(m), onmessage: undefined as undefined | ((m: unknown) => Promise<void>) },
      clientStorage: {
        getAsync: async (k: string) => stored.get(k),
        setAsync: async (k: string, v: unknown) => void stored.set(k, v),
        deleteAsync: async (k: string) => void stored.delete(k),
      },
    };
    runInNewContext(readFileSync(join(out, "dist/code.js"), "utf8"), { figma, __html__: "<html></html>", console });
    expect(figma.ui.onmessage).toBeTypeOf("function");

    await figma.ui.onmessage!({ type: "ready" });
    expect(toUi.find((m) => m.type === "context")).toMatchObject({ context: { figmaUserId: "7", figmaUserName: "Ada", fileName: "Bundled", pageName: "Home" } });

    await figma.ui.onmessage!({ type: "command", command: { commandId: "c1", tool: "get_selection", args: {} } });
    expect(toUi.find((m) => m.type === "answer")).toMatchObject({ commandId: "c1", answer: { ok: true, result: { count: 1, selection: [{ id: "1:2" }] } } });

    // The design commands survive bundling for Figma's older engine (generators, optional chaining).
    await figma.ui.onmessage!({ type: "command", command: { commandId: "c2", tool: "get_design_context", args: { format: "html" } } });
    expect(toUi.find((m) => m.type === "answer" && m.commandId === "c2")).toMatchObject({ answer: { ok: true, result: { nodeIds: ["1:2"], html: expect.stringContaining('data-node-id="1:2"') } } });
    await figma.ui.onmessage!({ type: "command", command: { commandId: "c3", tool: "get_metadata", args: {} } });
    expect(toUi.find((m) => m.type === "answer" && m.commandId === "c3")).toMatchObject({ answer: { ok: true, result: { nodeId: "0:1", layerCount: 259 } } });

    await figma.ui.onmessage!({ type: "storage-set", requestId: 1, key: "mcp-bridge-credential", value: { deviceId: "d", refreshToken: "r" } });
    await figma.ui.onmessage!({ type: "storage-get", requestId: 2, key: "mcp-bridge-credential" });
    expect(toUi.filter((m) => m.type === "storage").at(-1)).toEqual({ type: "storage", requestId: 2, value: { deviceId: "d", refreshToken: "r" } });
  });
});

test("a local build reaches the emulator as a development-only domain", () => {
  const out = build({ FIGMA_MCP_URL: "http://127.0.0.1:5001/demo-mcp-suite/us-central1/figma", FIRESTORE_EMULATOR_HOST: "127.0.0.1:8123", FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9123" });
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8"));
  expect(manifest.networkAccess).toMatchObject({ allowedDomains: ["none"], devAllowedDomains: ["http://127.0.0.1:5001", "http://127.0.0.1:8123", "http://127.0.0.1:9123"] });
});
