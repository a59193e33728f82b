// An upload sent again after a timeout or a lost answer stores nothing twice (domains/fotos/uploads.ts),
// against the fotos function in the emulator suite: POST /screenshots and fotos-agent mcp's
// POST /captures with the same Idempotency-Key answer the first upload's screenshot and count the
// daily quota once; the desktop agent's upload for a capture request is keyed by the request.
// "Saved, but the answer was lost" is simulated deterministically: the first upload is sent and its
// answer set aside (or its request put back as if the last step never committed), then it is sent again.
import { createHash, randomUUID } from "node:crypto";
import sharp from "sharp";
import { Timestamp } from "firebase-admin/firestore";
import { describe, expect, test } from "vitest";
import { adminDb, createUser, functionUrl, type TestUser } from "../support/emulators.js";
import { pairDevice } from "../support/devices.js";
import { QUOTAS, quotaDocId } from "../../functions/src/platform/quota.js";

const image = (background: string) => sharp({ create: { width: 120, height: 60, channels: 3, background } }).png().toBuffer();

const send = (token: string, path: string, png: Buffer, key?: string) =>
  fetch(functionUrl("fotos", path), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "image/png", ...(key ? { "idempotency-key": key } : {}) },
    body: new Uint8Array(png),
  });

const stored = async (user: TestUser) => (await adminDb().collection(`users/${user.uid}/screenshots`).get()).docs.map((d) => d.id);
const uploadsCounted = async (user: TestUser) => Number((await adminDb().collection("usageQuotas").doc(quotaDocId(QUOTAS.uploads, user.uid)).get()).get("count") ?? 0);

describe("POST /screenshots with an Idempotency-Key", () => {
  test("the same upload sent twice: one screenshot, the same id, the quota counted once", async () => {
    const user = await createUser();
    const png = await image("#ffffff");
    const key = randomUUID();
    const first = await send(user.token, "/screenshots", png, key);
    expect(first.status).toBe(201);
    const { screenshot_id: id } = (await first.json()) as { screenshot_id: string }; // the answer the client never saw
    const again = await send(user.token, "/screenshots", png, key);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ screenshot_id: id, width: 120, height: 60 });
    expect(await stored(user)).toEqual([id]);
    expect(await uploadsCounted(user)).toBe(1);
    // Without a key, or with a new one, an upload is a new screenshot.
    expect((await send(user.token, "/screenshots", png)).status).toBe(201);
    expect((await send(user.token, "/screenshots", png, randomUUID())).status).toBe(201);
    expect((await stored(user)).length).toBe(3);
    expect(await uploadsCounted(user)).toBe(3);
  });

  test("a first attempt that counted and chose its id but stopped before storing: the repeat stores it there, counting nothing again", async () => {
    const user = await createUser();
    const png = await image("#eeeeee");
    const key = randomUUID();
    // What the first attempt's quota transaction committed before its deadline passed.
    const sha = (s: string | Buffer) => createHash("sha256").update(s).digest("hex");
    const id = randomUUID();
    await adminDb().doc(`users/${user.uid}/uploads/${sha(key)}`).set({ screenshotId: id, sha256: sha(png), createdAt: Timestamp.now(), expiresAt: Timestamp.fromMillis(Date.now() + 86_400_000) });
    await adminDb().collection("usageQuotas").doc(quotaDocId(QUOTAS.uploads, user.uid)).set({ uid: user.uid, quota: QUOTAS.uploads.name, count: 1 });
    const again = await send(user.token, "/screenshots", png, key);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ screenshot_id: id });
    expect(await stored(user)).toEqual([id]);
    expect(await uploadsCounted(user)).toBe(1);
  });

  test("the same key with another image is refused, nothing stored; a malformed key is refused", async () => {
    const user = await createUser();
    const key = randomUUID();
    expect((await send(user.token, "/screenshots", await image("#ffffff"), key)).status).toBe(201);
    const other = await send(user.token, "/screenshots", await image("#000000"), key);
    expect(other.status).toBe(409);
    expect(JSON.stringify(await other.json())).toMatch(/idempotency-key was already used for another image, so nothing was stored: send each new upload with a new key/);
    const bad = await send(user.token, "/screenshots", await image("#ffffff"), "no spaces allowed");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toMatch(/header must be 8 to 128 letters/);
    expect((await stored(user)).length).toBe(1);
    expect(await uploadsCounted(user)).toBe(1);
  });
});

test("fotos-agent mcp's POST /captures sent twice with its key: one screenshot, the same id, counted once", async () => {
  const user = await createUser();
  const device = await pairDevice(user, "fotos-mcp", "retry-laptop");
  const png = await image("#ddeeff");
  const key = randomUUID();
  const first = await send(device.accessToken, "/captures?mode=fullscreen", png, key);
  expect(first.status).toBe(201);
  const { screenshot_id: id } = (await first.json()) as { screenshot_id: string };
  const again = await send(device.accessToken, "/captures?mode=fullscreen", png, key);
  expect(again.status).toBe(200);
  expect(await again.json()).toMatchObject({ screenshot_id: id, mode: "fullscreen" });
  expect(await stored(user)).toEqual([id]);
  expect(await uploadsCounted(user)).toBe(1);
}, 120_000);

test("the desktop agent's upload for a capture request, stored but not marked done before the deadline: the repeat answers the same screenshot", async () => {
  const user = await createUser();
  const device = await pairDevice(user, "desktop-agent", "retry-agent");
  const post = (path: string, body: BodyInit, type = "application/json") =>
    fetch(functionUrl("fotos", path), { method: "POST", headers: { authorization: `Bearer ${device.accessToken}`, "content-type": type }, body });
  const ref = adminDb().collection("fotosCaptureRequests").doc();
  await ref.set({ owner: user.uid, device: device.deviceId, status: "pending", mode: "fullscreen", delayMs: 0, createdAt: Timestamp.now(), expiresAt: Timestamp.fromMillis(Date.now() + 60_000) });
  expect((await post("/agent/claim", JSON.stringify({ requestId: ref.id, sessionId: "retry-agent-session-1" }))).status).toBe(200);
  const png = await image("#ffeedd");
  const first = await post(`/agent/upload?request=${ref.id}`, new Uint8Array(png), "image/png");
  expect(first.status).toBe(200);
  const { screenshotId } = (await first.json()) as { screenshotId: string };
  // As if the request's last step (marking it done) had not committed when the deadline passed.
  await ref.update({ status: "claimed", screenshotId: null });
  const again = await post(`/agent/upload?request=${ref.id}`, new Uint8Array(png), "image/png");
  expect(again.status).toBe(200);
  expect(await again.json()).toMatchObject({ screenshotId });
  expect(await stored(user)).toEqual([screenshotId]);
  expect((await ref.get()).data()).toMatchObject({ status: "done", screenshotId });
}, 120_000);
