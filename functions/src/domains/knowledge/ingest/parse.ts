// Turns files into documents: Markdown (with YAML-style front matter), plain text, Kindle
// `My Clippings.txt`, and Readwise CSV exports. A prose document (one file) is replaced as a whole
// on re-import; a book's highlights are only ever added to, because exports overlap: each file
// holds some of a book's highlights, never reliably all of them.
import { basename, extname } from "node:path";
import { parseWallClockUtc } from "../../../mcp/dates.js";

export interface Piece {
  text: string;
  tags?: string[];
  createdAt?: Date;
}

export interface ParsedDocument {
  /** Identity across imports (`file:<relative path>`, `id:<front-matter id>`, `kindle:<title>|<author>` or `readwise:<title>|<author>`). */
  key: string;
  title: string;
  author: string;
  source: string;
  category: string;
  tags: string[];
  createdAt?: Date;
  /** "prose" is chunked; each "highlights" piece is a chunk of its own. */
  kind: "prose" | "highlights";
  pieces: Piece[];
}

export class ParseError extends Error {
  override readonly name = "ParseError";
}

export const SUPPORTED_EXTENSIONS = new Set([".md", ".markdown", ".txt", ".text", ".csv"]);

export type FileFormat = "markdown" | "text" | "kindle" | "readwise";

export function detectFormat(path: string, content: string): FileFormat {
  const ext = extname(path).toLowerCase();
  if (!SUPPORTED_EXTENSIONS.has(ext)) throw new ParseError(`unsupported file type "${ext || basename(path)}" (use .md, .txt or a Readwise .csv)`);
  if (ext === ".csv") return "readwise";
  if (ext === ".md" || ext === ".markdown") return "markdown";
  if (/clippings/i.test(basename(path)) || /^==========\s*$/m.test(content)) return "kindle";
  return "text";
}

/**
 * Parses one file's text. `relativePath` (to the folder given to the import, or the file name)
 * identifies a prose file across imports, so that moving the notes folder or importing it from
 * another machine updates the same documents instead of adding copies; a front-matter `id` wins.
 */
export function parseFile(path: string, content: string, relativePath: string = basename(path)): ParsedDocument[] {
  if (content.includes("\u0000")) throw new ParseError("not a text file (binary content)");
  const text = content.replace(/^\uFEFF/, "");
  if (!text.trim()) throw new ParseError("the file is empty");
  const format = detectFormat(path, text);
  const key = `file:${relativePath.split("\\").join("/")}`;
  switch (format) {
    case "readwise":
      return parseReadwiseCsv(text);
    case "kindle":
      return parseKindleClippings(text);
    case "markdown":
      return [parseMarkdown(path, key, text)];
    case "text":
      return [parseProse(key, text, { source: "text", category: "notes", title: titleFromFile(path) })];
  }
}

// --- Markdown & text ------------------------------------------------------------------------

function titleFromFile(path: string): string {
  return basename(path, extname(path)).replace(/[-_]+/g, " ").trim() || "Untitled";
}

function parseMarkdown(path: string, fileKey: string, text: string): ParsedDocument {
  const { meta, body } = frontMatter(text);
  const id = stringValue(meta.id);
  const key = id ? `id:${id}` : fileKey;
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(body)?.[1];
  const tags = listValue(meta.tags ?? meta.keywords);
  const date = dateValue(meta.date ?? meta.created ?? meta.created_at);
  return parseProse(
    key,
    body,
    {
      title: stringValue(meta.title) || heading || titleFromFile(path),
      author: stringValue(meta.author ?? meta.authors),
      source: stringValue(meta.source) || "markdown",
      category: stringValue(meta.category) || "notes",
      tags,
      ...(date ? { createdAt: date } : {}),
    },
  );
}

function parseProse(
  key: string,
  body: string,
  meta: { title: string; author?: string; source: string; category: string; tags?: string[]; createdAt?: Date },
): ParsedDocument {
  if (!body.trim()) throw new ParseError("no text after the front matter");
  return {
    key,
    title: meta.title,
    author: meta.author ?? "",
    source: meta.source,
    category: meta.category,
    tags: meta.tags ?? [],
    ...(meta.createdAt ? { createdAt: meta.createdAt } : {}),
    kind: "prose",
    pieces: [{ text: body.trim() }],
  };
}

type MetaValue = string | string[];

/** A small YAML subset: `key: value`, `key: [a, b]`, and `key:` followed by `- item` lines. */
export function frontMatter(text: string): { meta: Record<string, MetaValue>; body: string } {
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return { meta: {}, body: text };
  const meta: Record<string, MetaValue> = {};
  let listKey: string | undefined;
  for (const line of match[1]!.split(/\r?\n/)) {
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item && listKey) {
      const current = meta[listKey];
      meta[listKey] = [...(Array.isArray(current) ? current : []), unquote(item[1]!)];
      continue;
    }
    const kv = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (!kv) continue;
    const key = kv[1]!.toLowerCase();
    const raw = kv[2]!.trim();
    listKey = raw ? undefined : key;
    if (!raw) meta[key] = [];
    else if (raw.startsWith("[") && raw.endsWith("]")) meta[key] = raw.slice(1, -1).split(",").map(unquote).filter(Boolean);
    else meta[key] = unquote(raw);
  }
  return { meta, body: text.slice(match[0].length) };
}

const unquote = (s: string) => s.trim().replace(/^(["'])(.*)\1$/, "$2").trim();
const stringValue = (v: MetaValue | undefined): string => (Array.isArray(v) ? v.join(", ") : (v ?? "")).trim();
function listValue(v: MetaValue | undefined): string[] {
  const items = Array.isArray(v) ? v : (v ?? "").split(",");
  return normalizeTags(items);
}
function dateValue(v: MetaValue | undefined): Date | undefined {
  const s = stringValue(v);
  if (!s) return undefined;
  return parseWallClockUtc(s);
}

export function normalizeTags(items: string[]): string[] {
  const seen = new Set<string>();
  for (const item of items) {
    const tag = item.trim().replace(/^#/, "").toLowerCase();
    if (tag) seen.add(tag);
  }
  return [...seen];
}

// --- Kindle My Clippings.txt ------------------------------------------------------------------

export function parseKindleClippings(text: string): ParsedDocument[] {
  const books = new Map<string, ParsedDocument>();
  const seen = new Set<string>();
  for (const entry of text.replace(/\r\n?/g, "\n").split(/^==========\s*$/m)) {
    const lines = entry.split("\n").map((l) => l.trim());
    while (lines.length && !lines[0]) lines.shift();
    if (lines.length < 2) continue;
    const header = lines[0]!.replace(/^\uFEFF/, "");
    const info = lines[1]!;
    if (!/^-\s/.test(info)) continue;
    if (/bookmark|lesezeichen/i.test(info)) continue;
    const body = lines.slice(2).join("\n").trim();
    if (!body) continue;
    const { title, author } = kindleTitle(header);
    const isNote = /\bnote\b|notiz/i.test(info);
    const added = /Added on\s+(.+)$/i.exec(info)?.[1];
    const createdAt = added ? parseLooseDate(added) : undefined;
    const bookKey = `kindle:${title}|${author}`;
    const dedupe = `${bookKey}\u0000${body}`;
    if (seen.has(dedupe)) continue;
    seen.add(dedupe);
    let book = books.get(bookKey);
    if (!book) {
      book = { key: bookKey, title, author, source: "kindle", category: "books", tags: [], kind: "highlights", pieces: [] };
      books.set(bookKey, book);
    }
    book.pieces.push({ text: body, ...(isNote ? { tags: ["note"] } : {}), ...(createdAt ? { createdAt } : {}) });
  }
  if (!books.size) throw new ParseError("no Kindle highlights found (expected entries separated by ==========)");
  return [...books.values()];
}

function kindleTitle(header: string): { title: string; author: string } {
  const m = /^(.*)\(([^()]*)\)\s*$/.exec(header);
  if (m && m[1]!.trim()) return { title: m[1]!.trim(), author: m[2]!.trim() };
  return { title: header.trim() || "Untitled", author: "" };
}

// Kindle writes the device's local wall-clock time without a zone: read as UTC on every machine,
// since these times feed chunk ids (the same file must give the same ids wherever it is imported).
const parseLooseDate = (s: string): Date | undefined => parseWallClockUtc(s);

// --- Readwise CSV -----------------------------------------------------------------------------

export function parseReadwiseCsv(text: string): ParsedDocument[] {
  const rows = parseCsv(text);
  const header = (rows.shift() ?? []).map((h) => h.trim().toLowerCase());
  const col = (name: string) => header.indexOf(name);
  const iHighlight = col("highlight");
  const iTitle = col("book title") >= 0 ? col("book title") : col("title");
  if (iHighlight < 0 || iTitle < 0) throw new ParseError('not a Readwise export (needs "Highlight" and "Book Title" columns)');
  const iAuthor = col("book author") >= 0 ? col("book author") : col("author");
  const iNote = col("note");
  const iTags = col("tags");
  const iDocTags = col("document tags");
  const iDate = col("highlighted at");
  const iCategory = col("category");
  const books = new Map<string, ParsedDocument>();
  for (const row of rows) {
    const highlight = (row[iHighlight] ?? "").trim();
    if (!highlight) continue;
    const title = (row[iTitle] ?? "").trim() || "Untitled";
    const author = iAuthor >= 0 ? (row[iAuthor] ?? "").trim() : "";
    const key = `readwise:${title}|${author}`;
    let book = books.get(key);
    if (!book) {
      book = {
        key,
        title,
        author,
        source: "readwise",
        category: (iCategory >= 0 ? (row[iCategory] ?? "").trim().toLowerCase() : "") || "books",
        tags: iDocTags >= 0 ? normalizeTags((row[iDocTags] ?? "").split(",")) : [],
        kind: "highlights",
        pieces: [],
      };
      books.set(key, book);
    }
    const note = iNote >= 0 ? (row[iNote] ?? "").trim() : "";
    const tags = normalizeTags([...(iTags >= 0 ? (row[iTags] ?? "").split(",") : []), ...book.tags]);
    const date = iDate >= 0 ? parseWallClockUtc(row[iDate] ?? "") : undefined;
    book.pieces.push({
      text: note ? `${highlight}\n\nNote: ${note}` : highlight,
      tags,
      ...(date ? { createdAt: date } : {}),
    });
  }
  if (!books.size) throw new ParseError("the Readwise export has no highlights");
  return [...books.values()];
}

/** RFC 4180 CSV: quoted fields may hold commas, quotes ("") and newlines. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += c;
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      field = "";
      if (row.some((f) => f !== "")) rows.push(row);
      row = [];
    } else field += c;
  }
  if (quoted) throw new ParseError("the CSV has an unterminated quoted field");
  row.push(field);
  if (row.some((f) => f !== "")) rows.push(row);
  return rows;
}
