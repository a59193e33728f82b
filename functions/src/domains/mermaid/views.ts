// The mermaid domain's view in the conversation (built from views/diagram.ts).
import { viewResource } from "../../mcp/view.js";

export const DIAGRAM_VIEW = viewResource({
  domain: "mermaid",
  name: "diagram",
  title: "Mermaid diagram",
  description: "Shows a rendered diagram fit to width with zoom and pan, its source to copy, SVG and PNG downloads, and the parser's message for an invalid diagram.",
});
