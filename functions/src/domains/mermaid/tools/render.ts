// render: draws a Mermaid diagram (any type) as a sanitized, self-contained SVG for inline display,
// plus a PNG of it so the model can check the picture. Optional theme.
import { fitImageForModel, MAX_RESULT_BYTES, serializedBytes, textContent } from "../../../mcp/content.js";
import { tool } from "../../../mcp/define.js";
import { renderDiagram } from "../core/service.js";
import { withFairUse } from "../fair-use.js";
import { resultText } from "../result-text.js";
import { DIAGRAM_VIEW } from "../views.js";
import { annotations, renderInput, renderOutput } from "../schemas.js";

export const render = tool(
  {
    name: "render",
    title: "Render Mermaid diagram",
    description:
      "Renders a Mermaid diagram to a sanitized, self-contained SVG for inline display, plus a PNG picture of it so you can check the result. Every Mermaid diagram type is supported. Optional theme: default, neutral, dark, forest, base. Optional labels: \"text\" draws labels as plain SVG text (same layout) for viewers that cannot show HTML inside SVG.",
    inputSchema: renderInput,
    outputSchema: renderOutput,
    annotations,
    ui: { resourceUri: DIAGRAM_VIEW.uri },
  },
  async ({ code, theme, labels }, ctx) => {
    const out = await withFairUse(ctx, (signal) => renderDiagram(code, theme ?? "default", { png: true, labels, signal }));
    // The SVG still answers; a missing picture is logged so it does not go unnoticed.
    if (out.pngError) ctx.log.warn("mermaid PNG failed; SVG returned without it", { err: out.pngError });
    const data = { svg: out.svg };
    const text = resultText(data, out.diagramType, "Rendered");
    const image = out.png ? await fitImageForModel(out.png) : undefined;
    // The SVG is the answer and the picture a bonus: when both would not fit in one result, the
    // picture is left out (and the text says so) rather than the result growing past the limit.
    // Measured as the shared layer sends it (text block, then the image; data as structuredContent).
    const fits = image && serializedBytes({ content: [textContent(text), image], structuredContent: data }) <= MAX_RESULT_BYTES;
    return {
      data,
      text: image && !fits ? `${text}\n(No PNG: the diagram is too large to send as both SVG and picture in one result.)` : text,
      content: image && fits ? [image] : [],
    };
  },
);
