// set_padding: an auto-layout frame's padding, per side.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

const pad = (side: string) => z.number().min(0).max(10_000).optional().describe(`${side} padding`);

export const setPadding = figmaTool({
  name: "set_padding",
  title: "Set padding",
  description: "Sets the padding of an auto-layout frame; only the sides given change.",
  args: { nodeId: nodeId("The auto-layout frame"), paddingTop: pad("Top"), paddingRight: pad("Right"), paddingBottom: pad("Bottom"), paddingLeft: pad("Left") },
  annotations: UPDATE,
});
