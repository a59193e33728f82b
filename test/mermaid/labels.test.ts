// One layout for everything a caller gets: the SVG with HTML labels, the SVG with plain text
// labels (labels: "text", for viewers without foreignObject), and the PNG. Over the whole corpus:
// the two SVGs have the same boxes, edges and markers and the same words; the text one has no
// foreignObject; the PNG is exactly the picture resvg draws of the text one (so the model checks
// the diagram the user gets). Runs on the render pool itself (no emulator needed).
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { RenderPool } from "../../functions/src/platform/mermaid/pool.js";
import type { RenderOutcome } from "../../functions/src/platform/mermaid/protocol.js";
import { rasterize } from "../../functions/src/platform/mermaid/raster.js";
import { corpus, escapingParts, parseSvgFile } from "./corpus.js";

let pool: RenderPool;
beforeAll(async () => {
  pool = new RenderPool(1);
  await pool.start();
});
afterAll(async () => pool?.close());

const SHAPES = "rect, path, polygon, polyline, circle, ellipse, line, marker, use";

/** Every shape outside the labels, as written (geometry, classes, styles, markers). */
function shapes(svg: string): string[] {
  const doc = parseSvgFile(svg);
  return Array.from(doc.querySelectorAll(SHAPES))
    .filter((el) => !el.closest("foreignObject"))
    .map((el) => el.outerHTML.replace(/\sxmlns(:\w+)?="[^"]*"/g, ""));
}

/** The diagram's words, in order: HTML label text and SVG text alike. */
function words(svg: string): string[] {
  const doc = parseSvgFile(svg);
  for (const s of Array.from(doc.getElementsByTagName("style"))) s.remove();
  const texts: string[] = [];
  const walker = doc.createTreeWalker(doc.documentElement, 0x4 /* text */);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) texts.push(n.nodeValue ?? "");
  return texts.join(" ").split(/\s+/).filter(Boolean);
}

const entries = corpus().filter((e) => e.valid);

describe.each(entries.map((e) => [e.file, e] as const))("%s", (_file, entry) => {
  test("text labels: same boxes, edges, markers and words as the HTML labels; no foreignObject; the PNG is that SVG", async () => {
    const html = await pool.run<RenderOutcome>({ op: "render", code: entry.code, theme: "default", png: false });
    const text = await pool.run<RenderOutcome>({ op: "render", code: entry.code, theme: "default", png: true, labels: "text" });
    expect(text.pngError).toBeUndefined();
    expect(text.svg).not.toContain("<foreignObject");
    const viewBox = (svg: string) => parseSvgFile(svg).documentElement.getAttribute("viewBox");
    expect(viewBox(text.svg)).toBe(viewBox(html.svg));
    expect(shapes(text.svg)).toEqual(shapes(html.svg));
    expect(words(text.svg)).toEqual(words(html.svg));
    expect(escapingParts(text.svg)).toEqual([]);
    // The picture the model gets is the text-label SVG, pixel for pixel.
    expect(Buffer.from(text.png!).equals(Buffer.from(await rasterize(text.svg, "default")))).toBe(true);
  });
});

test("class inheritance triangles are hollow in the PNG's SVG as in the SVG (one rule resvg can read)", async () => {
  const code = "classDiagram\n  Animal <|-- Duck";
  const text = await pool.run<RenderOutcome>({ op: "render", code, theme: "default", png: true, labels: "text" });
  const doc = parseSvgFile(text.svg);
  const id = doc.documentElement.getAttribute("id")!;
  const css = doc.getElementsByTagName("style")[0]!.textContent!;
  // In mermaid's sheet this rule shares its selector list with `[id$="-extensionStart"]`, which
  // resvg does not understand (it then dropped the whole rule and filled the triangle).
  expect(css).toContain(`#${id} .extension{fill:transparent!important;`);
  const marker = doc.querySelector('marker[id$="-extensionStart"]')!;
  expect(marker.getAttribute("class")).toMatch(/\bextension\b/);
});
