/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// One layer as a developer needs it to build it: layout (auto-layout, sizing, constraints, absolute
// children), style (paints as hex, gradients, strokes, radii, effects, opacity, blend), text (spans,
// fonts, text style), and — wherever a value is bound — the variable's or style's name beside it.
// Components and instances carry their component, variant and property values; vectors and image
// fills are references the agent exports with export_node_as_image. Children are added by the caller.
import { round, type Brief } from "./describe.js";
import { bindingsOf, cssVar, hex, VariableIndex } from "./variables.js";

declare const figma: PluginAPI;


/** Node types drawn as vector paths: described as one exportable asset, their insides not walked. */
export const VECTOR_TYPES = new Set(["VECTOR", "BOOLEAN_OPERATION", "STAR", "LINE", "POLYGON"]);

export type DesignPaint =
  | { type: "SOLID"; color: string; opacity?: number; variable?: string }
  | { type: string; stops: { position: number; color: string; variable?: string }[]; angle?: number; opacity?: number }
  | { type: "IMAGE"; imageHash: string | null; scaleMode: string; opacity?: number }
  | { type: string };

export interface DesignNode extends Brief {
  parentId?: string;
  [key: string]: unknown;
  children?: DesignNode[];
}

/** What a whole design-context answer shares: variable and style lookups, and the variables seen. */
export class DesignScope {
  readonly vars = new VariableIndex();
  /** Variable name → what the answer's `variables` section says about it. */
  readonly used = new Map<string, { id: string; collection: string | null; type: string; cssVar: string; mode?: string; value: unknown }>();
  /** Variables used where CSS takes a plain number (opacity, font weight), not pixels. */
  readonly unitless = new Set<string>();
  private styles = new Map<string, Promise<BaseStyle | null>>();

  style(id: unknown): Promise<BaseStyle | null> {
    if (typeof id !== "string" || !id) return Promise.resolve(null);
    if (!this.styles.has(id)) this.styles.set(id, figma.getStyleByIdAsync(id).catch(() => null));
    return this.styles.get(id)!;
  }

  async styleName(id: unknown): Promise<string | undefined> {
    return (await this.style(id))?.name;
  }

  /** The variable's name, remembering it (and its value where it is used) for the answer's variables section. */
  async variable(alias: VariableAlias | undefined, consumer: BaseNode): Promise<string | undefined> {
    if (!alias) return undefined;
    const v = await this.vars.variable(alias.id);
    if (!v) return alias.id;
    if (!this.used.has(v.name)) {
      const collection = await this.vars.collection(v.variableCollectionId);
      const resolved = "type" in consumer && consumer.type !== "PAGE" && consumer.type !== "DOCUMENT" ? await this.vars.resolved(v, consumer as SceneNode) : { value: null };
      this.used.set(v.name, { id: v.id, collection: collection?.name ?? null, type: v.resolvedType, cssVar: cssVar(v), ...resolved });
    }
    return v.name;
  }
}

async function paints(value: readonly Paint[] | symbol, owner: BaseNode, scope: DesignScope): Promise<DesignPaint[] | "mixed"> {
  if (typeof value === "symbol") return "mixed";
  const out: DesignPaint[] = [];
  for (const p of value) {
    if (p.visible === false) continue;
    const opacity = p.opacity !== undefined && p.opacity < 1 ? { opacity: round(p.opacity) } : {};
    if (p.type === "SOLID") {
      const variable = await scope.variable(p.boundVariables?.color, owner);
      out.push({ type: "SOLID", color: hex(p.color), ...opacity, ...(variable ? { variable } : {}) });
    } else if (p.type.startsWith("GRADIENT_")) {
      const g = p as GradientPaint;
      const stops = [];
      for (const s of g.gradientStops) {
        const variable = await scope.variable(s.boundVariables?.color, owner);
        stops.push({ position: round(s.position), color: hex(s.color), ...(variable ? { variable } : {}) });
      }
      // The gradient's direction as a CSS angle (0deg = upwards), from its transform's first column.
      const [[a, , ], [b, , ]] = g.gradientTransform ?? [[1, 0, 0], [0, 1, 0]];
      const angle = Math.round(((Math.atan2(b, a) * 180) / Math.PI + 90 + 360) % 360);
      out.push({ type: p.type, stops, ...(p.type === "GRADIENT_LINEAR" ? { angle } : {}), ...opacity });
    } else if (p.type === "IMAGE") {
      out.push({ type: "IMAGE", imageHash: p.imageHash, scaleMode: p.scaleMode, ...opacity });
    } else out.push({ type: p.type });
  }
  return out;
}

async function effects(list: readonly Effect[], owner: BaseNode, scope: DesignScope): Promise<Record<string, unknown>[]> {
  const out: Record<string, unknown>[] = [];
  for (const e of list) {
    if (e.visible === false) continue;
    if (e.type === "DROP_SHADOW" || e.type === "INNER_SHADOW") {
      const variable = await scope.variable(e.boundVariables?.color, owner);
      out.push({ type: e.type, color: hex(e.color), offset: { x: round(e.offset.x), y: round(e.offset.y) }, radius: round(e.radius), spread: round(e.spread ?? 0), ...(variable ? { variable } : {}) });
    } else if (e.type === "LAYER_BLUR" || e.type === "BACKGROUND_BLUR") out.push({ type: e.type, radius: round((e as BlurEffect).radius) });
    else out.push({ type: (e as { type: string }).type });
  }
  return out;
}

const mixedOr = <T>(v: T | symbol): T | "mixed" => (typeof v === "symbol" ? "mixed" : v);

function lineHeight(l: LineHeight): unknown {
  return l.unit === "AUTO" ? "AUTO" : { value: round(l.value), unit: l.unit };
}

async function textOf(t: TextNode, scope: DesignScope): Promise<Record<string, unknown>> {
  const fields = ["fontName", "fontSize", "fontWeight", "lineHeight", "letterSpacing", "fills", "textStyleId", "textDecoration", "textCase"] as const;
  const segments = t.getStyledTextSegments([...fields]);
  const describe = async (s: (typeof segments)[number]) => ({
    fontFamily: s.fontName.family,
    fontStyle: s.fontName.style,
    fontWeight: s.fontWeight,
    fontSize: round(s.fontSize),
    lineHeight: lineHeight(s.lineHeight),
    letterSpacing: { value: round(s.letterSpacing.value), unit: s.letterSpacing.unit },
    ...(s.textDecoration !== "NONE" ? { decoration: s.textDecoration } : {}),
    ...(s.textCase !== "ORIGINAL" ? { case: s.textCase } : {}),
    ...(s.textStyleId ? { style: (await scope.styleName(s.textStyleId)) ?? s.textStyleId } : {}),
  });
  // The layer's text style is its longest run's; spans list every run when they differ.
  const main = [...segments].sort((a, b) => b.end - b.start - (a.end - a.start))[0];
  const out: Record<string, unknown> = {
    characters: t.characters,
    ...(main ? await describe(main) : {}),
    align: t.textAlignHorizontal,
    verticalAlign: t.textAlignVertical,
    autoResize: t.textAutoResize,
    ...(t.paragraphSpacing ? { paragraphSpacing: t.paragraphSpacing } : {}),
  };
  if (segments.length > 1) {
    out.spans = await Promise.all(
      segments.map(async (s) => ({ start: s.start, end: s.end, characters: s.characters, ...(await describe(s)), fills: await paints(s.fills, t, scope) })),
    );
  }
  return out;
}

/** The component an instance shows, with its variant and the values of its properties. */
async function componentOf(n: InstanceNode | ComponentNode | ComponentSetNode): Promise<Record<string, unknown>> {
  if (n.type === "INSTANCE") {
    const main = await n.getMainComponentAsync();
    const set = main?.parent?.type === "COMPONENT_SET" ? main.parent : null;
    const properties: Record<string, unknown> = {};
    for (const [name, p] of Object.entries(n.componentProperties ?? {})) {
      let value: unknown = p.value;
      if (p.type === "INSTANCE_SWAP" && typeof p.value === "string") {
        const swapped = await figma.getNodeByIdAsync(p.value);
        value = { id: p.value, name: swapped?.name ?? null };
      }
      properties[name] = { type: p.type, value };
    }
    return {
      id: main?.id ?? null,
      name: set ? set.name : (main?.name ?? null),
      key: main?.key ?? null,
      ...(set ? { variant: n.variantProperties ?? {} } : {}),
      ...(Object.keys(properties).length ? { properties } : {}),
      ...(main?.remote ? { remote: true } : {}),
    };
  }
  const inSet = n.type === "COMPONENT" && n.parent?.type === "COMPONENT_SET";
  return {
    key: n.key,
    ...(n.description ? { description: n.description } : {}),
    ...(inSet ? { set: n.parent!.name, variant: (n as ComponentNode).variantProperties ?? {} } : { properties: n.componentPropertyDefinitions }),
  };
}

/** One layer as a developer needs it (no children). */
export async function designNode(n: SceneNode, scope: DesignScope): Promise<DesignNode> {
  const out: DesignNode = { id: n.id, name: n.name, type: n.type };
  const any = n as unknown as Partial<Omit<FrameNode, "type">>;
  if ("x" in n) Object.assign(out, { x: round(n.x), y: round(n.y), width: round(n.width), height: round(n.height) });
  if (n.visible === false) out.visible = false;
  if ("rotation" in n && n.rotation) out.rotation = round(n.rotation);
  const parent: BaseNode | null = n.parent;
  const inAutoLayout = !!parent && "layoutMode" in parent && (parent as FrameNode).layoutMode !== "NONE";

  // Layout: this layer's own auto-layout…
  if ("layoutMode" in n && any.layoutMode && any.layoutMode !== "NONE") {
    const f = n as FrameNode;
    out.layout = {
      mode: f.layoutMode,
      ...(f.layoutWrap === "WRAP" ? { wrap: true, counterGap: f.counterAxisSpacing } : {}),
      gap: f.primaryAxisAlignItems === "SPACE_BETWEEN" ? "AUTO" : f.itemSpacing,
      padding: { top: f.paddingTop, right: f.paddingRight, bottom: f.paddingBottom, left: f.paddingLeft },
      primaryAlign: f.primaryAxisAlignItems,
      counterAlign: f.counterAxisAlignItems,
      ...(f.layoutWrap === "WRAP" && f.counterAxisAlignContent !== "AUTO" ? { alignContent: f.counterAxisAlignContent } : {}),
      ...(f.itemReverseZIndex ? { reverseZIndex: true } : {}),
      ...(f.strokesIncludedInLayout ? { strokesIncludedInLayout: true } : {}),
    };
  }
  // …and how it sits in its parent: hug / fill / fixed in auto-layout, constraints otherwise.
  if ("layoutSizingHorizontal" in n && (inAutoLayout || out.layout)) {
    out.sizing = { horizontal: any.layoutSizingHorizontal, vertical: any.layoutSizingVertical };
  }
  if (inAutoLayout && "layoutPositioning" in n && any.layoutPositioning === "ABSOLUTE") out.positioning = "ABSOLUTE";
  if (parent && parent.type !== "PAGE" && (!inAutoLayout || out.positioning) && "constraints" in n && any.constraints) out.constraints = any.constraints;
  for (const k of ["minWidth", "maxWidth", "minHeight", "maxHeight"] as const) {
    if (k in n && typeof any[k] === "number") out[k] = any[k];
  }
  if ("clipsContent" in n && any.clipsContent && n.type !== "INSTANCE") out.clipsContent = true;

  // Style.
  if ("fills" in n) {
    const fills = await paints(any.fills as readonly Paint[] | symbol, n, scope);
    if (fills === "mixed" || fills.length) out.fills = fills;
    const style = await scope.styleName(mixedOr(any.fillStyleId));
    if (style) out.fillStyle = style;
  }
  if ("strokes" in n) {
    const strokes = await paints(any.strokes as readonly Paint[], n, scope);
    if (strokes !== "mixed" && strokes.length) {
      out.strokes = strokes;
      const weights = "strokeTopWeight" in n ? [any.strokeTopWeight, any.strokeRightWeight, any.strokeBottomWeight, any.strokeLeftWeight] : [];
      out.strokeWeight =
        typeof any.strokeWeight === "symbol" && weights.length ? { top: weights[0], right: weights[1], bottom: weights[2], left: weights[3] } : mixedOr(any.strokeWeight);
      if (any.strokeAlign) out.strokeAlign = any.strokeAlign;
      if (any.dashPattern?.length) out.dashPattern = any.dashPattern;
      const style = await scope.styleName(any.strokeStyleId);
      if (style) out.strokeStyle = style;
    }
  }
  if (n.type === "ELLIPSE") out.shape = "ELLIPSE";
  else if ("cornerRadius" in n) {
    const c = n as SceneNode & RectangleCornerMixin & CornerMixin;
    if (typeof c.cornerRadius === "symbol") out.radius = [c.topLeftRadius, c.topRightRadius, c.bottomRightRadius, c.bottomLeftRadius];
    else if (c.cornerRadius) out.radius = c.cornerRadius;
  }
  if ("effects" in n && any.effects?.length) {
    const list = await effects(any.effects, n, scope);
    if (list.length) out.effects = list;
    const style = await scope.styleName(any.effectStyleId);
    if (style) out.effectStyle = style;
  }
  if ("opacity" in n && any.opacity !== undefined && any.opacity < 1) out.opacity = round(any.opacity);
  if ("blendMode" in n && any.blendMode && any.blendMode !== "PASS_THROUGH" && any.blendMode !== "NORMAL") out.blendMode = any.blendMode;
  if ("isMask" in n && any.isMask) out.isMask = true;

  if (n.type === "TEXT") out.text = await textOf(n, scope);

  // Bound variables by Figma's field name (the `field` bind_variable takes), beside the values above.
  const bound: Record<string, string | string[]> = {};
  for (const [field, aliases] of bindingsOf(n)) {
    const names = (await Promise.all(aliases.map((a) => scope.variable(a, n)))).filter((x): x is string => !!x);
    if (field === "opacity" || field === "fontWeight") names.forEach((name) => scope.unitless.add(name));
    if (names.length) bound[field] = field === "fills" || field === "strokes" || field === "effects" || names.length > 1 ? names : names[0]!;
  }
  if (Object.keys(bound).length) out.variables = bound;

  if (n.type === "INSTANCE" || n.type === "COMPONENT" || n.type === "COMPONENT_SET") out.component = await componentOf(n);
  const refs = "componentPropertyReferences" in n ? n.componentPropertyReferences : null;
  if (refs && Object.keys(refs).length) out.propertyRefs = refs;

  // Vectors and image fills: references the agent exports (export_node_as_image), never inline bytes.
  const imageFill = Array.isArray(out.fills) && (out.fills as DesignPaint[]).some((p) => p.type === "IMAGE");
  if (VECTOR_TYPES.has(n.type) || ("isAsset" in n && n.isAsset && n.type !== "TEXT" && !("children" in n && n.children.some((c) => c.type === "TEXT")))) {
    out.asset = { kind: "vector", export: { nodeId: n.id, format: "SVG" } };
  } else if (imageFill) out.asset = { kind: "image", export: { nodeId: n.id, format: "PNG" } };

  if ("annotations" in n && n.annotations?.length) {
    out.annotations = n.annotations.map((a) => ({
      ...(a.label ? { label: a.label } : {}),
      ...(a.labelMarkdown ? { labelMarkdown: a.labelMarkdown } : {}),
      ...(a.properties?.length ? { properties: a.properties.map((p) => p.type) } : {}),
    }));
  }
  return out;
}
