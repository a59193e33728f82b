// A described design (design.ts) as ready-to-adapt HTML: with a class per layer and a stylesheet, or
// with Tailwind utility classes. Auto-layout becomes flexbox (gap, padding, alignment, hug / fill /
// fixed), other children are placed absolutely; bound variables become CSS custom properties with
// the resolved value as fallback; vectors and image fills become <img> references to export.
import type { DesignNode, DesignPaint } from "./design.js";

export type Declarations = [string, string][];
type Vars = Map<string, { cssVar: string }>;

const px = (n: unknown) => `${Math.round(Number(n) * 100) / 100}px`;

/** The colour as CSS: #RRGGBB, or rgba() when a paint opacity applies. */
function color(hexColor: string, opacity = 1): string {
  if (opacity >= 1) return hexColor.toLowerCase();
  const h = hexColor.replace("#", "");
  const [r, g, b] = [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16));
  const a = (h.length === 8 ? parseInt(h.slice(6, 8), 16) / 255 : 1) * opacity;
  return `rgba(${r}, ${g}, ${b}, ${Math.round(a * 1000) / 1000})`;
}

const withVar = (vars: Vars, name: string | undefined, value: string) => {
  const v = name ? vars.get(name) : undefined;
  return v ? `var(${v.cssVar}, ${value})` : value;
};

function paintCss(p: DesignPaint, vars: Vars): string | undefined {
  if (p.type === "SOLID" && "color" in p) return withVar(vars, p.variable, color(p.color, p.opacity));
  if ("stops" in p) {
    const stops = p.stops.map((s) => `${withVar(vars, s.variable, color(s.color, p.opacity))} ${Math.round(s.position * 100)}%`).join(", ");
    if (p.type === "GRADIENT_LINEAR") return `linear-gradient(${p.angle ?? 180}deg, ${stops})`;
    if (p.type === "GRADIENT_RADIAL") return `radial-gradient(${stops})`;
    if (p.type === "GRADIENT_ANGULAR") return `conic-gradient(${stops})`;
    return `linear-gradient(${stops})`;
  }
  return undefined;
}

const JUSTIFY: Record<string, string> = { MIN: "flex-start", CENTER: "center", MAX: "flex-end", SPACE_BETWEEN: "space-between" };
const ALIGN: Record<string, string> = { MIN: "flex-start", CENTER: "center", MAX: "flex-end", BASELINE: "baseline" };

/** The CSS of one layer, given its parent (undefined for the root of the rendering). */
export function declarations(n: DesignNode, parent: DesignNode | undefined, vars: Vars): Declarations {
  const d: Declarations = [];
  const bound = (n.variables ?? {}) as Record<string, string | string[]>;
  const one = (field: string) => (typeof bound[field] === "string" ? (bound[field] as string) : undefined);
  const dim = (field: string, value: unknown) => withVar(vars, one(field), px(value));
  const layout = n.layout as { mode: string; wrap?: boolean; gap: number | "AUTO"; counterGap?: number; padding: Record<string, number>; primaryAlign: string; counterAlign: string } | undefined;
  const sizing = n.sizing as { horizontal: string; vertical: string } | undefined;
  const parentLayout = parent?.layout as { mode: string } | undefined;

  if (n.visible === false) d.push(["display", "none"]);
  // Where it sits.
  const flowChild = !!parentLayout && n.positioning !== "ABSOLUTE";
  if (parent && !flowChild) {
    d.push(["position", "absolute"], ["left", px(n.x)], ["top", px(n.y)]);
  } else if (!parent || layout || (n.children ?? []).some((c) => c.positioning === "ABSOLUTE")) {
    if (!parent || !flowChild || (n.children ?? []).length) d.push(["position", "relative"]);
  }
  // How big: fixed sizes as pixels, hug as the content's size, fill as flex growth / stretch.
  const axis = (dir: "horizontal" | "vertical") => {
    const prop = dir === "horizontal" ? "width" : "height";
    const mode = sizing?.[dir] ?? "FIXED";
    const primary = flowChild && ((parentLayout!.mode === "HORIZONTAL") === (dir === "horizontal"));
    if (flowChild && mode === "FILL") {
      if (primary) d.push(["flex", "1 1 0"], [dir === "horizontal" ? "min-width" : "min-height", "0"]);
      else d.push(["align-self", "stretch"]);
      return;
    }
    if (mode === "HUG" || (n.type === "TEXT" && mode !== "FIXED" && sizing)) {
      if (primary) d.push(["flex-shrink", "0"]);
      return;
    }
    if (n.type === "TEXT" && prop === "height" && !sizing) return; // text grows with its lines
    d.push([prop, dim(prop, n[prop])]);
    if (primary) d.push(["flex-shrink", "0"]);
  };
  if (n.width !== undefined) {
    axis("horizontal");
    axis("vertical");
  }
  for (const k of ["minWidth", "maxWidth", "minHeight", "maxHeight"]) {
    if (typeof n[k] === "number") d.push([k.replace(/[A-Z]/, (c) => `-${c.toLowerCase()}`), dim(k, n[k])]);
  }
  // Auto-layout as flexbox.
  if (layout) {
    d.push(["display", "flex"], ["flex-direction", layout.mode === "HORIZONTAL" ? "row" : "column"]);
    if (layout.wrap) d.push(["flex-wrap", "wrap"]);
    if (layout.gap !== "AUTO" && layout.gap) d.push([layout.wrap ? "column-gap" : "gap", dim("itemSpacing", layout.gap)]);
    if (layout.wrap && layout.counterGap) d.push(["row-gap", dim("counterAxisSpacing", layout.counterGap)]);
    const p = layout.padding;
    if (p.top || p.right || p.bottom || p.left) {
      d.push(["padding", ["Top", "Right", "Bottom", "Left"].map((s) => dim(`padding${s}`, p[s.toLowerCase()])).join(" ")]);
    }
    d.push(["justify-content", JUSTIFY[layout.primaryAlign] ?? "flex-start"], ["align-items", ALIGN[layout.counterAlign] ?? "flex-start"]);
  }
  // Paint.
  const fills = Array.isArray(n.fills) ? (n.fills as DesignPaint[]) : [];
  if (n.type === "TEXT") {
    const solid = fills.find((f) => f.type === "SOLID");
    if (solid) d.push(["color", paintCss(solid, vars)!]);
  } else if (fills.length) {
    // Figma lists paints bottom to top; CSS backgrounds top to bottom.
    const layers = fills.map((f) => paintCss(f, vars)).filter((x): x is string => !!x).reverse();
    if (layers.length === 1 && fills.length === 1 && fills[0]!.type === "SOLID") d.push(["background-color", layers[0]!]);
    else if (layers.length) d.push(["background", layers.map((l) => (l.includes("gradient(") ? l : `linear-gradient(${l}, ${l})`)).join(", ")]);
  }
  const strokes = Array.isArray(n.strokes) ? (n.strokes as DesignPaint[]) : [];
  const stroke = strokes.map((s) => paintCss(s, vars)).find(Boolean);
  if (stroke) {
    const w = n.strokeWeight;
    const style = Array.isArray(n.dashPattern) ? "dashed" : "solid";
    if (typeof w === "object" && w) {
      for (const side of ["top", "right", "bottom", "left"]) d.push([`border-${side}`, `${px((w as Record<string, number>)[side])} ${style} ${stroke}`]);
    } else if (n.strokeAlign === "OUTSIDE") d.push(["outline", `${dim("strokeWeight", w)} ${style} ${stroke}`]);
    else d.push(["border", `${dim("strokeWeight", w)} ${style} ${stroke}`]);
  }
  if (n.shape === "ELLIPSE") d.push(["border-radius", "50%"]);
  else if (Array.isArray(n.radius)) d.push(["border-radius", (n.radius as number[]).map(px).join(" ")]);
  else if (typeof n.radius === "number") d.push(["border-radius", dim(one("cornerRadius") ? "cornerRadius" : "topLeftRadius", n.radius)]);
  const shadows: string[] = [];
  for (const e of (n.effects ?? []) as { type: string; color?: string; offset?: { x: number; y: number }; radius: number; spread?: number; variable?: string }[]) {
    if (e.type === "DROP_SHADOW" || e.type === "INNER_SHADOW") {
      shadows.push(`${e.type === "INNER_SHADOW" ? "inset " : ""}${px(e.offset!.x)} ${px(e.offset!.y)} ${px(e.radius)}${n.type === "TEXT" ? "" : ` ${px(e.spread ?? 0)}`} ${withVar(vars, e.variable, color(e.color!))}`);
    } else if (e.type === "LAYER_BLUR") d.push(["filter", `blur(${px(e.radius / 2)})`]);
    else if (e.type === "BACKGROUND_BLUR") d.push(["backdrop-filter", `blur(${px(e.radius / 2)})`]);
  }
  if (shadows.length) d.push([n.type === "TEXT" ? "text-shadow" : "box-shadow", shadows.join(", ")]);
  if (typeof n.opacity === "number") d.push(["opacity", withVar(vars, one("opacity"), String(n.opacity))]);
  if (typeof n.blendMode === "string") d.push(["mix-blend-mode", n.blendMode.toLowerCase().replace(/_/g, "-").replace("linear-", "")]);
  if (n.clipsContent) d.push(["overflow", "hidden"]);
  if (typeof n.rotation === "number") d.push(["transform", `rotate(${-n.rotation}deg)`], ["transform-origin", "top left"]);
  // Text.
  const t = n.text as Record<string, unknown> | undefined;
  if (t) {
    d.push(["margin", "0"], ["font-family", withVar(vars, one("fontFamily"), `"${String(t.fontFamily)}", sans-serif`)]);
    d.push(["font-size", dim("fontSize", t.fontSize)], ["font-weight", withVar(vars, one("fontWeight"), String(t.fontWeight))]);
    if (/italic/i.test(String(t.fontStyle))) d.push(["font-style", "italic"]);
    const lh = t.lineHeight as "AUTO" | { value: number; unit: string };
    d.push(["line-height", lh === "AUTO" ? "normal" : lh.unit === "PIXELS" ? dim("lineHeight", lh.value) : `${lh.value}%`]);
    const ls = t.letterSpacing as { value: number; unit: string };
    if (ls.value) d.push(["letter-spacing", ls.unit === "PIXELS" ? dim("letterSpacing", ls.value) : `${Math.round(ls.value * 10) / 1000}em`]);
    const align = String(t.align ?? "LEFT").toLowerCase();
    if (align !== "left") d.push(["text-align", align === "justified" ? "justify" : align]);
    if (t.autoResize === "WIDTH_AND_HEIGHT") d.push(["white-space", "nowrap"]);
    if (t.decoration) d.push(["text-decoration", String(t.decoration).toLowerCase().replace("strikethrough", "line-through")]);
    const textCase: Record<string, string> = { UPPER: "uppercase", LOWER: "lowercase", TITLE: "capitalize" };
    if (t.case && textCase[String(t.case)]) d.push(["text-transform", textCase[String(t.case)]!]);
  }
  return d;
}

/** What a run of text sets differently from its layer (weight, size, family, style, colour). */
function spanDeclarations(span: Record<string, unknown>, base: Record<string, unknown>, layerFills: DesignPaint[], vars: Vars): Declarations {
  const d: Declarations = [];
  if (span.fontFamily !== undefined && span.fontFamily !== base.fontFamily) d.push(["font-family", `"${String(span.fontFamily)}", sans-serif`]);
  if (span.fontSize !== undefined && span.fontSize !== base.fontSize) d.push(["font-size", px(span.fontSize)]);
  if (span.fontWeight !== undefined && span.fontWeight !== base.fontWeight) d.push(["font-weight", String(span.fontWeight)]);
  if (span.fontStyle !== undefined && /italic/i.test(String(span.fontStyle)) !== /italic/i.test(String(base.fontStyle))) d.push(["font-style", /italic/i.test(String(span.fontStyle)) ? "italic" : "normal"]);
  const solid = ((span.fills as DesignPaint[] | undefined) ?? []).find((f) => f.type === "SOLID");
  const layerSolid = layerFills.find((f) => f.type === "SOLID");
  if (solid && JSON.stringify(solid) !== JSON.stringify(layerSolid)) d.push(["color", paintCss(solid, vars)!]);
  return d;
}

// --- Tailwind ------------------------------------------------------------------------------
const arbitrary = (v: string) => v.replace(/\s*,\s*/g, ",").replace(/ /g, "_");
const KEYWORDS: Record<string, string> = {
  "display:flex": "flex",
  "display:none": "hidden",
  "flex-direction:row": "flex-row",
  "flex-direction:column": "flex-col",
  "flex-wrap:wrap": "flex-wrap",
  "position:absolute": "absolute",
  "position:relative": "relative",
  "flex:1 1 0": "flex-1",
  "flex-shrink:0": "shrink-0",
  "align-self:stretch": "self-stretch",
  "justify-content:flex-start": "justify-start",
  "justify-content:center": "justify-center",
  "justify-content:flex-end": "justify-end",
  "justify-content:space-between": "justify-between",
  "align-items:flex-start": "items-start",
  "align-items:center": "items-center",
  "align-items:flex-end": "items-end",
  "align-items:baseline": "items-baseline",
  "overflow:hidden": "overflow-hidden",
  "white-space:nowrap": "whitespace-nowrap",
  "font-style:italic": "italic",
  "text-align:center": "text-center",
  "text-align:right": "text-right",
  "text-align:justify": "text-justify",
  "margin:0": "m-0",
  "text-transform:uppercase": "uppercase",
  "text-transform:lowercase": "lowercase",
  "text-transform:capitalize": "capitalize",
  "border-radius:50%": "rounded-full",
  "min-width:0": "min-w-0",
  "min-height:0": "min-h-0",
};
const PREFIX: Record<string, string> = {
  width: "w",
  height: "h",
  "min-width": "min-w",
  "max-width": "max-w",
  "min-height": "min-h",
  "max-height": "max-h",
  left: "left",
  top: "top",
  gap: "gap",
  "row-gap": "gap-y",
  "column-gap": "gap-x",
  "background-color": "bg",
  color: "text",
  "font-size": "text",
  "font-weight": "font",
  "line-height": "leading",
  "letter-spacing": "tracking",
  "border-radius": "rounded",
  opacity: "opacity",
  "box-shadow": "shadow",
  "font-family": "font",
};

/** Tailwind utility classes for the declarations (arbitrary values where no scale step is exact). */
export function tailwind(d: Declarations): string[] {
  const out: string[] = [];
  for (const [prop, value] of d) {
    const keyword = KEYWORDS[`${prop}:${value}`];
    if (keyword) out.push(keyword);
    else if (prop === "padding") {
      const parts = value.match(/var\([^)]*\)|\S+/g) ?? [];
      const [t, r, b, l] = parts;
      if (parts.every((p) => p === t)) out.push(`p-[${arbitrary(t!)}]`);
      else if (t === b && r === l) out.push(`px-[${arbitrary(r!)}]`, `py-[${arbitrary(t!)}]`);
      else out.push(`pt-[${arbitrary(t!)}]`, `pr-[${arbitrary(r!)}]`, `pb-[${arbitrary(b!)}]`, `pl-[${arbitrary(l!)}]`);
    } else if (PREFIX[prop]) {
      // text-[…] is ambiguous between size and colour: Tailwind needs a type hint for sizes and variables.
      out.push(`${PREFIX[prop]}-[${prop === "font-size" ? "length:" : prop === "color" && value.startsWith("var(") ? "color:" : ""}${arbitrary(value)}]`);
    } else out.push(`[${prop}:${arbitrary(value)}]`);
  }
  return out;
}

// --- HTML ----------------------------------------------------------------------------------
const escapeHtml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40) || "layer";

export interface Rendered {
  html: string;
  css?: string;
  /** Files the markup refers to: export each with export_node_as_image. */
  assets: { file: string; nodeId: string; format: string }[];
}

/**
 * Renders a forest (top-level entries carry parentId when their parent is not in it) as HTML with
 * classes and a stylesheet ("html") or with Tailwind classes ("tailwind"). `parentOf` supplies the
 * described parent of a top-level entry (its layout decides how the entry is placed).
 */
export function renderHtml(
  roots: DesignNode[],
  vars: Map<string, { cssVar: string; value: unknown }>,
  mode: "html" | "tailwind",
  parentOf: (n: DesignNode) => DesignNode | undefined,
  unitless: ReadonlySet<string> = new Set(),
): Rendered {
  const rules: string[] = [];
  const assets: Rendered["assets"] = [];
  const classes = new Map<string, number>();
  const className = (n: DesignNode) => {
    const base = slug(n.name);
    const seen = (classes.get(base) ?? 0) + 1;
    classes.set(base, seen);
    return seen === 1 ? base : `${base}-${seen}`;
  };
  const el = (n: DesignNode, parent: DesignNode | undefined, indent: string): string => {
    const asset = n.asset as { kind: string; export: { nodeId: string; format: string } } | undefined;
    // A vector is drawn by its exported file: its paints are in the picture, not the box.
    const d = declarations(n, parent, vars).filter(([p]) => asset?.kind !== "vector" || !(p.startsWith("background") || p === "border"));
    const file = asset ? `assets/${slug(n.name)}-${n.id.replace(/[^0-9]+/g, "-").replace(/^-|-$/g, "")}.${asset.export.format.toLowerCase()}` : "";
    if (asset) {
      assets.push({ file, nodeId: asset.export.nodeId, format: asset.export.format });
      // An image fill: the layer keeps its box (and children); the picture is its background.
      if (asset.kind === "image") d.push(["background-image", `url("${file}")`], ["background-size", "cover"]);
    }
    const name = className(n);
    let cls: string;
    if (mode === "html") {
      if (d.length) rules.push(`.${name} {\n${d.map(([p, v]) => `  ${p}: ${v};`).join("\n")}\n}`);
      cls = name;
    } else cls = tailwind(d).join(" ");
    const attrs = `class="${escapeHtml(cls)}" data-node-id="${escapeHtml(n.id)}"${n.parentId ? ` data-parent-id="${escapeHtml(n.parentId)}"` : ""}`;
    if (asset?.kind === "vector") return `${indent}<img ${attrs} src="${file}" alt="${escapeHtml(n.name)}" width="${n.width}" height="${n.height}">`;
    if (n.type === "TEXT") {
      const text = n.text as { characters: string; spans?: Record<string, unknown>[] };
      const body = (text.spans ?? [{ characters: text.characters }]).map((span, i) => {
        const chars = escapeHtml(String(span.characters)).replace(/\n/g, "<br>");
        const sd = spanDeclarations(span, text, Array.isArray(n.fills) ? (n.fills as DesignPaint[]) : [], vars);
        if (!sd.length) return chars;
        if (mode === "tailwind") return `<span class="${escapeHtml(tailwind(sd).join(" "))}">${chars}</span>`;
        rules.push(`.${name}-span-${i + 1} {\n${sd.map(([p, v]) => `  ${p}: ${v};`).join("\n")}\n}`);
        return `<span class="${name}-span-${i + 1}">${chars}</span>`;
      });
      return `${indent}<p ${attrs}>${body.join("")}</p>`;
    }
    const kids = (n.children ?? []).map((c) => el(c, n, `${indent}  `));
    const tag = "div";
    const comment = n.type === "INSTANCE" && n.component ? `<!-- ${escapeHtml(String((n.component as { name?: string }).name ?? ""))} instance -->` : "";
    return kids.length ? `${indent}<${tag} ${attrs}>${comment}\n${kids.join("\n")}\n${indent}</${tag}>` : `${indent}<${tag} ${attrs}>${comment}</${tag}>`;
  };
  const html = roots.map((r) => el(r, parentOf(r), "")).join("\n");
  const root = vars.size ? `:root {\n${[...vars].map(([name, v]) => `  ${v.cssVar}: ${cssValue(v.value, unitless.has(name))};`).join("\n")}\n}` : "";
  const base = "*, *::before, *::after {\n  box-sizing: border-box;\n}";
  if (mode === "html") return { html, css: [root, base, ...rules].filter(Boolean).join("\n\n"), assets };
  return { html, css: [root, base].filter(Boolean).join("\n\n"), assets };
}

function cssValue(v: unknown, unitless: boolean): string {
  if (typeof v === "number") return unitless ? String(v) : `${v}px`;
  if (typeof v === "string") return /^#[0-9A-Fa-f]{6,8}$/.test(v) ? v.toLowerCase() : v;
  if (typeof v === "boolean") return v ? "1" : "0";
  return "initial";
}
