// A pathological but valid diagram is stopped by the hard timeout with a clear error, while other
// requests keep being served, and the function keeps working afterwards.
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { callTool, connect, textOf } from "../support/mcp.js";

let c: Client;
beforeAll(async () => {
  c = await connect("mermaid");
  await callTool(c, "verify", { code: "graph TD\n A-->B" }); // the instance is warm
});
afterAll(async () => c?.close());

// 3,000 children under one mindmap root: ~27 KB, valid, but its force layout runs for minutes.
const pathological = "mindmap\n  root\n" + Array.from({ length: 3000 }, (_, i) => `    n${i}`).join("\n");

test(
  "a runaway render times out cleanly while a normal request still succeeds",
  async () => {
    expect(pathological.length).toBeLessThan(50_000);
    expect((await callTool(c, "verify", { code: pathological })).structuredContent).toEqual({ ok: true });

    const started = Date.now();
    let slowSettled = false;
    const slow = callTool(c, "render", { code: pathological }).then((r) => {
      slowSettled = true;
      return { r, ms: Date.now() - started };
    });
    slow.catch(() => undefined); // if an assertion below fails first, closing the client must not leave it unhandled
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const normal = await callTool(c, "render", { code: "sequenceDiagram\n  Alice->>Bob: Hello" });
    expect(normal.isError, textOf(normal)).toBeFalsy();
    expect((normal.structuredContent as { svg: string }).svg).toContain("Alice");
    // Served while the runaway render was still running, not after it was stopped.
    expect(slowSettled).toBe(false);

    const { r, ms } = await slow;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/^Error: Diagram too complex: rendering did not finish within \d+ seconds and was stopped\. .* \(504\)$/);
    expect(ms).toBeLessThan(30_000);

    // The stopped worker was replaced: the function still renders.
    const after = await callTool(c, "render", { code: "graph LR\n  X --> Y" });
    expect(after.isError, textOf(after)).toBeFalsy();
  },
  60_000,
);
