// Same code + theme → the same SVG, byte for byte, whichever worker renders it and however many
// diagrams it rendered before (mermaid numbers some ids with process-wide counters: sequence
// `actorN`, class `classId-…-N`, sankey `node-N`; core/ids.ts renumbers them). Real render
// workers, no emulator.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RenderPool } from "../../functions/src/platform/mermaid/pool.js";
import type { RenderOutcome } from "../../functions/src/platform/mermaid/protocol.js";
import { canonicaliseIds, counterIdMap } from "../../functions/src/platform/mermaid/ids.js";
import { corpus, EXTRA_TYPES, parseSvgFile, unsafeParts } from "./corpus.js";
import type { Logger } from "../../functions/src/core/log.js";

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };

const diagrams: [string, string][] = [
  ...corpus()
    .filter((e) => e.valid)
    .map((e) => [e.file, e.code] as [string, string]),
  ...Object.entries(EXTRA_TYPES).map(([name, { code }]) => [name, code] as [string, string]),
];

/** Every in-document reference of an SVG: url(#…) anywhere, href="#…", aria id lists. */
function references(svg: string): string[] {
  const doc = parseSvgFile(svg);
  const refs: string[] = [];
  for (const el of Array.from(doc.getElementsByTagName("*"))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      for (const m of attr.value.matchAll(/url\(\s*['"]?#([^'")\s]+)/g)) refs.push(m[1]!);
      if ((name === "href" || name.endsWith(":href")) && attr.value.startsWith("#")) refs.push(attr.value.slice(1));
      if (/^aria-(labelledby|describedby|owns)$/.test(name)) refs.push(...attr.value.split(/\s+/).filter(Boolean));
    }
    if (el.localName === "style") for (const m of (el.textContent ?? "").matchAll(/url\(\s*['"]?#([^'")\s]+)/g)) refs.push(m[1]!);
  }
  return refs;
}

function ids(svg: string): Set<string> {
  return new Set(Array.from(parseSvgFile(svg).querySelectorAll("[id]")).map((el) => el.getAttribute("id")!));
}

async function renderAll(pool: RenderPool, order: [string, string][]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [name, code] of order) {
    const r = await pool.run<RenderOutcome>({ op: "render", code, theme: "default", png: false });
    out.set(name, r.svg);
  }
  return out;
}

describe("the same diagram renders to the same bytes", () => {
  const pools: RenderPool[] = [];
  let first: Map<string, string>;
  beforeAll(async () => {
    const warm = new RenderPool({ size: 1, log: quiet });
    pools.push(warm);
    await warm.start();
    first = await renderAll(warm, diagrams);
  }, 180_000);
  afterAll(async () => Promise.all(pools.map((p) => p.close())));

  test("three renders in the same warm worker (different diagrams between them) are identical", { timeout: 180_000 }, async () => {
    // Reversed, then the original order again: each diagram follows different ones each time.
    const second = await renderAll(pools[0]!, [...diagrams].reverse());
    const third = await renderAll(pools[0]!, diagrams);
    for (const [name] of diagrams) {
      expect(second.get(name), name).toBe(first.get(name));
      expect(third.get(name), name).toBe(first.get(name));
    }
  });

  test("a fresh worker, and one that drew only sequence, class and sankey diagrams, agree", { timeout: 180_000 }, async () => {
    const fresh = new RenderPool({ size: 1, log: quiet });
    pools.push(fresh);
    await fresh.start();
    // Advance the counters of the three affected types by different amounts first.
    const counters = diagrams.filter(([name]) => /sequence|class|sankey/.test(name));
    expect(counters.length).toBeGreaterThanOrEqual(5);
    await renderAll(fresh, [...counters, ...counters.slice(1)]);
    const again = await renderAll(fresh, [...diagrams].reverse());
    for (const [name] of diagrams) expect(again.get(name), name).toBe(first.get(name));
  });

  test("every url(#…), href=\"#…\" and aria reference resolves to an element of the same SVG", () => {
    for (const [name, svg] of first) {
      const present = ids(svg);
      const dangling = references(svg).filter((ref) => !present.has(ref));
      expect(dangling, name).toEqual([]);
      expect(unsafeParts(svg), name).toEqual([]);
    }
  });

  test("the counter-numbered ids are numbered from where a fresh process starts", () => {
    const sequence = first.get("cli-sequence.mmd")!;
    expect(sequence).toMatch(/<line id="mermaid-[0-9a-f]+-actor0"/);
    expect(sequence).toMatch(/id="mermaid-[0-9a-f]+-root-0"/);
    const sankey = first.get("doc-sankey-energy.mmd")!;
    expect(sankey).toMatch(/<g class="node" id="mermaid-[0-9a-f]+-node-1"/);
    expect(sankey).toMatch(/stroke="url\(#mermaid-[0-9a-f]+-linearGradient-\d+\)"/);
    expect(first.get("doc-class-2.mmd")!).toMatch(/id="mermaid-[0-9a-f]+-classId-[^"]+-0"/);
  });
});

describe("renaming (core/ids.ts)", () => {
  test("only mermaid's counter-numbered ids change; ids with meaningful digits stay", () => {
    const map = counterIdMap([
      "mermaid-abc123", "actor7", "root-7", "actor7_popup", "actor9", "root-9", "mermaid-abc123-classId-Dev2-5", "node-40", "linearGradient-41",
      "mermaid-abc123_flowchart-v2-pointEnd", "mermaid-abc123-state-Still-3", "mermaid-abc123-Process1", "mermaid-abc123-node-4",
    ]);
    expect(Object.fromEntries(map)).toEqual({
      actor7: "actor0", "root-7": "root-0", actor7_popup: "actor0_popup", actor9: "actor1", "root-9": "root-1",
      "mermaid-abc123-classId-Dev2-5": "mermaid-abc123-classId-Dev2-0", "node-40": "node-1", "linearGradient-41": "linearGradient-2",
    });
  });

  test("every kind of reference follows, and nothing else changes", () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" id="m" aria-labelledby="actor5 m-title" aria-describedby="root-5">' +
      "<style>#actor5{stroke:red}#actor5.x,#actor5:hover{fill:url(#node-8)}#actor50{fill:#555}</style>" +
      '<defs><linearGradient id="node-8"/><marker id="actor6"/></defs>' +
      '<line id="actor5" marker-end="url(#actor6)" stroke="url(&quot;#node-8&quot;)" style="fill:url(\'#node-8\');stroke:#actor5"/>' +
      '<use href="#actor6" xlink:href="#node-8" clip-path="url(#actor5)" mask="url(#actor6)" filter="url(#node-8)"/>' +
      '<text id="m-title">actor5 #actor5</text></svg>';
    const doc = parseSvgFile(svg);
    const before = doc.getElementsByTagName("*").length;
    expect(canonicaliseIds(doc.documentElement as unknown as Element)).toBe(3);
    expect(doc.getElementsByTagName("*").length).toBe(before);
    const out = doc.documentElement.outerHTML;
    // Numbered in document order: the marker (actor6) comes before the line (actor5); prefixed
    // with the diagram's id, so two diagrams on one page never share one.
    expect(out).toContain('aria-labelledby="m-actor1 m-title" aria-describedby="root-5"');
    expect(out).toContain("<style>#m-actor1{stroke:red}#m-actor1.x,#m-actor1:hover{fill:url(#m-node-1)}#actor50{fill:#555}</style>");
    expect(out).toContain('<linearGradient id="m-node-1"/><marker id="m-actor0"/>');
    expect(out).toContain('<line id="m-actor1" marker-end="url(#m-actor0)" stroke="url(&quot;#m-node-1&quot;)" style="fill:url(\'#m-node-1\');stroke:#m-actor1"/>');
    expect(out).toContain('<use href="#m-actor0" xlink:href="#m-node-1" clip-path="url(#m-actor1)" mask="url(#m-actor0)" filter="url(#m-node-1)"/>');
    // Text is text.
    expect(out).toContain(">actor5 #actor5</text>");
  });
});
