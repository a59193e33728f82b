// get_variable_defs: variable collections, modes, values per mode, and the variables used under a layer.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { cursorArg, limitArg, nodeId, READ } from "../schema.js";

export const getVariableDefs = figmaTool({
  name: "get_variable_defs",
  title: "Get variable definitions",
  description:
    "The file's variables: collections with their modes, and each variable's name, collection, resolved type (COLOR, FLOAT, STRING, BOOLEAN), values per mode (colours as hex, aliases by name), " +
    "CSS custom property name (its WEB code syntax when set) and scopes. With nodeId: only the variables bound under that layer, plus `used`: where (fields, layer count) and the mode and value that apply there. " +
    "Paged (limit default 200): when truncated is true, call again with cursor = nextCursor.",
  args: {
    nodeId: nodeId("Only the variables bound on this layer and its descendants").optional(),
    collection: z.string().max(200).optional().describe("Only this collection (by name)"),
    limit: limitArg(200, 1000),
    cursor: cursorArg,
  },
  annotations: READ,
});
