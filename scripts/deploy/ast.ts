// Parsing TypeScript sources for the deploy check: rolldown's parser (oxc, ESTree + TS nodes),
// already installed with vitest/vite; no type checking needed, only the shape of the code.
import { readFileSync } from "node:fs";
import { parseAst } from "rolldown/parseAst";

// oxc's ESTree nodes, loosely typed: the checks walk many node kinds generically.
export type Node = { type: string; start: number; end: number; [key: string]: any };

export interface SourceFile {
  path: string; // absolute
  rel: string; // relative to the scanned root, for messages
  text: string;
  ast: Node;
  line(offset: number): number;
}

export function parseFile(path: string, rel: string, text = readFileSync(path, "utf8")): SourceFile {
  const ast = parseAst(text, { lang: path.endsWith(".tsx") ? "tsx" : "ts", sourceType: "module" }, path) as unknown as Node;
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  const line = (offset: number) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  return { path, rel, text, ast, line };
}

/** Every node below `node` (depth first), with its parent. */
export function walk(node: unknown, visit: (n: Node, parent: Node | null) => void, parent: Node | null = null): void {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit, parent);
    return;
  }
  const n = node as Node;
  if (typeof n.type !== "string") return;
  visit(n, parent);
  for (const key in n) {
    if (key === "type" || key === "start" || key === "end") continue;
    const value = n[key];
    if (value && typeof value === "object") walk(value, visit, n);
  }
}

/** The string a literal (or a template without expressions) spells, else undefined. */
export function literalString(node: Node | undefined | null): string | undefined {
  if (!node) return undefined;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return undefined;
}
