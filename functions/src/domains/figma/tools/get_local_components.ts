// get_local_components: components defined in the file (paged).
import { figmaTool } from "../figma-tool.js";
import { cursorArg, limitArg, READ } from "../schema.js";

export const getLocalComponents = figmaTool({
  name: "get_local_components",
  title: "Get local components",
  description:
    "Components defined in this file (id, key, name, description, page, size), for create_component_instance. Paged: when truncated is true, call again with cursor = nextCursor.",
  args: { limit: limitArg(100, 500), cursor: cursorArg },
  annotations: READ,
});
