// The mermaid domain: verify, render and svg as MCP tools, and the same three as a rate-limited
// HTTP API (POST /api/verify|render|svg). Rendering runs in warm worker threads (platform/mermaid/pool.ts).
import { defineDomain } from "../../mcp/define.js";
import { renderPool } from "../../platform/mermaid/pool.js";
import { apiRoutes } from "./http/api.js";
import { render } from "./tools/render.js";
import { png } from "./tools/png.js";
import { svg } from "./tools/svg.js";
import { verify } from "./tools/verify.js";
import { DIAGRAM_VIEW } from "./views.js";

export default defineDomain({
  name: "mermaid",
  title: "Mermaid diagrams",
  description: "Verify Mermaid diagram syntax and render diagrams of every Mermaid type to sanitized SVG (and PNG), without a browser.",
  instructions: [
    "Always call verify first; if it returns ok: false, fix the code at the line it names and verify again.",
    "Then call render to show the diagram (you also get a PNG to check it), or svg when the user wants a file to download.",
    "Code is limited to 50,000 characters. A diagram whose SVG would be too large to return, or that does not finish rendering in time, is refused: split it into smaller ones.",
  ].join(" "),
  tools: [verify, render, svg, png],
  resources: [DIAGRAM_VIEW],
  routes: apiRoutes,
  warmup: () => renderPool().start(),
  health: () => renderPool().health(),
});
