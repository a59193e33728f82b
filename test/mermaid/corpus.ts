// The real diagrams of ../shared/data/mermaid-corpus (INDEX.tsv names each file's source).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { JSDOM } from "jsdom";

export const CORPUS_DIR = process.env.MERMAID_CORPUS_DIR ?? join(import.meta.dirname, "../../../shared/data/mermaid-corpus");

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

/** Parses an SVG string as a standalone XML file would be parsed; throws when it is not well-formed. */
export function parseSvgFile(svg: string): Document {
  const { window } = new JSDOM("");
  const doc = new window.DOMParser().parseFromString(svg, "image/svg+xml");
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
      if ((name === "href" || name.endsWith(":href") || name === "src") && !value.startsWith("#") && !(tag === "a" && /^(https?:|mailto:)/i.test(value))) {
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
