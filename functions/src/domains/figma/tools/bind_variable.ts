// bind_variable: link a fill, stroke, number, text or boolean property of a layer to a variable.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

const FIELDS = [
  "fills", "strokes", "width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight", "itemSpacing", "counterAxisSpacing",
  "paddingLeft", "paddingRight", "paddingTop", "paddingBottom", "cornerRadius", "topLeftRadius", "topRightRadius", "bottomLeftRadius",
  "bottomRightRadius", "strokeWeight", "strokeTopWeight", "strokeRightWeight", "strokeBottomWeight", "strokeLeftWeight", "opacity", "visible",
  "characters", "fontFamily", "fontStyle", "fontSize", "fontWeight", "letterSpacing", "lineHeight", "paragraphSpacing", "paragraphIndent",
] as const;

export const bindVariable = figmaTool({
  name: "bind_variable",
  title: "Bind variable",
  description:
    "Binds a layer's property to a variable, so it follows the design system (and its modes): fills/strokes (a COLOR variable, on the paint at paintIndex), " +
    "sizes, gaps, paddings, radii, stroke weights, opacity, font size/weight, line height, letter spacing (FLOAT), characters/font family/style (STRING), visible (BOOLEAN). " +
    "variable is a variable's id or name (get_variable_defs lists them); null unbinds. Returns the value the layer now shows.",
  args: {
    nodeId: nodeId("The layer"),
    field: z.enum(FIELDS).describe("The property to bind (Figma's field name)"),
    variable: z.string().min(1).max(300).nullable().describe('Variable id ("VariableID:…") or name ("color/brand/primary"); null removes the binding'),
    collection: z.string().max(200).optional().describe("The variable's collection, when several collections have a variable of that name"),
    paintIndex: z.number().int().min(0).max(50).default(0).describe("Which fill or stroke (default 0, the bottom one)"),
  },
  annotations: UPDATE,
});
