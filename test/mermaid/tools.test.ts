// The mermaid function's MCP tools through the served function, with a real MCP client.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { callTool, connect, textOf, type Era } from "../support/mcp.js";
import { corpus, EXTRA_TYPES, onePerType, parseSvgFile } from "./corpus.js";
import { MAX_SVG_CHARS } from "../../functions/src/platform/mermaid/protocol.js";
import { MAX_RESULT_TEXT } from "../../functions/src/mcp/content.js";

const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close())));
async function client(era: Era = "modern"): Promise<Client> {
  const c = await connect("mermaid", { era });
  clients.push(c);
  return c;
}

function pngSize(base64: string): { width: number; height: number } {
  const buf = Buffer.from(base64, "base64");
  expect(buf.subarray(1, 4).toString()).toBe("PNG");
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

describe.each<Era>(["modern", "legacy"])("tools/list for a %s-era client", (era) => {
  test("lists verify, render and svg with schemas and read-only, idempotent, closed-world annotations", async () => {
    const c = await client(era);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["render", "svg", "verify"]);
    for (const t of tools) {
      expect(t.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
      expect(t.outputSchema, t.name).toBeTruthy();
      expect(t.inputSchema.required).toEqual(["code"]);
    }
    const render = tools.find((t) => t.name === "render")!;
    expect((render.inputSchema.properties as Record<string, { enum?: string[] }>).theme?.enum).toEqual(["default", "neutral", "dark", "forest", "base"]);
    expect(tools.find((t) => t.name === "verify")!.inputSchema.properties).not.toHaveProperty("theme");
  });

  test("verify and render work end to end", async () => {
    const c = await client(era);
    expect((await callTool(c, "verify", { code: "graph TD\n  A[Start] --> B[End]" })).structuredContent).toEqual({ ok: true });
    const r = await callTool(c, "render", { code: "sequenceDiagram\n  Alice->>Bob: Hello\n  Bob->>Alice: Hi!" });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { svg: string }).svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(r.content.some((b) => b.type === "image")).toBe(true);
  });
});

describe("one diagram of every type renders through the function", () => {
  let c: Client;
  beforeAll(async () => {
    c = await client();
  });
  const entries = onePerType();
  test("the corpus covers at least 24 diagram types", () => {
    expect(entries.length).toBeGreaterThanOrEqual(24);
  });
  test.each(entries.map((e) => [e.type, e] as const))("%s", async (_type, entry) => {
    const result = await callTool(c, "render", { code: entry.code });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { svg } = result.structuredContent as { svg: string };
    // Structured data and the text agree (a large SVG is summarised in the text, not repeated).
    if (svg.length < MAX_RESULT_TEXT / 2) expect(JSON.parse(textOf(result)).svg).toBe(svg);
    const doc = parseSvgFile(svg);
    const root = doc.documentElement;
    expect(root.tagName).toBe("svg");
    const viewBox = (root.getAttribute("viewBox") ?? "").split(/[\s,]+/).map(Number);
    expect(viewBox).toHaveLength(4);
    expect(viewBox[2]).toBeGreaterThan(20);
    expect(viewBox[3]).toBeGreaterThan(20);
    // A real drawing: shapes and some of the diagram's own words.
    expect(doc.querySelectorAll("path, rect, circle, polygon, line, ellipse").length).toBeGreaterThan(0);
    expect(root.textContent?.replace(/\s+/g, "").length ?? 0).toBeGreaterThan(0);
    // The picture for the model.
    const image = result.content.find((b) => b.type === "image");
    expect(image, "PNG image block").toBeTruthy();
    if (image?.type === "image") {
      expect(image.mimeType).toBe("image/png");
      const { width, height } = pngSize(image.data);
      expect(Math.max(width, height)).toBeLessThanOrEqual(1568);
      expect(Math.min(width, height)).toBeGreaterThan(20);
    }
  });
});

describe("diagram types the corpus has no example of render too", () => {
  let c: Client;
  beforeAll(async () => {
    c = await client();
  });
  test.each(Object.entries(EXTRA_TYPES))("%s", async (_type, { code, words }) => {
    expect((await callTool(c, "verify", { code })).structuredContent).toEqual({ ok: true });
    const result = await callTool(c, "render", { code });
    expect(result.isError, textOf(result)).toBeFalsy();
    const doc = parseSvgFile((result.structuredContent as { svg: string }).svg);
    const text = doc.documentElement.textContent ?? "";
    for (const w of words) expect(text).toContain(w);
    expect(result.content.some((b) => b.type === "image")).toBe(true);
  });
});

describe("large results", () => {
  const sequence = (messages: number) =>
    "sequenceDiagram\n" + Array.from({ length: messages }, (_, i) => `  ${i % 2 ? "Bob->>Alice" : "Alice->>Bob"}: message number ${i}`).join("\n");

  test.each(["render", "svg"])("%s: an SVG over the limit is refused as too large, never cut", async (name) => {
    const c = await client();
    const code = sequence(1400);
    expect(code.length).toBeLessThan(50_000);
    const r = await callTool(c, name, { code });
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toBeUndefined();
    const m = /^Error: The rendered SVG is (\d+) KB, more than this server returns \((\d+) KB\): split the diagram into smaller ones \(413\)$/.exec(textOf(r));
    expect(m, textOf(r)).toBeTruthy();
    expect(Number(m![1])).toBeGreaterThan(Number(m![2]));
    expect(Number(m![2])).toBe(Math.ceil(MAX_SVG_CHARS / 1000));
  });

  test("a large SVG under the limit: whole in structuredContent, summarised in the text, the result well under 1 MB", async () => {
    const c = await client();
    const r = await callTool(c, "render", { code: sequence(400) });
    expect(r.isError, textOf(r)).toBeFalsy();
    const { svg } = r.structuredContent as { svg: string };
    expect(svg.length).toBeGreaterThan(MAX_RESULT_TEXT);
    expect(svg.length).toBeLessThanOrEqual(MAX_SVG_CHARS);
    parseSvgFile(svg); // complete, not cut
    expect(textOf(r)).toMatch(/^Rendered sequence diagram: \d+×\d+, \d+ KB SVG in structuredContent\.svg/);
    expect(JSON.stringify(r).length).toBeLessThan(950_000);
    const s = await callTool(c, "svg", { code: sequence(400) });
    // (Not byte-equal to render's: mermaid numbers sequence actors with a process-wide counter.)
    parseSvgFile((s.structuredContent as { svg: string }).svg);
    expect(textOf(s)).toMatch(/^Exported sequence diagram: \d+×\d+, \d+ KB SVG in structuredContent\.svg; suggested filename diagram-.*\.svg$/);
  });
});

describe("errors that are not the caller's syntax", () => {
  test("a crash inside the renderer is an internal error with a request id, never shown as a syntax error", async () => {
    const c = await client();
    // mermaid 12.3 throws a TypeError (reading 'events') on a timeline event without a period.
    const code = "timeline\n  : orphan event";
    for (const name of ["verify", "render"]) {
      const r = await callTool(c, name, { code });
      expect(r.isError, name).toBe(true);
      expect(textOf(r)).toMatch(/^Error: Something went wrong on our side.*\(request id [\w-]+\)\.$/);
      expect(textOf(r)).not.toMatch(/Cannot read|TypeError|Syntax error/);
    }
  });

  test("a date that does not exist in a gantt chart is the caller's to fix: 400 naming the date and the line", async () => {
    const c = await client();
    const code = "gantt\n  dateFormat YYYY-MM-DD\n  section Build\n  Design :a1, 2024-13-45, 30d";
    const r = await callTool(c, "render", { code });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'Error: Syntax error in graph definition: invalid date "2024-13-45": dates must exist and match the dateFormat (YYYY-MM-DD) at line 4. Line 4: "  Design :a1, 2024-13-45, 30d" (400)',
    );
    // verify refuses it too, with the same sentence: what passes verify renders.
    const v = await callTool(c, "verify", { code });
    expect(v.isError).toBeFalsy();
    expect(v.structuredContent).toEqual({
      ok: false,
      error: 'Syntax error in graph definition: invalid date "2024-13-45": dates must exist and match the dateFormat (YYYY-MM-DD) at line 4. Line 4: "  Design :a1, 2024-13-45, 30d"',
    });
  });

  test("labels: \"text\" gives plain SVG text in the same layout: no foreignObject, same viewBox and words", async () => {
    const c = await client();
    const code = "flowchart LR\n  A[A rather long label that wraps onto two lines] --> B{Decide}\n  B -->|yes| C[Done]";
    for (const name of ["render", "svg"]) {
      const html = (await callTool(c, name, { code })).structuredContent as { svg: string };
      const r = await callTool(c, name, { code, labels: "text" });
      expect(r.isError, textOf(r)).toBeFalsy();
      const text = (r.structuredContent as { svg: string }).svg;
      expect(html.svg).toContain("<foreignObject");
      expect(text).not.toContain("<foreignObject");
      const doc = parseSvgFile(text);
      expect(doc.documentElement.getAttribute("viewBox")).toBe(parseSvgFile(html.svg).documentElement.getAttribute("viewBox"));
      const lines = Array.from(doc.getElementsByTagName("text")).map((t) => t.textContent);
      expect(lines).toEqual(expect.arrayContaining(["Decide", "yes", "Done"]));
      // The long label wraps (HTML labels are at most 200px wide): several lines, same words.
      const wrapped = lines.filter((l) => l && "A rather long label that wraps onto two lines".includes(l));
      expect(wrapped.length).toBeGreaterThan(1);
      expect(wrapped.join(" ")).toBe("A rather long label that wraps onto two lines");
    }
    const bad = await callTool(c, "svg", { code, labels: "pdf" });
    expect(bad.isError).toBe(true);
  });
});

describe("every valid diagram of the corpus verifies and renders; every invalid one is refused with where and why", () => {
  let c: Client;
  beforeAll(async () => {
    c = await client();
  });
  test.each(corpus().filter((e) => e.valid).map((e) => [e.file, e] as const))("valid %s", async (_f, entry) => {
    expect((await callTool(c, "verify", { code: entry.code })).structuredContent).toEqual({ ok: true });
    const out = await callTool(c, "svg", { code: entry.code });
    expect(out.isError, textOf(out)).toBeFalsy();
    parseSvgFile((out.structuredContent as { svg: string }).svg);
  });
  test.each(corpus().filter((e) => !e.valid).map((e) => [e.file, e] as const))("invalid %s", async (_f, entry) => {
    const result = await callTool(c, "verify", { code: entry.code });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as { ok: boolean; error: string };
    expect(data.ok).toBe(false);
    expect(data.error).toMatch(/^Invalid Mermaid syntax/);
    // Where mermaid reports a position, the message names it and quotes that line of the code.
    const reported = /line (\d+)/.exec(entry.note);
    if (reported && !/No diagram type/.test(entry.note)) {
      const m = /at line (\d+)(?:, column (\d+))?: .*\. Line \1: (".*")$/.exec(data.error);
      expect(m, data.error).toBeTruthy();
      const line = entry.code.replace(/\r\n?/g, "\n").split("\n")[Number(m![1]) - 1];
      expect(JSON.parse(m![3]!)).toBe(line);
    }
    const rendered = await callTool(c, "render", { code: entry.code });
    expect(rendered.isError).toBe(true);
    expect(textOf(rendered)).toBe(`Error: ${data.error} (400)`);
  });
});

describe("input rules (non-empty string, at most 50,000 characters) and their exact messages", () => {
  test.each(["verify", "render", "svg"])("%s: missing, empty and whitespace code", async (name) => {
    const c = await client();
    for (const args of [{}, { code: "" }, { code: "  \n " }]) {
      const r = await callTool(c, name, args);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe("Error: Invalid input: code must be a non-empty string (400)");
    }
  });

  test.each(["verify", "render", "svg"])("%s: code over 50,000 characters", async (name) => {
    const c = await client();
    const code = "graph TD\n" + "  A-->B\n".repeat(7000);
    expect(code.length).toBeGreaterThan(50_000);
    const r = await callTool(c, name, { code });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe("Error: Code exceeds maximum length of 50KB (413)");
  });

  test("exactly 50,000 characters is accepted", async () => {
    const c = await client();
    const head = "graph TD\n  A-->B\n%% ";
    const code = head + "x".repeat(50_000 - head.length);
    expect(code.length).toBe(50_000);
    expect((await callTool(c, "verify", { code })).structuredContent).toEqual({ ok: true });
  });

  test("a syntax error: verify says ok false with line, column and the line; render refuses with the same sentence", async () => {
    const c = await client();
    const code = "flowchart TD\n    start --> end\n";
    const v = (await callTool(c, "verify", { code })).structuredContent as { ok: boolean; error: string };
    expect(v.ok).toBe(false);
    expect(v.error).toMatch(/^Invalid Mermaid syntax at line 2, column \d+: .*got 'end'\. Line 2: "    start --> end"$/);
    const r = await callTool(c, "render", { code });
    expect(textOf(r)).toBe(`Error: ${v.error} (400)`);
  });

  test("an unknown theme is refused naming the allowed ones", async () => {
    const c = await client();
    const r = await callTool(c, "render", { code: "graph TD\n A-->B", theme: "purple" });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe('Error: Invalid input: theme must be one of: "default", "neutral", "dark", "forest", "base" (400)');
  });
});

describe("svg export and themes", () => {
  test("svg returns the same SVG as render and a UTC timestamped filename", async () => {
    const c = await client();
    const code = "graph LR\n  A --> B --> C";
    const before = Date.now();
    const s = await callTool(c, "svg", { code });
    const after = Date.now();
    const data = s.structuredContent as { svg: string; filename: string };
    const m = /^diagram-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})\.svg$/.exec(data.filename);
    expect(m, data.filename).toBeTruthy();
    const at = Date.UTC(+m![1]!, +m![2]! - 1, +m![3]!, +m![4]!, +m![5]!, +m![6]!);
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 1000);
    expect(at).toBeLessThanOrEqual(after + 1000);
    const r = await callTool(c, "render", { code });
    expect((r.structuredContent as { svg: string }).svg).toBe(data.svg);
  });

  // mermaid numbers some of these diagrams' ids with process-wide counters; the server renumbers
  // them, so a warm worker that drew other diagrams in between still answers with the same bytes.
  test.each(["sequence", "classDiagram", "sankey"])("%s: svg and render return identical SVG, with other diagrams drawn in between", async (type) => {
    const c = await client();
    const [entry, other] = corpus().filter((e) => e.valid && e.type === type).concat(onePerType().filter((e) => e.type === type));
    const s = await callTool(c, "svg", { code: entry!.code });
    expect(s.isError, textOf(s)).toBeFalsy();
    expect((await callTool(c, "render", { code: other!.code })).isError).toBeFalsy();
    const r = await callTool(c, "render", { code: entry!.code });
    expect(r.isError, textOf(r)).toBeFalsy();
    const svg = (s.structuredContent as { svg: string }).svg;
    expect((r.structuredContent as { svg: string }).svg).toBe(svg);
    // Markers, gradients and labels the renamed ids point at are all still there.
    const doc = parseSvgFile(svg);
    const ids = new Set(Array.from(doc.querySelectorAll("[id]")).map((el) => el.getAttribute("id")));
    const refs = [...svg.matchAll(/url\(\s*(?:['"]|&quot;)?#([^'")&\s]+)|href="#([^"]+)"/g)].map((m) => m[1] ?? m[2]);
    expect(refs.length).toBeGreaterThan(0);
    expect(refs.filter((id) => !ids.has(id!))).toEqual([]);
  });

  test("themes change the colours; dark is dark", async () => {
    const c = await client();
    const code = "graph TD\n  A[Start] --> B[End]";
    const svgs: Record<string, string> = {};
    for (const theme of ["default", "neutral", "dark", "forest", "base"]) {
      const r = await callTool(c, "svg", { code, theme });
      expect(r.isError, textOf(r)).toBeFalsy();
      svgs[theme] = (r.structuredContent as { svg: string }).svg;
    }
    expect(new Set(Object.values(svgs)).size).toBe(5);
    expect(svgs.default).toContain("#ECECFF"); // mermaid's default node fill
    expect(svgs.dark).toMatch(/#1f2020/i); // mermaid's dark node fill
    expect((await callTool(c, "svg", { code })).structuredContent).toMatchObject({ svg: svgs.default });
  });
});
