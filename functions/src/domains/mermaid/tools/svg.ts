// svg: exports a Mermaid diagram as a downloadable, sanitized SVG file, with a suggested filename
// diagram-YYYY-MM-DDTHH-MM-SS.svg (UTC). Same SVG as render.
import { tool } from "../../../mcp/define.js";
import { exportFilename, renderDiagram } from "../core/service.js";
import { withFairUse } from "../fair-use.js";
import { resultText } from "../result-text.js";
import { DIAGRAM_VIEW } from "../views.js";
import { annotations, svgInput, svgOutput } from "../schemas.js";

export const svg = tool(
  {
    name: "svg",
    title: "Export Mermaid diagram as SVG file",
    description:
      "Generates a downloadable SVG export of a Mermaid diagram with a suggested filename (diagram-YYYY-MM-DDTHH-MM-SS.svg, UTC). Same SVG as render. Optional theme: default, neutral, dark, forest, base. Optional labels: \"text\" for design tools, slide software or Inkscape (plain SVG text instead of HTML labels, same layout).",
    inputSchema: svgInput,
    outputSchema: svgOutput,
    annotations,
    ui: { resourceUri: DIAGRAM_VIEW.uri },
  },
  async ({ code, theme, labels }, ctx) => {
    const out = await withFairUse(ctx, (signal) => renderDiagram(code, theme ?? "default", { labels, signal }));
    const data = { svg: out.svg, filename: exportFilename() };
    return { data, text: resultText(data, out.diagramType, "Exported") };
  },
);
