// Device pairing (RFC 8628) through the real oauth function: code → confirm as the user → token.
import { expect, test } from "vitest";
import { adminAuth, adminDb, createUser } from "../support/emulators.js";
import { confirmUserCode, deviceIdToken, pairDevice, pollDeviceToken, refreshDevice, startDeviceAuthorization } from "../support/devices.js";

test("a desktop agent pairs through the device flow and gets tokens for fotos only", async () => {
  const user = await createUser();
  const started = await startDeviceAuthorization("desktop-agent", "Alice's laptop");
  expect(started.user_code).toMatch(/^[B-Z]{4}-[B-Z]{4}$/);
  const pending = await pollDeviceToken("desktop-agent", started.device_code);
  expect(pending.status).toBe(400);
  expect((await pending.json()).error).toMatch(/authorization_pending|slow_down/);
  await confirmUserCode(user, started.user_code);
  const res = await pollDeviceToken("desktop-agent", started.device_code);
  const body = await res.json();
  expect(res.status).toBe(200);
  expect(body).toMatchObject({ token_type: "Bearer", device_id: expect.any(String), refresh_token: expect.stringMatching(/^mcpdev_/) });
  expect(body.resource).toMatch(/\/fotos$/);
  expect(body.firebase_custom_token).toEqual(expect.any(String));
  // The same exchange sent again (its answer was lost on the way): the same device and credential.
  const again = await pollDeviceToken("desktop-agent", started.device_code);
  expect(again.status).toBe(200);
  expect(await again.json()).toMatchObject({ device_id: body.device_id, refresh_token: body.refresh_token });
  // Once the credential has been used, the device code is spent for good; the device stays paired.
  const rotated = await refreshDevice("desktop-agent", body.refresh_token);
  expect(rotated.status).toBe(200);
  const late = await pollDeviceToken("desktop-agent", started.device_code);
  expect(await late.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already exchanged: start pairing again/) });
  expect((await refreshDevice("desktop-agent", (await rotated.json()).refresh_token)).status).toBe(200);
});

test("a device credential is exchanged for fresh access tokens and a new credential", async () => {
  const user = await createUser();
  const device = await pairDevice(user, "figma-plugin", "Figma on the studio Mac");
  expect(device.firebaseCustomToken).toBeUndefined();
  const res = await refreshDevice("figma-plugin", device.credential);
  const body = await res.json();
  expect(res.status).toBe(200);
  expect(body.access_token).toEqual(expect.any(String));
  expect(body.refresh_token).toMatch(/^mcpdev_/);
  expect(body.refresh_token).not.toBe(device.credential);
});

test("a copied device credential presented after the device moved on unpairs the device (as refresh reuse does for apps)", async () => {
  const user = await createUser();
  const device = await pairDevice(user, "desktop-agent", "Rotating PC");
  await deviceIdToken(device); // the agent signed in to Firestore as itself
  const first = await (await refreshDevice("desktop-agent", device.credential)).json();
  expect(first.refresh_token).toMatch(/^mcpdev_/);
  // A repeat within moments (two requests of one device at once) gets the same successor, no chain of its own.
  const repeat = await (await refreshDevice("desktop-agent", device.credential)).json();
  expect(repeat.refresh_token).toBe(first.refresh_token);
  // The device moves on; then the copy of its old credential (a file taken from the computer) is tried.
  const second = await (await refreshDevice("desktop-agent", first.refresh_token)).json();
  expect(second.refresh_token).toMatch(/^mcpdev_/);
  const stolen = await refreshDevice("desktop-agent", device.credential);
  expect(stolen.status).toBe(400);
  expect(await stolen.json()).toMatchObject({ error: "invalid_grant", error_description: "This device credential was already used (a copy of it?); for safety the device was unpaired: pair it again" });
  // The device is unpaired for everyone holding any of its credentials, its Firebase sign-in too.
  expect(await (await refreshDevice("desktop-agent", second.refresh_token)).json()).toMatchObject({ error: "invalid_grant", error_description: "This device was unpaired: pair it again" });
  expect((await adminDb().collection("devices").doc(device.deviceId).get()).get("revokedAt")).toBeTruthy();
  expect((await adminAuth().getUser(`device_${device.deviceId}`)).disabled).toBe(true);
});

test("a denied code gives access_denied", async () => {
  const user = await createUser();
  const started = await startDeviceAuthorization("figma-plugin", "x");
  await confirmUserCode(user, started.user_code, "deny");
  const res = await pollDeviceToken("figma-plugin", started.device_code);
  expect((await res.json()).error).toBe("access_denied");
});
