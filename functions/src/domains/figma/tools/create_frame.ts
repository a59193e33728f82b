// create_frame: a new frame, optionally with fill, stroke and auto-layout.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { color, coordinate, CREATE, parentArg, size } from "../schema.js";

export const createFrame = figmaTool({
  name: "create_frame",
  title: "Create frame",
  description:
    "Creates a frame at x, y with width and height (in the parent's coordinates), optionally named, filled, stroked and with auto-layout (layoutMode HORIZONTAL or VERTICAL, itemSpacing, padding). Returns the new node's id.",
  args: {
    x: coordinate("X position"),
    y: coordinate("Y position"),
    width: size("Width"),
    height: size("Height"),
    name: z.string().max(200).default("Frame").describe("Layer name (default Frame)"),
    parentId: parentArg,
    fillColor: color.optional(),
    strokeColor: color.optional(),
    strokeWeight: z.number().min(0).max(1000).optional().describe("Stroke width"),
    layoutMode: z.enum(["NONE", "HORIZONTAL", "VERTICAL"]).default("NONE").describe("Auto-layout direction (default NONE)"),
    itemSpacing: z.number().min(-10_000).max(10_000).optional().describe("Gap between auto-layout children"),
    padding: z.number().min(0).max(10_000).optional().describe("Padding on all four sides (auto-layout)"),
  },
  annotations: CREATE,
});
