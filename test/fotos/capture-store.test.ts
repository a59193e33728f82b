// The fotos function without a display: server identity, the agent routes' checks (PNG, size,
// a pending request of this very device), list_screenshots and its limits, screenshots://recent,
// screenshots://{id} (full resolution, not-found for unknown and foreign ids alike),
// and the expiry cleanup (document and image). settings://current is tested in-process:
// test/fast/fotos-settings.test.ts.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import sharp from "sharp";
import type { Client } from "@modelcontextprotocol/client";
import { Timestamp } from "firebase-admin/firestore";
import { getStorage } from "firebase-admin/storage";
import { adminDb, createUser, functionUrl, idTokenFor, PROJECT, type TestUser } from "../support/emulators.js";
import { callTool, connect, textOf } from "../support/mcp.js";
import { pairDevice, type PairedDevice } from "../support/devices.js";
import { cleanupExpired } from "../../functions/src/domains/fotos/cleanup.js";
import { firestore } from "../../functions/src/platform/firebase.js";

// The cleanup runs in this process: its Firestore settings must be applied before anything else
// (the test helpers) touches the shared Admin SDK instance.
firestore();

let alice: TestUser;
let bob: TestUser;
let device: PairedDevice;
let client: Client;
const SESSION = "test-session-0001";

const png = (width: number, height: number, color = "#3366ff") =>
  sharp({ create: { width, height, channels: 3, background: color } }).png().toBuffer();

function post(path: string, token: string, body: BodyInit, type = "application/json") {
  return fetch(functionUrl("fotos", path), { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": type }, body });
}

/** A capture request for `device`, as take_screenshot files it. */
async function request(owner: string, deviceId: string, extra: Record<string, unknown> = {}): Promise<string> {
  const ref = adminDb().collection("fotosCaptureRequests").doc();
  await ref.set({ owner, device: deviceId, status: "pending", mode: "fullscreen", delayMs: 0, createdAt: Timestamp.now(), expiresAt: Timestamp.fromMillis(Date.now() + 60_000), ...extra });
  return ref.id;
}

/** What the agent does for one request: claim it, upload the PNG. */
async function answer(image: Buffer, extra: Record<string, unknown> = {}): Promise<string> {
  const id = await request(alice.uid, device.deviceId, extra);
  const claim = await post("/agent/claim", device.accessToken, JSON.stringify({ requestId: id, sessionId: SESSION }));
  expect(claim.status).toBe(200);
  const res = await post(`/agent/upload?request=${id}`, device.accessToken, new Uint8Array(image), "image/png");
  expect(res.status).toBe(200);
  return ((await res.json()) as { screenshotId: string }).screenshotId;
}

beforeAll(async () => {
  [alice, bob] = await Promise.all([createUser(), createUser()]);
  device = await pairDevice(alice, "desktop-agent", "store-test-agent");
  // Confirming a pairing signs the user in with a password, which revokes their earlier ID tokens.
  alice.token = await idTokenFor(alice.uid);
  client = await connect("fotos", { token: alice.token });
}, 120_000);
afterAll(async () => client?.close());

describe("server", () => {
  test("announces itself as the seed says: name fotos, its description, tools and resources", async () => {
    expect(client.getServerVersion()).toMatchObject({ name: "fotos", description: "AI-powered screenshot capture, annotation, and analysis" });
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toEqual(expect.arrayContaining(["take_screenshot", "list_screenshots"]));
    const take = (await client.listTools()).tools.find((t) => t.name === "take_screenshot")!;
    expect(take.inputSchema.properties).toMatchObject({
      mode: { enum: ["fullscreen", "monitor", "window"], default: "fullscreen" },
      monitor_index: { type: "integer" },
      window_title: { type: "string" },
      delay_ms: { type: "integer", default: 0 },
    });
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    expect(resources).toEqual(expect.arrayContaining(["screenshots://recent", "settings://current"]));
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toContain("screenshots://{id}");
  });
});

describe("the agent's upload route", () => {
  test("stores a PNG for a pending request of this device, once: a retried upload answers with the same screenshot", async () => {
    const id = await request(alice.uid, device.deviceId, { mode: "window", windowTitle: "Editor" });
    await post("/agent/claim", device.accessToken, JSON.stringify({ requestId: id, sessionId: SESSION }));
    const image = await png(800, 600);
    const first = await post(`/agent/upload?request=${id}`, device.accessToken, new Uint8Array(image), "image/png");
    const again = await post(`/agent/upload?request=${id}`, device.accessToken, new Uint8Array(image), "image/png");
    const a = (await first.json()) as { screenshotId: string };
    const b = (await again.json()) as { screenshotId: string };
    expect(b.screenshotId).toBe(a.screenshotId);
    const req = await adminDb().collection("fotosCaptureRequests").doc(id).get();
    expect(req.get("status")).toBe("done");
    const shot = await readScreenshot(client, a.screenshotId);
    expect(shot.meta).toMatchObject({ mode: "window", windowTitle: "Editor", width: 800, height: 600, bytes: image.length });
  });

  test("a request is claimed once: the second claim (another run, a re-delivered snapshot) is refused", async () => {
    const id = await request(alice.uid, device.deviceId);
    expect((await post("/agent/claim", device.accessToken, JSON.stringify({ requestId: id, sessionId: SESSION }))).status).toBe(200);
    // The same run asking again (its first answer was lost) gets the parameters again.
    const again = await post("/agent/claim", device.accessToken, JSON.stringify({ requestId: id, sessionId: SESSION }));
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ requestId: id, mode: "fullscreen", delayMs: 0 });
    const second = await post("/agent/claim", device.accessToken, JSON.stringify({ requestId: id, sessionId: "another-session-2" }));
    expect(second.status).toBe(409);
    expect(await second.json()).toEqual({ error: "This capture request is already claimed" });
  });

  test("refuses what is not a PNG, and uploads nobody asked for", async () => {
    const id = await request(alice.uid, device.deviceId);
    const jpeg = await sharp({ create: { width: 10, height: 10, channels: 3, background: "#000" } }).jpeg().toBuffer();
    const notPng = await post(`/agent/upload?request=${id}`, device.accessToken, new Uint8Array(jpeg), "image/png");
    expect(notPng.status).toBe(400);
    expect(((await notPng.json()) as { error: string }).error).toMatch(/not a PNG/);
    const unknown = await post(`/agent/upload?request=no-such-request`, device.accessToken, new Uint8Array(await png(10, 10)), "image/png");
    expect(unknown.status).toBe(404);
    const failed = await request(alice.uid, device.deviceId, { status: "failed" });
    const late = await post(`/agent/upload?request=${failed}`, device.accessToken, new Uint8Array(await png(10, 10)), "image/png");
    expect(late.status).toBe(409);
  });

  test("refuses bodies over 25 MB", async () => {
    const id = await request(alice.uid, device.deviceId);
    const big = Buffer.alloc(26 * 1024 * 1024, 0);
    (await png(10, 10)).copy(big);
    const res = await post(`/agent/upload?request=${id}`, device.accessToken, new Uint8Array(big), "image/png");
    expect(res.status).toBe(413);
  });

  test("a reported failure ends the request with the agent's words", async () => {
    const id = await request(alice.uid, device.deviceId);
    const res = await post("/agent/fail", device.accessToken, JSON.stringify({ requestId: id, error: "No window found whose title contains \"x\"" }));
    expect(res.status).toBe(200);
    const req = await adminDb().collection("fotosCaptureRequests").doc(id).get();
    expect(req.get("status")).toBe("failed");
    expect(req.get("error")).toBe('No window found whose title contains "x"');
  });
});

async function readScreenshot(c: Client, id: string) {
  const res = await c.readResource({ uri: `screenshots://${id}` });
  const blob = res.contents.find((r) => "blob" in r) as { blob: string; mimeType: string };
  const json = res.contents.find((r) => "text" in r) as { text: string };
  return { png: Buffer.from(blob.blob, "base64"), mimeType: blob.mimeType, meta: JSON.parse(json.text) };
}

describe("listing and reading", () => {
  let ids: string[] = [];
  let listUser: TestUser;
  let listClient: Client;

  beforeAll(async () => {
    // A user of their own with 15 screenshots, uploaded through the agent route one after another.
    listUser = await createUser();
    const dev = await pairDevice(listUser, "desktop-agent", "list-agent");
    listUser.token = await idTokenFor(listUser.uid);
    ids = [];
    for (let i = 0; i < 15; i++) {
      const ref = adminDb().collection("fotosCaptureRequests").doc();
      await ref.set({ owner: listUser.uid, device: dev.deviceId, status: "pending", mode: "fullscreen", delayMs: 0, createdAt: Timestamp.now(), expiresAt: Timestamp.fromMillis(Date.now() + 60_000) });
      const res = await post(`/agent/upload?request=${ref.id}`, dev.accessToken, new Uint8Array(await png(100 + i, 50)), "image/png");
      ids.push(((await res.json()) as { screenshotId: string }).screenshotId);
    }
    listClient = await connect("fotos", { token: listUser.token });
  }, 120_000);
  afterAll(async () => listClient?.close());

  test("list_screenshots: the 10 most recent by default, newest first; at most `limit`", async () => {
    const all = (await callTool(listClient, "list_screenshots", {})).structuredContent as { count: number; screenshots: { id: string; createdAt: string; width: number; height: number; mode: string }[] };
    expect(all.count).toBe(10);
    expect(all.screenshots.map((s) => s.id)).toEqual([...ids].reverse().slice(0, 10));
    expect(all.screenshots[0]).toMatchObject({ width: 114, height: 50, mode: "fullscreen" });
    const three = (await callTool(listClient, "list_screenshots", { limit: 3 })).structuredContent as { screenshots: unknown[] };
    expect(three.screenshots).toHaveLength(3);
  });

  test("list_screenshots: limit outside 1–100 is an error naming it; no screenshots is an empty array", async () => {
    expect(textOf(await callTool(listClient, "list_screenshots", { limit: 0 }))).toBe("Error: Invalid input: limit must be at least 1 (400)");
    expect(textOf(await callTool(listClient, "list_screenshots", { limit: 101 }))).toBe("Error: Invalid input: limit must be at most 100 (400)");
    const nobody = await connect("fotos", { token: bob.token });
    expect((await callTool(nobody, "list_screenshots", {})).structuredContent).toEqual({ count: 0, screenshots: [] });
    await nobody.close();
  });

  test("screenshots://recent is list_screenshots with its defaults", async () => {
    const res = await listClient.readResource({ uri: "screenshots://recent" });
    const recent = JSON.parse((res.contents[0] as { text: string }).text);
    const listed = (await callTool(listClient, "list_screenshots", {})).structuredContent;
    expect(recent).toEqual(listed);
  });

  test("screenshots://{id}: the full-resolution PNG as a blob with its metadata; unknown and foreign ids get the same not-found error", async () => {
    const shot = await readScreenshot(listClient, ids[0]!);
    expect(shot.mimeType).toBe("image/png");
    expect(await sharp(shot.png).metadata()).toMatchObject({ width: 100, height: 50 });
    expect(shot.meta).toMatchObject({ id: ids[0], width: 100, height: 50, mode: "fullscreen" });
    const foreign = await client.readResource({ uri: `screenshots://${ids[0]}` }).then(() => "read!", (e: Error) => e.message);
    const unknown = await client.readResource({ uri: "screenshots://nonexistent-id" }).then(() => "read!", (e: Error) => e.message);
    expect(foreign).toContain(`Screenshot not found: "${ids[0]}"`);
    expect(foreign.replace(ids[0]!, "ID")).toBe(unknown.replace("nonexistent-id", "ID"));
  });
});

describe("expiry", () => {
  test("the scheduled cleanup deletes expired screenshots with their images, and keeps the others", async () => {
    const fresh = await answer(await png(20, 20));
    const old = await answer(await png(30, 30));
    await adminDb().doc(`users/${alice.uid}/screenshots/${old}`).update({ expiresAt: Timestamp.fromMillis(Date.now() - 1000) });
    // Expired but not yet cleaned: already not found for the user.
    const before = await client.readResource({ uri: `screenshots://${old}` }).then(() => "read!", (e: Error) => e.message);
    expect(before).toContain("Screenshot not found");
    const bucket = getStorage().bucket(`${PROJECT}.appspot.com`);
    expect((await bucket.file(`users/${alice.uid}/screenshots/${old}.png`).exists())[0]).toBe(true);

    const { screenshots } = await cleanupExpired();
    expect(screenshots).toBeGreaterThanOrEqual(1);
    expect((await adminDb().doc(`users/${alice.uid}/screenshots/${old}`).get()).exists).toBe(false);
    expect((await bucket.file(`users/${alice.uid}/screenshots/${old}.png`).exists())[0]).toBe(false);
    expect((await adminDb().doc(`users/${alice.uid}/screenshots/${fresh}`).get()).exists).toBe(true);
    expect((await readScreenshot(client, fresh)).meta.id).toBe(fresh);
  });
});
