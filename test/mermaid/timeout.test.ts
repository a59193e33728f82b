// Pathological but valid diagrams are stopped by the hard timeout with a clear error, a normal
// request still succeeds, and the function keeps working afterwards. Only outcomes are asserted
// here (the emulator's scheduling is not production's); that a stuck worker is terminated and the
// others serve meanwhile is proven on the pool itself (test/unit/mermaid-pool.test.ts).
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
const hugeMindmap = "mindmap\n  root\n" + Array.from({ length: 3000 }, (_, i) => `    n${i}`).join("\n");
// Four lines: a state that contains itself. mermaid's layout never returns.
const selfContainingState = "stateDiagram-v2\n  state A {\n    A --> B\n  }";

const TIMEOUT_TEXT = /^Error: Rendering did not finish within \d+ seconds and was stopped: the diagram is too large or uses a construct the renderer cannot lay out \(e\.g\. a state that contains itself\)\. Simplify it or split it \(504\)$/;
const OUT_OF_MEMORY_TEXT = "Error: Rendering ran out of memory and was stopped: the diagram is too large. Simplify it or split it (504)";
// A runaway layout may allocate as it loops: whichever limit it reaches first (the deadline, or the
// worker's heap cap) stops it, and how soon it reaches either depends on the machine.
const STOPPED = new RegExp(`${TIMEOUT_TEXT.source}|^${OUT_OF_MEMORY_TEXT.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);

test(
  "runaway renders are stopped with a clear 504 while a normal request succeeds",
  async () => {
    expect(hugeMindmap.length).toBeLessThan(50_000);

    const slow = [hugeMindmap, selfContainingState].map((code) => callTool(c, "render", { code }));
    for (const s of slow) s.catch(() => undefined); // if an assertion below fails first, closing the client must not leave it unhandled
    const normal = await callTool(c, "render", { code: "sequenceDiagram\n  Alice->>Bob: Hello" });
    expect(normal.isError, textOf(normal)).toBeFalsy();
    expect((normal.structuredContent as { svg: string }).svg).toContain("Alice");

    for (const r of await Promise.all(slow)) {
      expect(r.isError).toBe(true);
      expect(textOf(r)).toMatch(STOPPED);
    }

    // The stopped workers were replaced: the function still renders.
    const after = await callTool(c, "render", { code: "graph LR\n  X --> Y" });
    expect(after.isError, textOf(after)).toBeFalsy();
  },
  120_000,
);

test(
  "verify refuses what render would stop: ok false with the same sentence, and the function serves afterwards",
  async () => {
    const v = await callTool(c, "verify", { code: selfContainingState });
    expect(v.isError, textOf(v)).toBeFalsy();
    const out = v.structuredContent as { ok: boolean; error: string };
    expect(out.ok).toBe(false);
    expect(`Error: ${out.error} (504)`).toMatch(STOPPED);
    expect((await callTool(c, "verify", { code: "graph TD\n A-->B" })).structuredContent).toEqual({ ok: true });
  },
  120_000,
);
