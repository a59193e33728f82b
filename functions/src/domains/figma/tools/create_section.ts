// create_section: a section (FigJam or design file), optionally gathering existing layers into it.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { color, coordinate, CREATE, nodeIds, size } from "../schema.js";

export const createSection = figmaTool({
  name: "create_section",
  title: "Create section",
  description: "Adds a section at x, y with width and height to the current page (FigJam boards and design files), optionally filled, and moves the layers of childIds into it where they are on the page. Returns the section and what moved.",
  args: {
    name: z.string().min(1).max(200).default("Section").describe("The section's name (default Section)"),
    x: coordinate("X position"),
    y: coordinate("Y position"),
    width: size("Width"),
    height: size("Height"),
    fillColor: color.optional(),
    childIds: nodeIds(200).optional().describe("Layers to move into the section (they keep their place on the page)"),
  },
  annotations: CREATE,
});
