// svg: exports a Mermaid diagram as a downloadable, sanitized SVG file, with a suggested filename
// diagram-YYYY-MM-DDTHH-MM-SS.svg (UTC). Same SVG as render.
import { tool } from "../../../mcp/define.js";
import { exportFilename, renderDiagram } from "../core/service.js";
import { resultText } from "../result-text.js";
import { annotations, svgInput, svgOutput } from "../schemas.js";

export const svg = tool(
  {
    name: "svg",
    title: "Export Mermaid diagram as SVG file",
    description:
      "Generates a downloadable SVG export of a Mermaid diagram with a suggested filename (diagram-YYYY-MM-DDTHH-MM-SS.svg, UTC). Same SVG as render. Optional theme: default, neutral, dark, forest, base.",
    inputSchema: svgInput,
    outputSchema: svgOutput,
    annotations,
  },
  async ({ code, theme }) => {
    const out = await renderDiagram(code, theme ?? "default");
    const data = { svg: out.svg, filename: exportFilename() };
    return { data, text: resultText(data, out.diagramType, "Exported") };
  },
);
