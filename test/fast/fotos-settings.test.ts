// settings://current in-process: the fotos server the function builds, a real MCP client, the
// Firestore emulator. Defaults for a user without settings; a user's stored values over them,
// cleaned, and only their own.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { adminDb } from "../support/emulators.js";
import { connectInProcess, idTokenCaller, loadDomain } from "../support/in-process.js";

const run = Date.now().toString(36);
const alice = `fast-fotos-alice-${run}`;
const bob = `fast-fotos-bob-${run}`;
let client: Client;

beforeAll(async () => {
  client = await connectInProcess(await loadDomain("fotos"), { caller: idTokenCaller(alice) });
});
afterAll(async () => client.close());

describe("settings://current", () => {
  test("the defaults (capture, annotation, ai, ui) for a user without settings", async () => {
    const res = await client.readResource({ uri: "settings://current" });
    const settings = JSON.parse((res.contents[0] as { text: string }).text);
    expect(Object.keys(settings)).toEqual(["capture", "annotation", "ai", "ui"]);
    expect(settings.capture).toMatchObject({ defaultMode: "fullscreen", delayMs: 0 });
    expect(settings.annotation).toMatchObject({ color: "#FF0000", strokeWidth: 2 });
    expect(settings.ai).toMatchObject({ defaultProvider: "claude", ocrLanguage: "eng" });
  });

  test("a user's stored settings over the defaults, only their own", async () => {
    await adminDb().doc(`users/${bob}/fotos/settings`).set({ ai: { defaultProvider: "ollama" }, ui: { theme: "dark", bogus: 1 }, capture: { delayMs: "soon" } });
    const bobClient = await connectInProcess(await loadDomain("fotos"), { caller: idTokenCaller(bob) });
    const settings = JSON.parse(((await bobClient.readResource({ uri: "settings://current" })).contents[0] as { text: string }).text);
    await bobClient.close();
    expect(settings.ai.defaultProvider).toBe("ollama");
    expect(settings.ui).toMatchObject({ theme: "dark" });
    expect(settings.ui.bogus).toBeUndefined();
    expect(settings.capture.delayMs).toBe(0);
    const mine = JSON.parse(((await client.readResource({ uri: "settings://current" })).contents[0] as { text: string }).text);
    expect(mine.ai.defaultProvider).toBe("claude");
  });
});

describe("capture.redactBeforeUpload is a floor", () => {
  test("a call may ask for redaction; with the setting on, asking for none still redacts", async () => {
    const { captureRedaction, settingsFrom } = await import("../../functions/src/domains/fotos/settings.js");
    const off = settingsFrom({ ui: { region: "GB" } });
    const on = settingsFrom({ capture: { redactBeforeUpload: true }, ui: { region: "GB" } });
    expect(captureRedaction(off)).toEqual({});
    expect(captureRedaction(off, false)).toEqual({});
    expect(captureRedaction(off, true)).toEqual({ redact: { region: "GB" } });
    expect(captureRedaction(on)).toEqual({ redact: { region: "GB" } });
    expect(captureRedaction(on, false)).toEqual({ redact: { region: "GB" } });
  });
});
