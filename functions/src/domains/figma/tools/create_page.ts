// create_page: a new page in the file.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { CREATE } from "../schema.js";

export const createPage = figmaTool({
  name: "create_page",
  title: "Create page",
  description: "Adds a page to the file, optionally switching Figma to it (switchTo). Returns the page's id.",
  args: {
    name: z.string().trim().min(1).max(200).describe("The page's name"),
    switchTo: z.boolean().default(false).describe("Show the new page in Figma (default false)"),
  },
  annotations: CREATE,
});
