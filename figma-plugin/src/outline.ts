/// <reference path="../../node_modules/@figma/plugin-typings/plugin-api.d.ts" />
// get_metadata: a compact outline of a page or subtree — one line per layer (id, type, name,
// position, size), indented by depth — for files too large for get_document_info. Within the
// budget, levels are added breadth-first, so the top of the tree is always complete; a layer whose
// children did not fit says how many layers it holds and is asked for by its id. Runs of alike
// siblings (same type and size, names differing only in numbers) take one line.
import { CommandError, node, type Handler } from "./kit.js";

declare const figma: PluginAPI;

const n2 = (n: number) => String(Math.round(n * 10) / 10);

interface Entry {
  node: BaseNode;
  descendants: number;
  children?: Entry[];
  /** Children shown (a run of alike siblings is one item). */
  shown?: (Entry | Entry[])[];
}

function count(n: BaseNode): Entry {
  if (!("children" in n) || !n.children.length) return { node: n, descendants: 0 };
  const children = n.children.map(count);
  return { node: n, descendants: children.reduce((s, c) => s + 1 + c.descendants, 0), children };
}

const box = (n: BaseNode) => ("x" in n ? ` ${n2(n.x)},${n2(n.y)} ${n2(n.width)}x${n2(n.height)}` : "");
const flags = (n: BaseNode) => {
  const f: string[] = [];
  if ("visible" in n && n.visible === false) f.push("hidden");
  if ("layoutMode" in n && n.layoutMode !== "NONE") f.push(n.layoutMode === "HORIZONTAL" ? "row" : n.layoutMode === "VERTICAL" ? "column" : String(n.layoutMode).toLowerCase());
  return f.length ? ` [${f.join(" ")}]` : "";
};
const q = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 57)}…` : s);
const line = (e: Entry) => `${e.node.id} ${e.node.type} ${q(e.node.name)}${box(e.node)}${flags(e.node)}`;
const pattern = (name: string) => name.replace(/\d+/g, "#");
const sameShape = (a: BaseNode, b: BaseNode) =>
  a.type === b.type && pattern(a.name) === pattern(b.name) && (!("width" in a) || ("width" in b && a.width === b.width && a.height === b.height));

/** Siblings with runs of ≥ 3 alike leaves grouped (layers with insides keep their own line). */
function groupRuns(children: Entry[]): (Entry | Entry[])[] {
  const out: (Entry | Entry[])[] = [];
  for (const c of children) {
    const last = out[out.length - 1];
    const run = Array.isArray(last) ? last : last ? [last] : null;
    if (run && c.descendants === 0 && run[0]!.descendants === 0 && sameShape(run[0]!.node, c.node)) {
      if (Array.isArray(last)) last.push(c);
      else out[out.length - 1] = [last as Entry, c];
    } else out.push(c);
  }
  // Pairs read better as two lines.
  return out.flatMap((x) => (Array.isArray(x) && x.length < 3 ? x : [x]));
}

function runLine(run: Entry[]): string {
  const [a, z] = [run[0]!.node, run[run.length - 1]!.node];
  const size = "width" in a ? ` ${n2(a.width)}x${n2(a.height)} each` : "";
  return `${a.id} … ${z.id} ${a.type} ×${run.length} ${q(a.name)} … ${q(z.name)}${size}`;
}

function render(e: Entry, indent: string, lines: string[]): void {
  const held = e.children && !e.shown ? ` {+${e.descendants} inside}` : "";
  lines.push(`${indent}${line(e)}${held}`);
  for (const item of e.shown ?? []) {
    if (Array.isArray(item)) lines.push(`${indent}  ${runLine(item)}`);
    else render(item, `${indent}  `, lines);
  }
}

export const metadataCommands: Record<string, Handler> = {
  async get_metadata({ nodeId, maxChars = 15_000 }) {
    const root = nodeId ? await node(nodeId) : figma.currentPage;
    if (root.type === "DOCUMENT") throw new CommandError("invalid_input", "Pass a page or layer id: get_document_info lists the pages");
    if (root.type === "PAGE") await (root as PageNode).loadAsync?.();
    const tree = count(root);
    // Breadth-first: a level's sibling groups are added while they fit; what does not fit stays a count.
    let spent = line(tree).length + 1;
    let level: Entry[] = [tree];
    let shownLayers = 1;
    while (level.length) {
      const next: Entry[] = [];
      for (const e of level) {
        if (!e.children) continue;
        const grouped = groupRuns(e.children);
        const depth = 2; // indentation grows with depth; a rough allowance per line
        const cost = grouped.reduce((s, item) => s + (Array.isArray(item) ? runLine(item).length : line(item).length + 14) + depth, 0);
        if (spent + cost > maxChars) continue;
        spent += cost;
        e.shown = grouped;
        for (const item of grouped) {
          if (Array.isArray(item)) shownLayers += item.length;
          else {
            shownLayers++;
            next.push(item);
          }
        }
      }
      level = next;
    }
    const lines: string[] = [];
    render(tree, "", lines);
    const layerCount = tree.descendants + 1;
    const cut = shownLayers < layerCount;
    return {
      nodeId: root.id,
      name: root.name,
      type: root.type,
      layerCount,
      shownLayers,
      outline: lines.join("\n"),
      truncated: cut,
      ...(cut ? { truncatedNote: `${layerCount - shownLayers} layers are not listed (lines ending in {+N inside} hold them): call get_metadata with such a layer's id to see inside it.` } : {}),
    };
  },
};
