// create_variable_collection: a variable collection with its modes.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { CREATE } from "../schema.js";

export const createVariableCollection = figmaTool({
  name: "create_variable_collection",
  title: "Create variable collection",
  description: 'Creates a collection of variables with its modes (e.g. ["Light", "Dark"]; the first is the default). Returns the collection with its mode ids.',
  args: {
    name: z.string().trim().min(1).max(200).describe("The collection's name"),
    modes: z.array(z.string().trim().min(1).max(100)).min(1).max(20).optional().describe("Mode names (default one mode, Figma's \"Mode 1\")"),
  },
  annotations: CREATE,
});
