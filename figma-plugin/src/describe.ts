/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// How layers are described to the agent: plain JSON, colours as r, g, b, a (0–1), bounded trees.

export interface Brief {
  id: string;
  name: string;
  type: string;
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  visible?: boolean;
}

export type Described = Brief & Record<string, unknown>;

/** Positions, sizes and colour channels to two decimals: what the agent needs, without float noise. */
export const round = (n: number) => Math.round(n * 100) / 100;

export function brief(node: BaseNode): Described {
  const out: Described = { id: node.id, name: node.name, type: node.type };
  if ("x" in node) {
    out.x = round(node.x);
    out.y = round(node.y);
    out.width = round(node.width);
    out.height = round(node.height);
  }
  if ("visible" in node && node.visible === false) out.visible = false;
  return out;
}

function paints(value: readonly Paint[] | PluginAPI["mixed"]): unknown {
  if (typeof value === "symbol") return "mixed";
  return value.map((p) =>
    p.type === "SOLID"
      ? { type: "SOLID", color: { r: round(p.color.r), g: round(p.color.g), b: round(p.color.b), a: round(p.opacity ?? 1) }, ...(p.visible === false ? { visible: false } : {}) }
      : { type: p.type },
  );
}

const mixed = <T>(v: T | symbol): T | "mixed" => (typeof v === "symbol" ? "mixed" : v);

/** One layer in detail (no children). */
export async function detail(node: BaseNode): Promise<Described> {
  const out = brief(node);
  if (node.parent) out.parentId = node.parent.id;
  if ("children" in node) out.childCount = node.children.length;
  if ("fills" in node) out.fills = paints(node.fills);
  if ("strokes" in node) out.strokes = paints(node.strokes);
  if ("strokeWeight" in node && node.strokes.length) out.strokeWeight = mixed(node.strokeWeight);
  if ("cornerRadius" in node) out.cornerRadius = mixed(node.cornerRadius);
  if ("opacity" in node && node.opacity !== 1) out.opacity = node.opacity;
  if ("layoutMode" in node && node.layoutMode !== "NONE") {
    Object.assign(out, {
      layoutMode: node.layoutMode,
      layoutWrap: node.layoutWrap,
      itemSpacing: node.itemSpacing,
      counterAxisSpacing: node.counterAxisSpacing,
      paddingTop: node.paddingTop,
      paddingRight: node.paddingRight,
      paddingBottom: node.paddingBottom,
      paddingLeft: node.paddingLeft,
      primaryAxisAlignItems: node.primaryAxisAlignItems,
      counterAxisAlignItems: node.counterAxisAlignItems,
    });
  }
  if (node.type === "TEXT") {
    out.characters = node.characters;
    out.fontSize = mixed(node.fontSize);
    out.fontName = mixed(node.fontName);
  }
  if (node.type === "INSTANCE") {
    const main = await node.getMainComponentAsync();
    if (main) out.mainComponent = { id: main.id, key: main.key, name: main.name };
  }
  if (node.type === "COMPONENT") {
    out.key = node.key;
    if (node.description) out.description = node.description;
  }
  return out;
}

/**
 * A layer and its descendants to `depth`, breadth-first, at most `maxNodes` layers: whatever did
 * not fit is marked on its parent (childrenTruncated, childCount) and `truncated` is set.
 */
export async function tree(root: BaseNode, depth: number, maxNodes: number): Promise<{ node: Described; nodeCount: number; truncated: boolean }> {
  const top = await detail(root);
  let count = 1;
  let truncated = false;
  let level: { node: BaseNode; out: Described }[] = [{ node: root, out: top }];
  for (let d = 0; d < depth && level.length; d++) {
    const next: typeof level = [];
    for (const { node, out } of level) {
      if (!("children" in node) || !node.children.length) continue;
      const kids: Described[] = [];
      for (const child of node.children) {
        if (count >= maxNodes) break;
        const described = brief(child);
        if ("children" in child) described.childCount = child.children.length;
        kids.push(described);
        next.push({ node: child, out: described });
        count++;
      }
      out.children = kids;
      if (kids.length < node.children.length) {
        out.childrenTruncated = true;
        truncated = true;
      }
    }
    level = next;
  }
  // Layers at the depth limit keep their childCount: the agent can ask for them by id.
  return { node: top, nodeCount: count, truncated };
}
