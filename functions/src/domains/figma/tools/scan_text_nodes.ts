// scan_text_nodes: every text layer under a node, in document order (paged).
import { figmaTool } from "../figma-tool.js";
import { cursorArg, limitArg, nodeId, READ } from "../schema.js";

export const scanTextNodes = figmaTool({
  name: "scan_text_nodes",
  title: "Scan text nodes",
  description:
    "All text layers under a node (a frame, a page…) in document order, with id, name, characters, font and position. " +
    "Paged (limit default 100, at most 500): when truncated is true, call again with cursor = nextCursor. Use the ids with set_multiple_text_contents.",
  args: { nodeId: nodeId("The node to scan"), limit: limitArg(100, 500), cursor: cursorArg },
  annotations: READ,
});
