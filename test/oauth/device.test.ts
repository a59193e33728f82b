// Device pairing (RFC 8628) through the real oauth function: code → confirm as the user → token.
import { expect, test } from "vitest";
import { createUser } from "../support/emulators.js";
import { confirmUserCode, pairDevice, pollDeviceToken, refreshDevice, startDeviceAuthorization } from "../support/devices.js";

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
  const again = await pollDeviceToken("desktop-agent", started.device_code);
  expect((await again.json()).error).toBe("invalid_grant");
});

test("a device credential is exchanged for fresh access tokens", async () => {
  const user = await createUser();
  const device = await pairDevice(user, "figma-plugin", "Figma on the studio Mac");
  expect(device.firebaseCustomToken).toBeUndefined();
  const res = await refreshDevice("figma-plugin", device.credential);
  const body = await res.json();
  expect(res.status).toBe(200);
  expect(body.access_token).toEqual(expect.any(String));
  expect(body.refresh_token).toBeUndefined();
});

test("a denied code gives access_denied", async () => {
  const user = await createUser();
  const started = await startDeviceAuthorization("figma-plugin", "x");
  await confirmUserCode(user, started.user_code, "deny");
  const res = await pollDeviceToken("figma-plugin", started.device_code);
  expect((await res.json()).error).toBe("access_denied");
});
