import { afterAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { readFileSync } from "node:fs";
import { callTool, connect, textOf, type Era } from "../support/mcp.js";

const FUNCTIONS_VERSION = JSON.parse(readFileSync(new URL("../../functions/package.json", import.meta.url), "utf8")).version;

const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close())));

describe.each<Era>(["modern", "legacy"])("a %s-era client", (era) => {
  test("connects, sees the server identity and instructions, lists and calls tools", async () => {
    const client = await connect("mermaid", { era });
    clients.push(client);
    expect(client.getServerVersion()).toMatchObject({ name: "mermaid-mcp", version: FUNCTIONS_VERSION });
    expect(client.getInstructions()).toMatch(/verify/i);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain("verify");
    const result = await callTool(client, "verify", { code: "graph TD\n A-->B" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ ok: true });
  });

  test("a wrong argument type is a tool error naming the argument", async () => {
    const client = await connect("mermaid", { era });
    clients.push(client);
    const result = await callTool(client, "verify", { code: 42 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("Error: Invalid input: code must be a string, not a number (400)");
  });
});
