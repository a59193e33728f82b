// create_diagram: Mermaid source → editable objects in the open file, laid out by the suite's
// Mermaid engine (platform/mermaid): FigJam shapes and connectors, or frames and vectors in a design file.
import { z } from "zod";
import { layoutDiagram } from "../../../platform/mermaid/diagrams.js";
import { MAX_CODE_LENGTH } from "../../../platform/mermaid/protocol.js";
import { figmaTool } from "../figma-tool.js";
import { coordinate, CREATE, nodeId } from "../schema.js";

export const createDiagram = figmaTool({
  name: "create_diagram",
  title: "Create diagram from Mermaid",
  description:
    "Builds a Mermaid diagram as editable objects, placed as the suite's Mermaid engine lays it out. In a FigJam board: a section with a shape with text per node (subgraphs as sections inside) and a connector per edge, attached to its nodes; " +
    "in a design file: a frame with an auto-layout frame per node and a vector per edge. Flowcharts, state, class, ER and sequence diagrams are taken apart; other types are imported as one SVG picture (the answer says so). " +
    "Optional pageId (the page to draw on) and x, y (default: right of the page's content). One undo step.",
  args: {
    code: z.string().min(1).max(MAX_CODE_LENGTH).describe("Mermaid source, e.g. \"flowchart TD\\n  A[Start] --> B{Ok?}\""),
    pageId: nodeId("The page to draw on (default: the current page)").optional(),
    x: coordinate("X of the diagram's top-left corner").optional(),
    y: coordinate("Y of the diagram's top-left corner").optional(),
    name: z.string().min(1).max(200).optional().describe("The section's or frame's name (default: Diagram (type))"),
  },
  annotations: CREATE,
  async prepare({ code, ...rest }, ctx) {
    return { ...rest, layout: await layoutDiagram(String(code), ctx.signal) };
  },
});
