// Rooms per device are capped (FIGMA_MAX_ROOMS_PER_DEVICE, default 10): each open file is a room
// holding a poll, so one plugin (or a script with its credential) cannot open rooms without end.
// A paired plugin's real device token against the figma function in the emulator suite.
import { expect, test } from "vitest";
import { createUser, functionUrl } from "../support/emulators.js";
import { pairDevice } from "../support/devices.js";
import { PLUGIN_ROUTES } from "../../functions/src/contracts/figma-plugin.js";

const register = (token: string, fileName: string) =>
  fetch(functionUrl("figma", PLUGIN_ROUTES.sessions), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ figmaUserId: "501", figmaUserName: "Grace", fileName }),
  });

test("a device's eleventh open file is refused with what to do; its earlier rooms, and the person's other device, still work", async () => {
  const user = await createUser();
  const plugin = await pairDevice(user, "figma-plugin", "Figma (rooms)");
  const rooms: string[] = [];
  for (let i = 0; i < 10; i++) {
    const res = await register(plugin.accessToken, `File ${i}`);
    expect(res.status).toBe(200);
    rooms.push(((await res.json()) as { roomId: string }).roomId);
  }
  const refused = await register(plugin.accessToken, "File 10");
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
  expect(((await refused.json()) as { error: string }).error).toBe(
    "This Figma plugin already has 10 files open on the server, the most one device may have (10): close the MCP Bridge plugin in a file you are not using, then try again",
  );
  // Resuming a room it has is not a new room.
  const resumed = await fetch(functionUrl("figma", PLUGIN_ROUTES.sessions), {
    method: "POST",
    headers: { authorization: `Bearer ${plugin.accessToken}`, "content-type": "application/json" },
    body: JSON.stringify({ figmaUserId: "501", fileName: "File 0", roomId: rooms[0] }),
  });
  expect(resumed.status).toBe(200);
  expect(((await resumed.json()) as { roomId: string }).roomId).toBe(rooms[0]);
  const other = await pairDevice(user, "figma-plugin", "Figma (other)");
  expect((await register(other.accessToken, "Elsewhere")).status).toBe(200);
}, 120_000);
