// The real diagrams of fixtures/corpus/ (INDEX.tsv names each file's source); MERMAID_CORPUS_DIR
// points the tests at another copy.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { JSDOM } from "jsdom";

export const CORPUS_DIR = process.env.MERMAID_CORPUS_DIR ?? join(import.meta.dirname, "fixtures/corpus");

export interface CorpusEntry {
  file: string;
  type: string;
  valid: boolean;
  note: string;
  code: string;
}

export function corpus(): CorpusEntry[] {
  const rows = readFileSync(join(CORPUS_DIR, "INDEX.tsv"), "utf8").trim().split("\n").slice(1);
  return rows.map((row) => {
    const [file, type, , valid, note] = row.split("\t") as [string, string, string, string, string];
    return { file, type, valid: valid === "yes", note, code: readFileSync(join(CORPUS_DIR, file), "utf8") };
  });
}

/** One valid diagram per type, first in file order. */
export function onePerType(): CorpusEntry[] {
  const seen = new Set<string>();
  return corpus().filter((e) => e.valid && !seen.has(e.type) && seen.add(e.type));
}

// One window parses every SVG (each parse is a document of its own); a window costs far more to make.
let parser: DOMParser | undefined;

/** Parses an SVG string as a standalone XML file would be parsed; throws when it is not well-formed. */
export function parseSvgFile(svg: string): Document {
  parser ??= new new JSDOM("").window.DOMParser();
  const doc = parser.parseFromString(svg, "image/svg+xml");
  const error = doc.getElementsByTagName("parsererror")[0];
  if (error) throw new Error(`not well-formed XML: ${error.textContent?.slice(0, 200)}`);
  return doc as unknown as Document;
}

/**
 * Everything in an SVG that could run code or load something from elsewhere: elements, attributes
 * and CSS (text content may say anything: it is text).
 */
export function unsafeParts(svg: string): string[] {
  const doc = parseSvgFile(svg);
  const found = new Set<string>();
  for (const el of Array.from(doc.getElementsByTagName("*"))) {
    const tag = el.localName.toLowerCase();
    if (["script", "iframe", "object", "embed", "frame", "applet", "link", "meta", "base"].includes(tag)) found.add(`<${tag}>`);
    if (["img", "image", "feimage", "audio", "video"].includes(tag)) found.add(`external media <${tag}>`);
    if (["animate", "set", "animatemotion", "animatetransform"].includes(tag)) found.add(`<${tag}>`);
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const value = attr.value;
      if (name.startsWith("on")) found.add(`event handler ${name}`);
      if (/javascript:|vbscript:/i.test(value)) found.add(`javascript: in ${name}`);
      if (/(^|\s|\()data:/i.test(value)) found.add(`data: URL in ${name}`);
      if (/url\(\s*['"]?(?!#)/i.test(value)) found.add(`external url() in ${name}`);
      if (/evil\.example/i.test(value)) found.add(`evil host in ${name}`);
      // xmlns values are namespace names, not links.
      if (!name.startsWith("xmlns") && /^\s*(?:https?|ftp|mailto):/i.test(value)) found.add(`external URL in ${name}`);
      // No external URLs at all, links included: only in-document #fragments.
      if ((name === "href" || name.endsWith(":href") || name === "src") && !value.startsWith("#")) {
        found.add(`reference ${name}=${value.slice(0, 40)}`);
      }
    }
    if (tag === "style") {
      const css = el.textContent ?? "";
      if (/@import/i.test(css)) found.add("@import in <style>");
      if (/url\(\s*['"]?(?!#)/i.test(css)) found.add("external url() in <style>");
      if (/evil\.example|javascript:|expression\(/i.test(css)) found.add("hostile CSS in <style>");
    }
  }
  return [...found];
}

/** CSS that would place something outside the SVG's box or over the page around it. */
const ESCAPING_CSS = /(?:^|[;{\s])(position|z-index|inset|top|left|right|bottom|transform|translate|float)\s*:/i;

/**
 * What in an SVG could draw outside its own box when inlined in a page: positioning CSS in any
 * style attribute or sheet, and sheet rules that do not stay inside this diagram (`body{…}`,
 * `#<id> ~ p`, an unscoped `svg{…}`).
 */
export function escapingParts(svg: string): string[] {
  const doc = parseSvgFile(svg);
  const rootId = doc.documentElement.getAttribute("id") ?? "";
  const found = new Set<string>();
  for (const el of Array.from(doc.getElementsByTagName("*"))) {
    const style = el.getAttribute("style") ?? "";
    const m = ESCAPING_CSS.exec(style);
    if (m) found.add(`${m[1]} in the style of <${el.localName}>`);
    if (el.localName.toLowerCase() === "style") {
      const css = (el.textContent ?? "").replace(/@keyframes[^{]*\{(?:[^{}]*\{[^{}]*\})*[^{}]*\}/g, "");
      const m2 = ESCAPING_CSS.exec(css);
      if (m2) found.add(`${m2[1]} in <style>`);
      for (const [, selectors] of css.matchAll(/([^{}]+)\{[^{}]*\}/g)) {
        for (const sel of selectors!.split(",")) {
          const t = sel.trim();
          if (!t.startsWith(`#${rootId}`) || /^#[^\s>]+\s*[~+]/.test(t)) found.add(`selector outside the diagram: ${t.slice(0, 40)}`);
        }
      }
    }
  }
  return [...found];
}

/**
 * Diagram types of mermaid 12.3 that the corpus has no example of (detector ids from mermaid's
 * dist), each with words its drawing must contain. All of them render.
 */
export const EXTRA_TYPES: Record<string, { code: string; words: string[] }> = {
  info: { code: "info", words: ["v12"] },
  swimlane: {
    code: "swimlane-beta LR\n  subgraph Sales\n    A[Order received] --> B[Check stock]\n  end\n  subgraph Warehouse\n    C[Pick] --> D[Ship]\n  end\n  B --> C",
    words: ["Sales", "Warehouse", "Check stock", "Ship"],
  },
  agentflow: { code: "agentflow-beta\n  A[User request] --> B[Planner]\n  B --> C[Tool call]\n  C --> D[Answer]", words: ["Planner", "Tool call"] },
  treeView: { code: 'treeView-beta\n  "src"\n    "index.ts"\n    "lib"\n      "util.ts"\n  "README.md"', words: ["src", "util.ts", "README.md"] },
  eventmodeling: {
    code: "eventmodeling\n  tf 01 ui AddToCart\n  tf 02 cmd AddItem ->> 01\n  tf 03 evt ItemAdded ->> 02\n  tf 04 rmo CartView ->> 03",
    words: ["AddToCart", "ItemAdded", "CartView"],
  },
  usecase: {
    code: "usecase-beta\n  actor Customer\n  systemBoundary Shop\n    Browse\n    Checkout\n  end\n  Customer --> Browse\n  Customer --> Checkout",
    words: ["Customer", "Shop", "Checkout"],
  },
  cynefin: { code: 'cynefin-beta\n  complex\n    "Run experiments"\n  clear\n    "Follow the checklist"\n  chaotic --> complex', words: ["Complex", "Run experiments"] },
  railroad: { code: 'railroad-beta\n  digit = choice(terminal("0"), terminal("1"));\n  number = oneOrMore(nonterminal("digit"));', words: ["digit", "number"] },
  railroadEbnf: { code: 'railroad-ebnf-beta\n  digit = "0" | "1" ;\n  number = digit , { digit } ;', words: ["digit", "number"] },
  railroadAbnf: { code: "railroad-abnf-beta\n  number = 1*DIGIT ;", words: ["number", "DIGIT"] },
  railroadPeg: { code: 'railroad-peg-beta\n  Number <- Digit+ ;\n  Digit <- "0" / "1" ;', words: ["Number", "Digit"] },
  "flowchart-elk": { code: "flowchart-elk TD\n  A[Start] --> B{Ok?}\n  B --> C[Done]", words: ["Start", "Done"] },
};
