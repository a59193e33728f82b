import { fitImageForModel } from "../../../mcp/content.js";
import { tool } from "../../../mcp/define.js";
import { renderDiagram } from "../core/service.js";
import { annotations, renderInput, renderOutput } from "./schemas.js";

export const render = tool(
  {
    name: "render",
    title: "Render Mermaid diagram",
    description:
      "Renders a Mermaid diagram to a sanitized, self-contained SVG for inline display, plus a PNG picture of it so you can check the result. Every Mermaid diagram type is supported. Optional theme: default, neutral, dark, forest, base.",
    inputSchema: renderInput,
    outputSchema: renderOutput,
    annotations,
  },
  async ({ code, theme }) => {
    const out = await renderDiagram(code, theme ?? "default", { png: true });
    return { data: { svg: out.svg }, content: out.png ? [await fitImageForModel(out.png)] : [] };
  },
);
