// set_multiple_text_contents: replaces the text of many layers in one command.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

export const setMultipleTextContents = figmaTool({
  name: "set_multiple_text_contents",
  title: "Set multiple text contents",
  description:
    "Replaces the text of up to 200 text layers at once (e.g. after scan_text_nodes). Each item is applied on its own: the answer lists which succeeded and which failed and why.",
  args: {
    nodeId: nodeId("The node that contains the text layers (a frame, a page)"),
    text: z.array(z.object({ nodeId: nodeId("A text layer"), text: z.string().max(50_000) })).min(1).max(200).describe("The replacements"),
  },
  annotations: UPDATE,
});
