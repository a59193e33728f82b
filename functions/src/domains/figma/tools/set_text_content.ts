// set_text_content: replaces the characters of one text layer.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

export const setTextContent = figmaTool({
  name: "set_text_content",
  title: "Set text content",
  description: "Replaces the text of a text layer (its fonts are loaded first). Overwrites the previous text.",
  args: { nodeId: nodeId("The text layer"), text: z.string().max(50_000).describe("The new text") },
  annotations: UPDATE,
});
