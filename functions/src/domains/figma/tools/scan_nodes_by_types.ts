// scan_nodes_by_types: layers of given types under a node (paged).
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { cursorArg, limitArg, nodeId, READ } from "../schema.js";

export const scanNodesByTypes = figmaTool({
  name: "scan_nodes_by_types",
  title: "Scan nodes by types",
  description:
    'Layers of the given types under a node, in document order (e.g. types ["COMPONENT", "INSTANCE"] or ["RECTANGLE", "FRAME"]), with id, name, type and bounds. ' +
    "Paged (limit default 100, at most 500): when truncated is true, call again with cursor = nextCursor.",
  args: {
    nodeId: nodeId("The node to scan"),
    types: z
      .array(z.string().regex(/^[A-Z_]{2,40}$/, { error: 'types must be Figma node types in capitals, e.g. "FRAME", "TEXT", "INSTANCE"' }))
      .min(1)
      .max(20)
      .describe('Figma node types, e.g. ["FRAME", "TEXT", "INSTANCE", "COMPONENT", "RECTANGLE"]'),
    limit: limitArg(100, 500),
    cursor: cursorArg,
  },
  annotations: READ,
});
