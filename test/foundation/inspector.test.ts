// Smoke run of a third-party client: the MCP Inspector's CLI against a served function.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import { functionUrl } from "../support/emulators.js";

const run = promisify(execFile);

test("the MCP Inspector CLI lists and calls tools over Streamable HTTP", async () => {
  const url = functionUrl("mermaid");
  const list = await run("mcp-inspector", ["--cli", url, "--transport", "http", "--method", "tools/list"]);
  const tools = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
  expect(tools).toContain("verify");

  const call = await run("mcp-inspector", [
    "--cli", url, "--transport", "http", "--method", "tools/call", "--tool-name", "verify", "--tool-arg", "code=graph TD; A-->B",
  ]);
  expect(JSON.parse(call.stdout)).toMatchObject({ structuredContent: { ok: true } });
});
