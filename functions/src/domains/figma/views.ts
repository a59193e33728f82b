// The figma domain's view in the conversation (built from views/design.ts).
import { viewResource } from "../../mcp/view.js";

export const DESIGN_VIEW = viewResource({
  domain: "figma",
  name: "design",
  title: "Design preview",
  description: "get_design_context in HTML/CSS form previewed beside its code (the layer tree for the JSON form).",
});
