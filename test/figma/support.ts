// What the figma tests share: an MCP client configured with the seed's `?userIds=` URL, and plugin
// processes paired with a user's account through the real device flow.
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { functionUrl, type TestUser } from "../support/emulators.js";
import { oauthUrl, pairDevice } from "../support/devices.js";
import { startPlugin, type PluginOptions, type PluginProcess } from "./plugin.js";

import { expect } from "vitest";
import { callTool, textOf } from "../support/mcp.js";

export { callTool, textOf };

/** An MCP client for the figma function as a user's agent would configure it (`url`: another instance of it). */
export async function figmaClient(user: TestUser, opts: { userIds?: string[]; url?: string } = {}): Promise<Client> {
  const url = new URL(opts.url ?? functionUrl("figma"));
  if (opts.userIds) url.searchParams.set("userIds", opts.userIds.join(";"));
  const client = new Client({ name: "figma-tests", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${user.token}` } } }));
  return client;
}

const running = new Set<PluginProcess>();

/** Pairs a plugin with `user` (device code flow, confirmed as the user) and starts it in a file. */
export async function openPlugin(user: TestUser, opts: Omit<PluginOptions, "credential" | "tokenUrl" | "accessToken"> = {}): Promise<PluginProcess> {
  const paired = await pairDevice(user, "figma-plugin", `Figma (${opts.fileName ?? "test"})`);
  const plugin = await startPlugin({
    ...opts,
    credential: { deviceId: paired.deviceId, refreshToken: paired.credential },
    accessToken: paired.accessToken,
    tokenUrl: oauthUrl("/token"),
  });
  running.add(plugin);
  plugin.child.once("exit", () => running.delete(plugin));
  return plugin;
}

/** Kills every plugin process a test left running. */
export async function stopAllPlugins(): Promise<void> {
  await Promise.all([...running].map((p) => p.kill()));
}

export const structured = (r: CallToolResult) => r.structuredContent as Record<string, unknown>;

/** Calls a tool that must succeed (the failure's text in the assertion otherwise): its structured result. */
export async function succeeds(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const r = await callTool(client, name, args);
  expect(r.isError, `${name}: ${textOf(r)}`).toBeFalsy();
  return structured(r);
}
