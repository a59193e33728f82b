/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// get_design_context: a layer (default: the selection) and everything under it, as a JSON tree or
// as HTML + CSS / Tailwind, within a character budget. The tree is cut only between layers: layers
// are taken in document order (pre-order) until the budget is spent, and the cursor is the index of
// the next layer. A page's layers nest under their parent when it is on the same page; the first
// layers of a later page carry parentId instead.
import { renderHtml } from "./css.js";
import { DesignScope, designNode, VECTOR_TYPES, type DesignNode } from "./design.js";
import { CommandError, sceneNode, type Handler } from "./kit.js";

declare const figma: PluginAPI;

interface Visit {
  node: SceneNode;
  parentId?: string;
  depth: number;
}

/** Layers in document order; vectors (drawn as one asset) and hidden layers are not walked into. */
function* preorder(roots: readonly SceneNode[], maxDepth: number): Generator<Visit> {
  const stack: Visit[] = [...roots].reverse().map((node) => ({ node, depth: 0 }));
  while (stack.length) {
    const v = stack.pop()!;
    yield v;
    const n = v.node;
    if (v.depth >= maxDepth || !("children" in n) || VECTOR_TYPES.has(n.type) || n.visible === false) continue;
    if ("isAsset" in n && n.isAsset && !n.children.some((c) => c.type === "TEXT")) continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push({ node: n.children[i]!, parentId: n.id, depth: v.depth + 1 });
  }
}

async function roots(nodeId: string | undefined): Promise<SceneNode[]> {
  if (nodeId) return [await sceneNode(nodeId)];
  const selection = figma.currentPage.selection;
  if (!selection.length) {
    throw new CommandError("invalid_input", `Nothing is selected on page "${figma.currentPage.name}": pass nodeId, or ask the user to select the frame to build`);
  }
  return [...selection];
}

export const designCommands: Record<string, Handler> = {
  async get_design_context({ nodeId, format = "json", maxChars = 30_000, cursor, depth = 100 }) {
    const top = await roots(nodeId);
    let start = 0;
    if (cursor !== undefined) {
      if (!/^\d{1,9}$/.test(cursor)) throw new CommandError("invalid_input", "Invalid cursor: pass the nextCursor of the previous response unchanged (with the same nodeId), or omit cursor to start over");
      start = Number(cursor);
    }
    const scope = new DesignScope();
    const described = new Map<string, DesignNode>();
    /** Parents of a page's first layers, described once (their layout decides how a child is placed). */
    const outside = new Map<string, DesignNode>();
    const parentOf = async (n: DesignNode): Promise<DesignNode | undefined> => {
      if (!n.parentId) return undefined;
      const inPage = described.get(n.parentId);
      if (inPage) return inPage;
      if (!outside.has(n.parentId)) {
        const p = await figma.getNodeByIdAsync(n.parentId);
        if (p && p.type !== "PAGE" && p.type !== "DOCUMENT") outside.set(n.parentId, await designNode(p as SceneNode, scope));
      }
      return outside.get(n.parentId);
    };
    const forest: DesignNode[] = [];
    let index = 0;
    let spent = 0;
    let nextCursor: string | undefined;
    const rootIds = new Set(top.map((n) => n.id));
    for (const visit of preorder(top, depth)) {
      if (index++ < start) continue;
      const dn = await designNode(visit.node, scope);
      const parentInPage = visit.parentId ? described.get(visit.parentId) : undefined;
      if (!parentInPage && visit.parentId && !rootIds.has(visit.node.id)) dn.parentId = visit.parentId;
      // The layer's own share of the answer, in the format asked for.
      const size =
        format === "json"
          ? JSON.stringify(dn).length
          : (() => {
              const r = renderHtml([{ ...dn, children: [] }], scope.used, format, () => parentInPage ?? outside.get(visit.parentId ?? ""));
              return r.html.length + (r.css?.length ?? 0) - 60;
            })();
      if (spent > 0 && spent + size > maxChars) {
        nextCursor = String(index - 1);
        break;
      }
      spent += size;
      if (visit.parentId && !dn.parentId && parentInPage) (parentInPage.children ??= []).push(dn);
      else forest.push(dn);
      if (dn.parentId) await parentOf(dn);
      if ("children" in visit.node && visit.node.children.length) dn.childCount = visit.node.children.length;
      described.set(dn.id, dn);
    }
    if (start > 0 && index <= start) throw new CommandError("invalid_input", "Invalid cursor: it is past the last layer; omit cursor to start over");
    // Layers whose children are not all here (depth, budget, vectors drawn as one asset) say how many they have.
    for (const dn of described.values()) {
      if (dn.children?.length === dn.childCount) delete dn.childCount;
    }

    const variables = Object.fromEntries(scope.used);
    const assets: { nodeId: string; name: string; kind: string; format: string }[] = [];
    for (const dn of described.values()) {
      const a = dn.asset as { kind: string; export: { nodeId: string; format: string } } | undefined;
      if (a) assets.push({ nodeId: a.export.nodeId, name: dn.name, kind: a.kind, format: a.export.format });
    }
    const paging = nextCursor
      ? {
          truncated: true,
          nextCursor,
          truncatedNote: `The answer reached maxChars (${maxChars}) after ${described.size} layers: call again with the same arguments and cursor "${nextCursor}" for the next layers (they carry parentId).`,
        }
      : { truncated: false };
    const base = { nodeIds: top.map((n) => n.id), format, nodeCount: described.size, ...(start ? { firstLayerIndex: start } : {}) };
    if (format === "json") return { ...base, nodes: forest, variables, assets, ...paging };
    const parents = new Map<string, DesignNode>([...outside, ...described]);
    const rendered = renderHtml(forest, scope.used, format, (n) => (n.parentId ? parents.get(n.parentId) : undefined), scope.unitless);
    return { ...base, html: rendered.html, css: rendered.css, variables, assets: rendered.assets, ...paging };
  },
};
