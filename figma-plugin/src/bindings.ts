/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// Design-system links on a layer: bind a fill, stroke, number, text or boolean property to a
// variable (or unbind it), and apply a paint, text, effect or grid style by id.
import { CommandError, loadFontsOf, sceneNode, type Handler } from "./kit.js";
import { findVariable, hex, VariableIndex } from "./variables.js";

declare const figma: PluginAPI;

/** Which variable type each bindable field takes. */
export const FIELD_TYPES: Record<string, VariableResolvedDataType> = {
  fills: "COLOR",
  strokes: "COLOR",
  visible: "BOOLEAN",
  characters: "STRING",
  fontFamily: "STRING",
  fontStyle: "STRING",
  ...Object.fromEntries(
    [
      "width", "height", "minWidth", "maxWidth", "minHeight", "maxHeight", "itemSpacing", "counterAxisSpacing",
      "paddingLeft", "paddingRight", "paddingTop", "paddingBottom", "cornerRadius", "topLeftRadius", "topRightRadius",
      "bottomLeftRadius", "bottomRightRadius", "strokeWeight", "strokeTopWeight", "strokeRightWeight", "strokeBottomWeight",
      "strokeLeftWeight", "opacity", "fontSize", "fontWeight", "letterSpacing", "lineHeight", "paragraphSpacing", "paragraphIndent",
    ].map((f) => [f, "FLOAT" as VariableResolvedDataType]),
  ),
};
const TEXT_FIELDS = new Set(["characters", "fontFamily", "fontStyle", "fontSize", "fontWeight", "letterSpacing", "lineHeight", "paragraphSpacing", "paragraphIndent"]);
const CORNERS = ["topLeftRadius", "topRightRadius", "bottomRightRadius", "bottomLeftRadius"] as const;

async function boundValue(n: SceneNode, field: string, paintIndex: number): Promise<unknown> {
  const any = n as SceneNode & Record<string, unknown>;
  if (field === "fills" || field === "strokes") {
    const p = (any[field] as Paint[])[paintIndex];
    return p?.type === "SOLID" ? hex(p.color, p.opacity ?? 1) : null;
  }
  const v = field === "cornerRadius" ? any.topLeftRadius : any[field];
  if (typeof v === "symbol") return "mixed";
  return v && typeof v === "object" && "value" in (v as object) ? (v as { value: unknown }).value : (v ?? null);
}

export const styleCommands: Record<string, Handler> = {
  async bind_variable({ nodeId, field, variable: ref, collection, paintIndex = 0 }) {
    const n = await sceneNode(nodeId);
    const any = n as SceneNode & Record<string, unknown>;
    const expected = FIELD_TYPES[field];
    if (!expected) throw new CommandError("invalid_input", `${field} cannot be bound to a variable`);
    const isText = TEXT_FIELDS.has(field);
    if (isText && n.type !== "TEXT") throw new CommandError("invalid_input", `${field} belongs to text layers; node ${nodeId} is a ${n.type}`);
    if (!isText && field !== "cornerRadius" && !(field in n)) throw new CommandError("invalid_input", `Node ${nodeId} (${n.type}) has no ${field}`);
    if (field === "cornerRadius" && !("topLeftRadius" in n)) throw new CommandError("invalid_input", `Node ${nodeId} (${n.type}) has no corner radius`);
    const variable = ref === null ? null : await findVariable(ref, collection);
    if (variable && variable.resolvedType !== expected) {
      throw new CommandError("invalid_input", `Variable "${variable.name}" is a ${variable.resolvedType}; ${field} takes a ${expected} variable`);
    }
    if (n.type === "TEXT" && (isText || field === "fills")) await loadFontsOf(n);

    if (field === "fills" || field === "strokes") {
      const current = any[field];
      if (typeof current === "symbol") throw new CommandError("invalid_input", `Node ${nodeId} has mixed ${field} (text with several colours): bind its ranges in Figma`);
      const paints = [...(current as Paint[])];
      if (paintIndex > paints.length || (paintIndex === paints.length && variable === null)) {
        throw new CommandError("invalid_input", `Node ${nodeId} has ${paints.length} ${field}: paintIndex must be 0–${Math.max(0, paints.length - 1)}`);
      }
      // No paint there yet: a solid one to carry the colour.
      const paint = paints[paintIndex] ?? ({ type: "SOLID", color: { r: 0, g: 0, b: 0 } } as SolidPaint);
      if (paint.type !== "SOLID") throw new CommandError("invalid_input", `${field}[${paintIndex}] of node ${nodeId} is a ${paint.type} paint: only solid paints bind to a colour variable`);
      paints[paintIndex] = figma.variables.setBoundVariableForPaint(paint, "color", variable);
      any[field] = paints;
    } else if (field === "cornerRadius") {
      for (const c of CORNERS) n.setBoundVariable(c, variable);
    } else {
      n.setBoundVariable(field as VariableBindableNodeField, variable);
    }
    const index = new VariableIndex();
    const collectionName = variable ? (await index.collection(variable.variableCollectionId))?.name : undefined;
    return {
      nodeId,
      field,
      ...(field === "fills" || field === "strokes" ? { paintIndex } : {}),
      variable: variable ? { id: variable.id, name: variable.name, collection: collectionName ?? null, type: variable.resolvedType } : null,
      value: await boundValue(n, field, paintIndex),
    };
  },

  async apply_style({ nodeId, styleId, target }) {
    const n = await sceneNode(nodeId);
    const style = await figma.getStyleByIdAsync(styleId);
    if (!style) throw new CommandError("not_found", `No style with id ${styleId} in this file: get_styles lists the local ones`);
    const cannot = (what: string) => new CommandError("invalid_input", `Node ${nodeId} (${n.type}) cannot take a ${what} style`);
    let applied: string;
    if (style.type === "PAINT") {
      const to = target ?? "fill";
      if (to !== "fill" && to !== "stroke") throw new CommandError("invalid_input", `A paint style applies to fill or stroke, not ${to}`);
      if (to === "fill") {
        if (!("setFillStyleIdAsync" in n)) throw cannot("fill");
        if (n.type === "TEXT") await loadFontsOf(n);
        await n.setFillStyleIdAsync(style.id);
      } else {
        if (!("setStrokeStyleIdAsync" in n)) throw cannot("stroke");
        await n.setStrokeStyleIdAsync(style.id);
      }
      applied = to;
    } else if (style.type === "TEXT") {
      if (n.type !== "TEXT") throw new CommandError("invalid_input", `Text style "${style.name}" applies to text layers; node ${nodeId} is a ${n.type}`);
      await loadFontsOf(n);
      try {
        await figma.loadFontAsync((style as TextStyle).fontName);
      } catch {
        const f = (style as TextStyle).fontName;
        throw new CommandError("unsupported", `The font of text style "${style.name}" (${f.family} ${f.style}) is not available on this computer: install it first`);
      }
      await n.setTextStyleIdAsync(style.id);
      applied = "text";
    } else if (style.type === "EFFECT") {
      if (!("setEffectStyleIdAsync" in n)) throw cannot("effect");
      await n.setEffectStyleIdAsync(style.id);
      applied = "effect";
    } else {
      if (!("setGridStyleIdAsync" in n)) throw cannot("grid");
      await (n as FrameNode).setGridStyleIdAsync(style.id);
      applied = "grid";
    }
    return { nodeId, applied, style: { id: style.id, name: style.name, type: style.type } };
  },
};
