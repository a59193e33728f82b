// set_sizing: hug, fill or fixed, per axis (auto-layout sizing).
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

const SIZING = z.enum(["FIXED", "HUG", "FILL"]);

export const setSizing = figmaTool({
  name: "set_sizing",
  title: "Set sizing (hug / fill)",
  description:
    "Sets how a layer is sized on each axis: FIXED, HUG (its content: auto-layout frames and text) or FILL (the space of its auto-layout parent). Refused with a sentence where Figma would not allow it.",
  args: {
    nodeId: nodeId(),
    horizontal: SIZING.optional().describe("Width: FIXED, HUG or FILL"),
    vertical: SIZING.optional().describe("Height: FIXED, HUG or FILL"),
  },
  annotations: UPDATE,
});
