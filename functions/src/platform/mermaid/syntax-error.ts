// Turns what mermaid throws into one sentence an agent can act on: the parser's complaint, the
// line and column, and the offending line quoted from the caller's own code.
const MAX_MESSAGE = 600;

interface JisonHash {
  line?: number;
  loc?: { first_line?: number; first_column?: number };
  expected?: string[];
  token?: string;
}

export interface Position {
  line: number;
  column?: number;
}

export function positionOf(err: unknown, code: string): Position | undefined {
  const e = err as { hash?: JisonHash; message?: string } | undefined;
  const loc = e?.hash?.loc;
  if (loc?.first_line !== undefined) {
    // jison reports the line of the token that failed and its 0-based column within that line.
    return { line: loc.first_line, column: (loc.first_column ?? 0) + 1 };
  }
  const message = String(e?.message ?? err ?? "");
  const lc = /line (\d+)(?:, column (\d+))?/i.exec(message);
  if (lc) return { line: Number(lc[1]), ...(lc[2] ? { column: Number(lc[2]) } : {}) };
  // js-yaml in frontmatter: "(line:column)" counted from the first line inside the --- fence.
  const yaml = /\((\d+):(\d+)\)/.exec(message);
  if (yaml && /^\s*---/.test(code)) return { line: Number(yaml[1]) + 1, column: Number(yaml[2]) };
  return undefined;
}

/** The parser's own complaint without jison's "...snippet / ----^" drawing. */
function cleanMessage(message: string): string {
  const lines = message.split(/\r?\n/);
  const kept = lines.filter((l, i) => !(i > 0 && (/^-*\^$/.test(l.trim()) || (l.startsWith("...") && /^-*\^$/.test((lines[i + 1] ?? "").trim())))));
  let text = kept
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" ")
    .replace(/^Parsing failed:\s*/i, "")
    .replace(/\s+/g, " ")
    .replace(/Parse error on line \d+:\s*/i, "")
    .replace(/Lexer error on line \d+, column \d+:\s*/gi, "")
    .replace(/Parse error on line \d+, column \d+:\s*/gi, "")
    .trim();
  // js-yaml appends a code excerpt (" 1 | config: ..."): the quoted line below replaces it.
  text = text.replace(/\s*\(\d+:\d+\)\s+\d+ \|.*$/, "");
  if (text.length > MAX_MESSAGE) text = `${text.slice(0, MAX_MESSAGE)}…`;
  return text;
}

export function describeSyntaxError(err: unknown, code: string): string {
  const raw = String((err as { message?: string })?.message ?? err ?? "");
  if (/No diagram type detected/i.test(raw)) {
    const first = code.split(/\r?\n/).find((l) => l.trim() && !/^\s*%%/.test(l))?.trim() ?? "";
    return `Invalid Mermaid syntax: no diagram type detected. The first line must name a diagram type (e.g. "flowchart TD", "sequenceDiagram", "classDiagram"); found ${JSON.stringify(first.slice(0, 80))}`;
  }
  const pos = positionOf(err, code);
  const detail = (cleanMessage(raw) || "the parser rejected the code").replace(/\.+$/, "");
  if (!pos) return `Invalid Mermaid syntax: ${detail}`;
  const lines = code.replace(/\r\n?/g, "\n").split("\n");
  const where = `line ${pos.line}${pos.column ? `, column ${pos.column}` : ""}`;
  const source = lines[pos.line - 1];
  const quote = source !== undefined && source.trim() ? `. Line ${pos.line}: ${JSON.stringify(source.length > 200 ? `${source.slice(0, 200)}…` : source)}` : "";
  return `Invalid Mermaid syntax at ${where}: ${detail}${quote}`;
}

/** Error classes mermaid and its parsers throw for a diagram that is wrong (not for their own bugs). */
const DIAGRAM_ERROR_NAMES = new Set(["UnknownDiagramError", "MermaidParseError", "DiagramNotFoundError", "YAMLException", "InvalidStyleError", "UsecaseJsonError", "JsonWalkError"]);

/**
 * True when `err` is mermaid telling the caller what is wrong with the diagram: a jison parse
 * error (it carries `hash`), one of mermaid's own error classes, or a plain `Error` raised on
 * purpose by a diagram's parser or database ("Trying to checkout branch which is not yet created",
 * "Invalid date:…"). TypeErrors, ReferenceErrors, DOMExceptions, layout-engine internals and
 * anything else are faults on our side (mermaid bugs, our DOM shim): the caller must not see them
 * as a "syntax error" it could fix, and their text is not for users.
 */
export function isDiagramError(err: unknown): boolean {
  if (!(err instanceof Error)) return false;
  if ((err as { hash?: unknown }).hash) return true;
  const ctor = err.constructor?.name ?? "";
  if (DIAGRAM_ERROR_NAMES.has(err.name) || DIAGRAM_ERROR_NAMES.has(ctor)) return true;
  // ELK (mermaid's Java-to-JS layout engine) names Java classes: never a message for users.
  if (/^(?:org\.eclipse|java\.)/.test(err.message)) return false;
  return err.name === "Error" && (ctor === "Error" || ctor === "");
}

/**
 * The sentence for a diagram that parsed but that mermaid refused while drawing it, in the spec's
 * words ("Syntax error in graph definition"), naming the line when the message lets us find it.
 */
export function describeRenderError(err: unknown, code: string): string {
  const raw = String((err as { message?: string })?.message ?? err ?? "");
  // gantt: "Invalid date:2024-13-45" (a date that does not exist or does not match dateFormat).
  const date = /^Invalid date:\s*(.*)$/s.exec(raw.trim());
  if (date) {
    const value = date[1]!.trim();
    const format = /^\s*dateFormat\s+(.+?)\s*$/m.exec(code)?.[1];
    const lines = code.replace(/\r\n?/g, "\n").split("\n");
    const at = value ? lines.findIndex((l) => l.includes(value)) : -1;
    const where = at >= 0 ? ` at line ${at + 1}. Line ${at + 1}: ${JSON.stringify(lines[at]!.length > 200 ? `${lines[at]!.slice(0, 200)}…` : lines[at])}` : "";
    return `Syntax error in graph definition: invalid date ${JSON.stringify(value)}: dates must exist and match the dateFormat (${format ?? "YYYY-MM-DD"})${where}`;
  }
  return `Syntax error in graph definition: ${describeSyntaxError(err, code).replace(/^Invalid Mermaid syntax:?\s*/, "")}`;
}
