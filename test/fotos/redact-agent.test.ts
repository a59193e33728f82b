// Redaction on the computer before upload, end to end: a real X display with a window showing
// planted personal data and secrets, the real desktop agent (its bundled build, paired through the
// real device flow), the fotos function in the emulator suite, a real MCP client. The image the
// agent uploads (stored as it arrived) is read by an independent OCR (Debian's tesseract): no
// planted item can be read, while the same window captured without redaction shows them all.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { Timestamp } from "firebase-admin/firestore";
import { adminDb, createUser, functionUrl, type TestUser } from "../support/emulators.js";
import { callTool, textOf } from "../support/mcp.js";
import { pairDevice } from "../support/devices.js";
import { ensureX11Packages, openWindow, pairedAgent, startXvfb, type AgentProcess, type XDisplay } from "./agent-harness.js";
import { ensureTesseractCli, isReadable, readEverything } from "./redact-render.js";

const TITLE = "Fotos Redact Window - customer 0815";
const PLANTED = [
  { type: "email", value: "jane.doe@example.com" },
  { type: "phone", value: "020 7946 0958" },
  { type: "phone", value: "+44 7700 900123" },
  { type: "credit_card", value: "4539 1488 0343 6467" },
  { type: "ip_address", value: "10.20.30.40" },
  { type: "api_key", value: "AKIA4HFJ2KD7QWX3MZP6" },
  { type: "api_key", value: "ghp_9fK2mQ7xLp4Rt8vZ1cB6nW3yH5jD0sA7eG2u" },
];
const TEXT = [
  "Customer record",
  `email   ${PLANTED[0]!.value}`,
  `office  ${PLANTED[1]!.value}`,
  `mobile  ${PLANTED[2]!.value}`,
  `card    ${PLANTED[3]!.value}`,
  `db      postgres://app@${PLANTED[4]!.value}:5432/crm`,
  `aws     ${PLANTED[5]!.value}`,
  `token   ${PLANTED[6]!.value}`,
].join("\n");

let x: XDisplay;
let alice: TestUser;
let agent: AgentProcess;
let client: Client;
const cleanups: (() => Promise<unknown> | unknown)[] = [];

async function stored(id: string) {
  const res = await client.readResource({ uri: `screenshots://${id}` });
  const blob = res.contents.find((r) => "blob" in r) as { blob: string };
  const json = res.contents.find((r) => "text" in r) as { text: string };
  return { png: Buffer.from(blob.blob, "base64"), meta: JSON.parse(json.text) };
}

beforeAll(async () => {
  await Promise.all([ensureX11Packages(), ensureTesseractCli()]);
  x = await startXvfb(1920, 1080);
  cleanups.push(() => x.stop());
  const win = await openWindow(x.display, TITLE, TEXT, "70x10+60+60");
  cleanups.push(() => win.close());
  ({ user: alice, agent, client } = await pairedAgent("alice-desktop", x.display, cleanups));
}, 300_000);

afterEach((ctx) => {
  if (ctx.task.result?.state === "fail" && agent) console.error(`agent output:\n${agent.output()}`);
});

afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
});

describe("take_screenshot with redact_before_upload", () => {
  test("control: captured without redaction, the independent OCR reads every planted item", async () => {
    const res = await callTool(client, "take_screenshot", { mode: "window", window_title: TITLE });
    expect(res.isError, textOf(res)).toBeFalsy();
    const { png, meta } = await stored((res.structuredContent as { id: string }).id);
    expect(meta.redaction).toBeUndefined();
    const text = await readEverything(png);
    for (const item of PLANTED) expect(isReadable(item, text), `${item.value} in:\n${text}`).toBe(true);
  }, 180_000);

  test("the agent redacts on the computer: the uploaded image shows none of it, and its metadata says what was found where", async () => {
    const res = await callTool(client, "take_screenshot", { mode: "window", window_title: TITLE, redact_before_upload: true });
    expect(res.isError, textOf(res)).toBeFalsy();
    expect(textOf(res)).toMatch(/Redacted on the computer before upload: \d+ items \(.*\); a second OCR read none back\./);
    const data = res.structuredContent as { id: string; redaction: { where: string; detections: { type: string }[]; recheck: string } };
    expect(data.redaction.where).toBe("device");
    expect(data.redaction.recheck).toBe("clean");
    expect(new Set(data.redaction.detections.map((d) => d.type))).toEqual(new Set(PLANTED.map((p) => p.type)));
    // The stored original is the agent's upload, byte for byte: nothing else ever reached the server.
    const { png, meta } = await stored(data.id);
    expect(meta.redaction).toEqual(data.redaction);
    const text = await readEverything(png);
    for (const item of PLANTED) expect(isReadable(item, text), `${item.value} still readable in:\n${text}`).toBe(false);
    expect(text).toMatch(/\bmobile\b[\s\S]*\bcard\b/); // the rest of the window is still there
    expect(agent.output()).toMatch(/redacted on this computer in \d+ ms: \d+ items/);
  }, 180_000);

  test("capture.redactBeforeUpload in settings makes it the default, and an explicit false does not lower it", async () => {
    await adminDb().doc(`users/${alice.uid}/fotos/settings`).set({ capture: { redactBeforeUpload: true }, ui: { region: "GB" } });
    const byDefault = await callTool(client, "take_screenshot", { mode: "window", window_title: TITLE });
    expect(byDefault.isError, textOf(byDefault)).toBeFalsy();
    expect((byDefault.structuredContent as { redaction?: { where: string } }).redaction?.where).toBe("device");
    // A vision tool that captures first (no screenshot_id) follows the setting too.
    const ocr = await callTool(client, "ocr_screenshot", {});
    expect(ocr.isError, textOf(ocr)).toBeFalsy();
    const captured = await stored((ocr.structuredContent as { screenshot_id: string }).screenshot_id);
    expect(captured.meta.redaction?.where).toBe("device");
    for (const item of PLANTED) expect(isReadable(item, await readEverything(captured.png)), item.value).toBe(false);
    // The setting is a floor: a call (a model told so by text on the screen) cannot turn it off.
    const off = await callTool(client, "take_screenshot", { mode: "window", window_title: TITLE, redact_before_upload: false });
    expect(off.isError, textOf(off)).toBeFalsy();
    expect((off.structuredContent as { redaction?: { where: string } }).redaction?.where).toBe("device");
    await adminDb().doc(`users/${alice.uid}/fotos/settings`).delete();
  }, 240_000);
});

test("an agent that uploads unredacted what was to be redacted on the device is refused: nothing stored, the tool's error says why", async () => {
  const bob = await createUser();
  const device = await pairDevice(bob, "desktop-agent", "old-agent");
  const post = (path: string, body: BodyInit, type = "application/json") =>
    fetch(functionUrl("fotos", path), { method: "POST", headers: { authorization: `Bearer ${device.accessToken}`, "content-type": type }, body });
  const ref = adminDb().collection("fotosCaptureRequests").doc();
  await ref.set({ owner: bob.uid, device: device.deviceId, status: "pending", mode: "fullscreen", delayMs: 0, redact: { region: "US" }, createdAt: Timestamp.now(), expiresAt: Timestamp.fromMillis(Date.now() + 60_000) });
  const claim = await post("/agent/claim", JSON.stringify({ requestId: ref.id, sessionId: "old-agent-session-1" }));
  expect(await claim.json()).toMatchObject({ redact: { region: "US" } });
  const { default: sharp } = await import("sharp");
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ffffff" } }).png().toBuffer();
  const upload = await post(`/agent/upload?request=${ref.id}`, new Uint8Array(png), "image/png");
  expect(upload.status).toBe(409);
  expect(JSON.stringify(await upload.json())).toMatch(/without redacting it on the device, so it was not stored: update the agent/);
  const after = (await ref.get()).data()!;
  expect(after.status).toBe("failed");
  expect(after.error).toMatch(/without redacting it on the device/);
  expect((await adminDb().collection(`users/${bob.uid}/screenshots`).get()).size).toBe(0);
}, 120_000);

test("fotos-agent mcp's POST /captures: an unredacted capture is refused while the person's settings ask for redaction on the computer", async () => {
  const carol = await createUser();
  const device = await pairDevice(carol, "fotos-mcp", "carol-laptop");
  const { default: sharp } = await import("sharp");
  const png = new Uint8Array(await sharp({ create: { width: 64, height: 64, channels: 3, background: "#ffffff" } }).png().toBuffer());
  const post = (query: string) =>
    fetch(functionUrl("fotos", `/captures?mode=fullscreen${query}`), { method: "POST", headers: { authorization: `Bearer ${device.accessToken}`, "content-type": "image/png" }, body: png });
  expect((await post("")).status).toBe(201); // the setting is off: stored as it came
  await adminDb().doc(`users/${carol.uid}/fotos/settings`).set({ capture: { redactBeforeUpload: true } });
  const refused = await post("");
  expect(refused.status).toBe(409);
  expect(JSON.stringify(await refused.json())).toMatch(/not redacted on the computer, and your settings ask for that \(capture\.redactBeforeUpload\), so it was not stored/);
  const redaction = encodeURIComponent(JSON.stringify({ detections: [], recheck: "clean" }));
  const accepted = await post(`&redaction=${redaction}`);
  expect(accepted.status).toBe(201);
  expect(((await accepted.json()) as { redaction?: { where: string } }).redaction?.where).toBe("device");
  expect((await adminDb().collection(`users/${carol.uid}/screenshots`).get()).size).toBe(2);
}, 120_000);
