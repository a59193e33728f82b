// create_connector: a FigJam connector from one layer to another.
import { z } from "zod";
import { CONNECTOR_CAPS } from "../../../contracts/figma-plugin.js";
import { figmaTool } from "../figma-tool.js";
import { color, CREATE, nodeId } from "../schema.js";

export const createConnector = figmaTool({
  name: "create_connector",
  title: "Create connector",
  description: "Connects two layers of a FigJam board (stickies, shapes, text, sections…) with a connector that follows them when they move: line type, end caps (an arrow at the end by default), label. FigJam only. Returns the connector.",
  args: {
    startNodeId: nodeId("Where the connector starts"),
    endNodeId: nodeId("Where it ends"),
    text: z.string().max(1_000).optional().describe("The connector's label"),
    lineType: z.enum(["ELBOWED", "STRAIGHT", "CURVED"]).default("ELBOWED").describe("ELBOWED (default), STRAIGHT or CURVED"),
    startCap: z.enum(CONNECTOR_CAPS).default("NONE").describe("The start's end cap (default NONE)"),
    endCap: z.enum(CONNECTOR_CAPS).default("ARROW_LINES").describe("The end's cap (default ARROW_LINES)"),
    strokeColor: color.optional(),
  },
  annotations: CREATE,
});
