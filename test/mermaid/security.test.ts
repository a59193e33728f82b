// Malicious diagrams come out clean, and styling survives the cleaning.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { callTool, connect, textOf } from "../support/mcp.js";
import { escapingParts, parseSvgFile, unsafeParts } from "./corpus.js";

let c: Client;
beforeAll(async () => {
  c = await connect("mermaid");
});
afterAll(async () => c?.close());

const attacks: Record<string, string> = {
  "script in labels": 'flowchart TD\n  A["<script>alert(1)</script>Start"] --> B["<b onmouseover=alert(1)>End</b>"]\n  B --> C[<iframe src="https://evil.example/x"></iframe>]',
  "click href javascript:": 'flowchart TD\n  A[Go] --> B[Stop]\n  click A href "javascript:alert(document.cookie)"\n  click B "javascript:alert(2)" "tip"',
  "init directive: securityLevel, htmlLabels, themeCSS with external URLs": [
    '%%{init: {"securityLevel": "loose", "htmlLabels": false, "flowchart": {"htmlLabels": false}, "themeCSS": "svg { background: url(https://evil.example/bg.png) } @import url(https://evil.example/a.css);", "fontFamily": "x; background: url(https://evil.example/f.png)", "dompurifyConfig": {"ADD_TAGS": ["script"]}}}%%',
    "flowchart TD",
    '  A["<img src=x onerror=alert(1)>Start"] --> B[End]',
    "  click A callback",
  ].join("\n"),
  "frontmatter config with themeCSS": [
    "---",
    "config:",
    "  securityLevel: loose",
    '  themeCSS: ".node rect { fill: url(https://evil.example/p.png) } @import \'https://evil.example/x.css\';"',
    "  themeVariables:",
    '    fontSize: "16px; background-image: url(https://evil.example/tv.png)"',
    "---",
    "flowchart LR",
    "  A --> B",
  ].join("\n"),
  "img with external src in a label": 'flowchart TD\n  A["<img src=https://evil.example/track.png width=40> Logo"] --> B["<img src=\'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=\'>"]',
  "classDef / style with CSS injection": "flowchart TD\n  A --> B\n  style A fill:#f9f,stroke:#333,stroke-width:4px\n  classDef bad fill:#f00,font-family:x\\;background:blue;\n  class B bad",
  "sequence note with a javascript link": 'sequenceDiagram\n  Alice->>Bob: <a href="javascript:alert(1)">click</a>\n  Note over Alice: <img src="https://evil.example/n.png">',
  // Browsers fetch an unterminated url( (the declaration closes at the end of the attribute).
  "unterminated url( in a label's style": "flowchart TD\n A[\"<span style='background-image:url(http://evil.example/s.png'>x</span>\"] --> B",
  "unterminated quoted url( in a label's style": "flowchart TD\n A[\"<span style='background-image:url(#quot;http://evil.example/s.png'>x</span>\"] --> B",
  "a # target with mismatched quotes": "flowchart TD\n A[\"<span style='background:url(#39;#x#quot;); background:url(http://evil.example/p.png); a:(#39;)'>x</span>\"] --> B",
  "external link from click href": 'flowchart TD\n  A[Docs] --> B[Home]\n  click A href "https://evil.example/" _blank\n  click B href "mailto:someone@evil.example"',
};

describe.each(Object.entries(attacks))("%s", (_name, code) => {
  test.each(["render", "svg"])("%s output is clean and still a styled diagram", async (tool) => {
    const result = await callTool(c, tool, { code });
    expect(result.isError, textOf(result)).toBeFalsy();
    // The picture is made from the same cleaned SVG.
    if (tool === "render") expect(result.content.some((b) => b.type === "image")).toBe(true);
    const { svg } = result.structuredContent as { svg: string };
    expect(unsafeParts(svg)).toEqual([]);
    const doc = parseSvgFile(svg);
    // Styling is kept (a <style> with mermaid's rules), not stripped.
    const style = doc.getElementsByTagName("style")[0]?.textContent ?? "";
    expect(style).toMatch(/fill:/);
    expect(style.length).toBeGreaterThan(500);
  });
});

// The SVG is for inline display: nothing in it may be positioned outside its own box or over the
// page (a node styled position:fixed over the whole viewport). Tried from every place CSS comes from.
const OVERLAY = "position:fixed,top:0,left:0,width:100vw,height:100vh,z-index:9999";
const escapes: Record<string, { code: string; kept: RegExp }> = {
  "style statement": { code: `flowchart TD\n  A[Over] --> B\n  style A fill:#f9f,${OVERLAY}`, kept: /fill:#f9f/ },
  "classDef statement": { code: `flowchart TD\n  A --> B[Over]\n  classDef over fill:#f00,${OVERLAY}\n  class B over`, kept: /fill:#f00/ },
  "linkStyle statement": { code: `flowchart TD\n  A --> B\n  linkStyle 0 stroke:#0a0,position:absolute,z-index:5`, kept: /stroke:#0a0/ },
  "style attribute in label HTML": {
    code: "flowchart TD\n  A[\"<span style='position:fixed;inset:0;z-index:9999;transform:scale(40);color:#c00'>Over</span>\"] --> B",
    kept: /#c00|rgb\(204, 0, 0\)/, // color:#c00 in HTML; the same colour as fill on the SVG text
  },
  "<style> in label HTML": { code: 'flowchart TD\n  A["<style>body{position:fixed} svg{z-index:9} p{top:0}</style>Over"] --> B', kept: /fill:/ },
  // (Colour variables are checked by mermaid itself: "red; position: fixed" is refused as a colour.)
  "init directive: theme variables": {
    code: '%%{init: {"themeVariables": {"fontSize": "16px; position: fixed; z-index: 9999"}}}%%\nflowchart TD\n  A --> B',
    kept: /fill:/,
  },
  "init directive: themeCSS": { code: '%%{init: {"themeCSS": ".node { position: fixed; z-index: 9999 } body { display: none }"}}%%\nflowchart TD\n  A --> B', kept: /fill:/ },
  "frontmatter themeCSS": {
    code: '---\nconfig:\n  themeCSS: "svg { position: fixed; top: 0 } .node { transform: scale(50) }"\n---\nflowchart TD\n  A --> B',
    kept: /fill:/,
  },
  "sequence diagram box and note styling": {
    code: "sequenceDiagram\n  box rgb(200,220,255) position:fixed\n  participant A\n  end\n  A->>A: <span style='position:absolute'>hi</span>",
    kept: /fill:/,
  },
};

describe.each(Object.entries(escapes))("nothing escapes the SVG's box: %s", (_name, { code, kept }) => {
  test.each(["html", "text"])("%s labels: no positioning survives, the rest of the styling does", async (labels) => {
    const result = await callTool(c, "svg", { code, labels });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { svg } = result.structuredContent as { svg: string };
    expect(escapingParts(svg)).toEqual([]);
    expect(unsafeParts(svg)).toEqual([]);
    expect(svg).toMatch(kept);
  });
});

test("a directive cannot switch HTML labels off (or on) behind our back", async () => {
  const plain = await callTool(c, "render", { code: "flowchart TD\n  A[Start] --> B[End]" });
  const forced = await callTool(c, "render", { code: '%%{init: {"htmlLabels": false, "flowchart": {"htmlLabels": false}}}%%\nflowchart TD\n  A[Start] --> B[End]' });
  const a = (plain.structuredContent as { svg: string }).svg;
  const b = (forced.structuredContent as { svg: string }).svg;
  expect(a).toContain("<foreignObject");
  expect(b).toContain("<foreignObject");
});

test("click href to an external site: the label stays, no external URL is left anywhere", async () => {
  for (const tool of ["render", "svg"]) {
    const result = await callTool(c, tool, { code: 'flowchart TD\n  A[Docs] --> B[Home]\n  click A href "https://example.com"' });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { svg } = result.structuredContent as { svg: string };
    expect(svg).toContain("Docs");
    expect(svg).toContain("Home");
    expect(svg).not.toMatch(/example\.com/);
    // Namespace URIs (http://www.w3.org/…) are names, not links; nothing else may be a URL.
    expect(svg.replace(/"http:\/\/www\.w3\.org\/[^"]*"/g, '""')).not.toMatch(/https?:|mailto:/i);
    expect(unsafeParts(svg)).toEqual([]);
  }
});

// Text XML 1.0 cannot carry, and attribute names only an HTML parser accepts: the SVG must still
// open as a standalone file (a strict XML parser).
const notXml: Record<string, string> = {
  "control character in a flowchart label": 'flowchart TD\n  A["a\u0001b"] --> B',
  "U+FFFF in a label": 'flowchart TD\n  A["a\uffffb"] --> B',
  "backspace in a sequence message": "sequenceDiagram\n  A->>B: x\u0008y",
  "control characters as mermaid entity codes": 'flowchart TD\n  A["a#1;b#65535;c"] --> B',
  "data-* attribute whose name is not an XML name": "flowchart TD\n  A[\"<span data-x\u037ey='1' data-ok='2'>x</span>\"] --> B",
  "prefixed attribute without a namespace": "flowchart TD\n  A[\"<span foo:bar='1'>x</span>\"] --> B",
};

describe.each(Object.entries(notXml))("%s", (_name, code) => {
  test.each(["render", "svg"])("%s output is well-formed XML", async (tool) => {
    const result = await callTool(c, tool, { code });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { svg } = result.structuredContent as { svg: string };
    parseSvgFile(svg);
    expect(svg).not.toMatch(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/);
  });
});

test("CSS that mermaid's own parser refuses (url() in style) is refused, not rendered", async () => {
  const result = await callTool(c, "render", { code: "flowchart TD\n  A --> B\n  style A fill:url(https://evil.example/s.png)" });
  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(/^Error: Invalid Mermaid syntax at line 3, column \d+: .* \(400\)$/);
});
