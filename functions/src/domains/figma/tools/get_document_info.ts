// get_document_info: the file, its pages, and the current page's layers (bounded, breadth-first).
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { READ } from "../schema.js";

export const getDocumentInfo = figmaTool({
  name: "get_document_info",
  title: "Get document info",
  description:
    "The open Figma file: its name, pages, the current page and that page's layers (id, name, type, position, size), breadth-first. " +
    "A large page is cut after maxNodes layers (default 300, at most 2000): truncated is then true, and layers whose children were left out say childrenTruncated with their childCount — ask get_node_info for those.",
  args: {
    depth: z.number().int().min(0).max(20).default(3).describe("How many levels below the page to include (default 3)"),
    maxNodes: z.number().int().min(1).max(2000).default(300).describe("Most layers to include (default 300)"),
  },
  annotations: READ,
});
