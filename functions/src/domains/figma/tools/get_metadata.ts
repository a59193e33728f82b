// get_metadata: a compact outline of a page or layer (ids, types, names, bounds), for large files.
import { z } from "zod";
import { figmaTool, present } from "../figma-tool.js";
import { nodeId, READ } from "../schema.js";

export const getMetadata = figmaTool({
  name: "get_metadata",
  title: "Get metadata",
  description:
    "A compact outline of a page (default: the current one) or a layer: one line per layer — id, type, name, x,y, width×height, [row]/[column] for auto-layout — indented by depth. " +
    "Far smaller than get_document_info, for finding ids in large files. Levels are added top-down within maxChars; a layer whose insides did not fit ends in {+N inside}, " +
    "and runs of alike siblings take one line: call get_metadata with such a layer's id to see inside it.",
  args: {
    nodeId: nodeId("The page or layer to outline (default: the current page)").optional(),
    maxChars: z.number().int().min(1_000).max(100_000).default(15_000).describe("Budget for the outline in characters, 1,000–100,000 (default 15,000)"),
  },
  annotations: READ,
  present(result, session) {
    // The outline reads as lines; the structured answer carries it as one string.
    const { outline, truncatedNote, ...meta } = result as { outline: string; truncatedNote?: string } & Record<string, unknown>;
    const answer = present({ ...meta, outline, ...(truncatedNote ? { truncatedNote } : {}) }, session);
    const header = `${String(meta.type)} ${JSON.stringify(meta.name)} (${String(meta.nodeId)}) in ${JSON.stringify(session.fileName)} [${session.roomId}]: ${String(meta.layerCount)} layers, ${String(meta.shownLayers)} listed`;
    return { ...answer, text: `${header}\n${outline}${truncatedNote ? `\n\n[truncated] ${truncatedNote}` : ""}` };
  },
});
