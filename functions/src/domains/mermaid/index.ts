// TEMPORARY skeleton so the shared layer can be exercised; replaced by the real domain.
import { z } from "zod";
import { defineDomain, tool } from "../../mcp/define.js";

const verify = tool(
  {
    name: "verify",
    title: "Verify Mermaid syntax",
    description: "Validates Mermaid diagram syntax without rendering.",
    inputSchema: z.object({ code: z.string().describe("Mermaid diagram code to verify") }),
    outputSchema: z.object({ ok: z.boolean(), error: z.string().optional() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ code }) => ({ data: code.trim() ? { ok: true } : { ok: false, error: "Invalid input: code must be a non-empty string" } }),
);

export default defineDomain({
  name: "mermaid",
  title: "Mermaid diagrams",
  version: "0.1.0",
  description: "Verify and render Mermaid diagrams to SVG.",
  instructions: "Call verify before render.",
  access: "public",
  tools: [verify],
});
