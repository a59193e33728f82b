// get_design_context: what a developer needs to build a layer (default: the selection), as a JSON
// tree or as HTML + CSS / Tailwind, within a character budget continued by a cursor.
import { z } from "zod";
import { figmaTool, present } from "../figma-tool.js";
import { cursorArg, nodeId, READ } from "../schema.js";
import { DESIGN_VIEW } from "../views.js";

export const getDesignContext = figmaTool({
  name: "get_design_context",
  title: "Get design context",
  description:
    "Everything needed to build a layer in code (default: the current selection): layout (auto-layout direction, gap, padding, alignment, hug/fill/fixed sizing, constraints, absolute children), " +
    "style (fills as hex, gradients, strokes, radii, effects, opacity, blend), text (characters, spans, font family/weight/size, line height, letter spacing, text style), " +
    "the variable and style names wherever a value is bound (variables: field → name; the `variables` section gives each one's collection, CSS custom property and value), " +
    "components and instances (component, variant, property values), and vectors and image fills as assets to fetch with export_node_as_image. " +
    'format "json" (default) is the layer tree; "html" is HTML with a class per layer plus a stylesheet; "tailwind" is HTML with Tailwind classes. ' +
    "Answers stay within maxChars: when truncated is true, call again with cursor = nextCursor for the following layers (those carry parentId).",
  args: {
    nodeId: nodeId("The layer to describe (default: the current selection)").optional(),
    format: z.enum(["json", "html", "tailwind"]).default("json").describe('"json" (default), "html" (HTML + CSS) or "tailwind" (HTML with Tailwind classes)'),
    maxChars: z.number().int().min(2_000).max(200_000).default(30_000).describe("Budget for one answer in characters, 2,000–200,000 (default 30,000)"),
    depth: z.number().int().min(0).max(100).default(100).describe("Levels below the layer to include (default: all)"),
    cursor: cursorArg,
  },
  annotations: READ,
  ui: { resourceUri: DESIGN_VIEW.uri },
  present(result, session) {
    if (result.format === "json") return present(result, session);
    // HTML: the markup and stylesheet as readable text, the rest as JSON.
    const { html, css, ...meta } = result as { html: string; css?: string } & Record<string, unknown>;
    const answer = present({ ...meta, html, css }, session);
    const parts = [`<style>\n${css ?? ""}\n</style>`, html].join("\n\n");
    const metaText = present(meta, session).text;
    return { ...answer, text: `${metaText}\n\n${parts}` };
  },
});
