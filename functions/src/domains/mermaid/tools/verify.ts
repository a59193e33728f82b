// verify: checks Mermaid syntax without rendering: {ok: true}, or {ok: false, error} naming the
// line and column and quoting the offending line.
import { tool } from "../../../mcp/define.js";
import { verifyDiagram } from "../core/service.js";
import { withFairUse } from "../fair-use.js";
import { annotations, verifyInput, verifyOutput } from "../schemas.js";

export const verify = tool(
  {
    name: "verify",
    title: "Verify Mermaid syntax",
    description:
      "Validates Mermaid diagram syntax without rendering. Use this before render or svg. Returns {ok: true}, or {ok: false, error} where the error names the line and column and quotes the offending line.",
    inputSchema: verifyInput,
    outputSchema: verifyOutput,
    annotations,
  },
  async ({ code }, ctx) => ({ data: await withFairUse(ctx, (signal) => verifyDiagram(code, signal)) }),
);
