// get_annotations: the Dev Mode annotations on a layer (and, optionally, on everything under it).
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { cursorArg, limitArg, nodeId, READ } from "../schema.js";

export const getAnnotations = figmaTool({
  name: "get_annotations",
  title: "Get annotations",
  description:
    "Dev Mode annotations a designer left for developers: per layer its notes (label or labelMarkdown), pinned properties (e.g. width, fills, padding) and category; " +
    "with includeChildren, every annotated layer under it (paged: call again with cursor = nextCursor when truncated). Also lists the file's annotation categories.",
  args: {
    nodeId: nodeId("The layer"),
    includeChildren: z.boolean().default(false).describe("Also the annotated layers under it (default false)"),
    limit: limitArg(100, 500),
    cursor: cursorArg,
  },
  annotations: READ,
});
