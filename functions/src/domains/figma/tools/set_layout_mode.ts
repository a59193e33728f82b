// set_layout_mode: turns auto-layout on (horizontal/vertical, wrap) or off.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

export const setLayoutMode = figmaTool({
  name: "set_layout_mode",
  title: "Set layout mode",
  description: "Sets a frame's auto-layout: layoutMode NONE (off), HORIZONTAL or VERTICAL, and layoutWrap NO_WRAP or WRAP (horizontal only).",
  args: {
    nodeId: nodeId("The frame"),
    layoutMode: z.enum(["NONE", "HORIZONTAL", "VERTICAL"]).describe("NONE, HORIZONTAL or VERTICAL"),
    layoutWrap: z.enum(["NO_WRAP", "WRAP"]).optional().describe("NO_WRAP or WRAP"),
  },
  annotations: UPDATE,
});
