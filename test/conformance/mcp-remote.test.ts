// mcp-remote (the stdio↔HTTP bridge people put in front of remote servers for clients that only
// start local programs, e.g. Claude Desktop's config) against the served mermaid function, as
// docs/clients.md tells people to run it. It announces no views, so it gets exactly what a client
// without the extension always got: no view metadata, no ui:// resources, the same render result.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { functionUrl } from "../support/emulators.js";
import { callTool, connect } from "../support/mcp.js";

const BIN = join(import.meta.dirname, "../../node_modules/.bin/mcp-remote");
const SOURCE = "flowchart LR\n  Idea --> Sketch --> Ship";

let bridged: Client;
let direct: Client;
let stderr = "";

beforeAll(async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, functionUrl("mermaid"), "--allow-http", "--transport", "http-only"],
    // Its token store goes to a fresh folder, not the person's home.
    env: { ...(process.env as Record<string, string>), MCP_REMOTE_CONFIG_DIR: mkdtempSync(join(tmpdir(), "mcp-remote-")) },
    stderr: "pipe",
  });
  transport.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
  bridged = new Client({ name: "claude-desktop-like", version: "1.0.0" });
  await bridged.connect(transport);
  direct = await connect("mermaid", { era: "legacy" }); // a client of before views, straight over HTTP
}, 120_000);

afterAll(async () => {
  await bridged?.close();
  await direct?.close();
});

test("tools/list through mcp-remote: every tool the model may call, none with a view", async () => {
  const { tools } = await bridged.listTools();
  expect(tools.map((t) => t.name)).toContain("render");
  for (const tool of tools) {
    expect(tool._meta?.ui, `${tool.name}, bridge said:\n${stderr}`).toBeUndefined();
    expect(tool._meta?.["ui/resourceUri"]).toBeUndefined();
  }
  expect(tools).toEqual((await direct.listTools()).tools);
});

test("resources through mcp-remote: no ui:// resource is listed", async () => {
  const listed = await bridged.listResources().then((r) => r.resources.map((x) => x.uri));
  expect(listed.filter((uri) => uri.startsWith("ui://"))).toEqual([]);
  expect(listed).toEqual((await direct.listResources()).resources.map((x) => x.uri));
});

test("render through mcp-remote: the same SVG text, PNG and structured result as a direct client", async () => {
  const [viaBridge, viaHttp] = [await callTool(bridged, "render", { code: SOURCE }), await callTool(direct, "render", { code: SOURCE })];
  expect(viaBridge.isError, JSON.stringify(viaBridge.content).slice(0, 300)).toBeFalsy();
  expect(viaBridge._meta?.ui).toBeUndefined();
  expect(viaBridge.content.map((c) => c.type)).toEqual(viaHttp.content.map((c) => c.type));
  expect(viaBridge.content.map((c) => c.type)).toContain("image");
  expect((viaBridge.structuredContent as { svg: string }).svg).toMatch(/<svg[\s\S]*Sketch/);
  expect(viaBridge).toEqual(viaHttp);
}, 180_000);
