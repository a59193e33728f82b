// create_text_style: a local text style.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { CREATE } from "../schema.js";

export const createTextStyle = figmaTool({
  name: "create_text_style",
  title: "Create text style",
  description: 'Creates a local text style ("Heading/H2"): font family (default Inter), weight, size, line height and letter spacing in pixels. The font must be available in Figma. Apply it with apply_style.',
  args: {
    name: z.string().trim().min(1).max(200).describe("The style's name"),
    fontFamily: z.string().trim().min(1).max(100).default("Inter").describe("Font family (default Inter)"),
    fontWeight: z.number().int().min(100).max(900).default(400).describe("100–900 (default 400)"),
    fontSize: z.number().min(1).max(1000).describe("Font size"),
    lineHeight: z.number().min(0).max(2000).optional().describe("Line height in pixels (default auto)"),
    letterSpacing: z.number().min(-1000).max(1000).optional().describe("Letter spacing in pixels"),
    description: z.string().max(2000).optional(),
  },
  annotations: CREATE,
});
