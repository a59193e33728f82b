// png: the diagram view's "Download PNG": the full-resolution picture the server draws (the render
// tool sends the model a copy fitted to its image limits). Called by views only, never listed to
// the model (visibility app).
import { imageContent, textContent } from "../../../mcp/content.js";
import { tool } from "../../../mcp/define.js";
import { renderDiagram } from "../core/service.js";
import { withFairUse } from "../fair-use.js";
import { annotations, renderInput } from "../schemas.js";
import { DIAGRAM_VIEW } from "../views.js";

export const png = tool(
  {
    name: "png",
    title: "Mermaid diagram as PNG file",
    description: "Renders a Mermaid diagram to a full-resolution PNG for the diagram view to download. Same options as render.",
    inputSchema: renderInput,
    annotations,
    ui: { resourceUri: DIAGRAM_VIEW.uri, visibility: ["app"] },
  },
  async ({ code, theme, labels }, ctx) => {
    const out = await withFairUse(ctx, (signal) => renderDiagram(code, theme ?? "default", { png: true, labels, signal }));
    if (!out.png) {
      ctx.log.warn("mermaid PNG failed", { err: out.pngError });
      return { isError: true, content: [textContent("The PNG could not be drawn for this diagram; download the SVG instead.")] };
    }
    return { content: [imageContent(out.png)] };
  },
);
