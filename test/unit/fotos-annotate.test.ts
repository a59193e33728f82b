// Annotation rendering on real PNGs, checked pixel by pixel: the seed's defaults (#FF0000,
// stroke 2), array order (a blur after a rect blurs the rect), a real blur, arrows with heads at
// the last point, text, clipping at the image edge, and invalid annotations named by index and field.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import sharp from "sharp";
import { beforeAll, describe, expect, test } from "vitest";
import { renderAnnotations } from "../../functions/src/domains/fotos/annotate/render.js";
import { annotationsSchema, type Annotation } from "../../functions/src/domains/fotos/annotate/schema.js";
import { parseInput } from "../../functions/src/mcp/validation.js";
import { annotateScreenshotTool } from "../../functions/src/domains/fotos/tools/annotate_screenshot.js";
import { TesseractOcr } from "../../functions/src/platform/ocr-tesseract.js";
import { ensureTestFonts, renderPage } from "../fotos/vision-fixtures.js";

const W = 400;
const H = 300;
let base: Buffer;

const annotations = (list: unknown[]): Annotation[] => annotationsSchema.parse(list);

async function pixels(png: Buffer) {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return (x: number, y: number) => {
    const i = (y * info.width + x) * 3;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
}
const RED = [255, 0, 0];
const WHITE = [255, 255, 255];

beforeAll(async () => {
  ensureTestFonts();
  base = await sharp({ create: { width: W, height: H, channels: 3, background: "#ffffff" } }).png().toBuffer();
}, 600_000);

describe("shapes with the seed's defaults", () => {
  test("a rect is a 2 px #FF0000 outline; inside and outside stay as they were", async () => {
    const out = await renderAnnotations(base, annotations([{ type: "rect", x: 100, y: 100, width: 200, height: 150 }]));
    const at = await pixels(out);
    expect(await sharp(out).metadata()).toMatchObject({ width: W, height: H, format: "png" });
    expect(at(100, 175)).toEqual(RED); // left edge (stroke centred on x=100: 99..101)
    expect(at(200, 100)).toEqual(RED); // top edge
    expect(at(300, 175)).toEqual(RED); // right edge
    expect(at(200, 250)).toEqual(RED); // bottom edge
    expect(at(200, 175)).toEqual(WHITE); // inside: not filled
    expect(at(104, 175)).toEqual(WHITE); // 2 px wide, not more
    expect(at(50, 50)).toEqual(WHITE);
  });

  test("color and stroke_width are honoured; an ellipse touches its box's edge midpoints only", async () => {
    const out = await renderAnnotations(base, annotations([{ type: "ellipse", x: 100, y: 100, width: 200, height: 100, color: "#0000FF", stroke_width: 6 }]));
    const at = await pixels(out);
    expect(at(100, 150)).toEqual([0, 0, 255]);
    expect(at(200, 100)).toEqual([0, 0, 255]);
    expect(at(200, 150)).toEqual(WHITE);
    expect(at(101, 101)).toEqual(WHITE); // a rect would have a corner here
  });

  test("an arrow follows its points and has a filled head at the last point", async () => {
    const out = await renderAnnotations(base, annotations([{ type: "arrow", points: [{ x: 20, y: 20 }, { x: 20, y: 200 }, { x: 300, y: 200 }], stroke_width: 3 }]));
    const at = await pixels(out);
    expect(at(20, 100)).toEqual(RED); // first segment
    expect(at(150, 200)).toEqual(RED); // second segment
    // Head: a triangle pointing right at (300, 200), wider than the line just before the tip.
    expect(at(290, 196)).toEqual(RED);
    expect(at(290, 204)).toEqual(RED);
    expect(at(150, 196)).toEqual(WHITE); // the line itself is only 3 px
    expect(at(305, 200)).toEqual(WHITE); // nothing beyond the tip
    // Without points: from (x, y) to (x + width, y + height).
    const diagonal = await pixels(await renderAnnotations(base, annotations([{ type: "arrow", x: 10, y: 10, width: 100, height: 100 }])));
    expect(diagonal(50, 50)).toEqual(RED);
  });

  test("text is drawn in the color at (x, y) and reads back with OCR", async () => {
    const out = await renderAnnotations(base, annotations([{ type: "text", x: 30, y: 40, text: "Broken button", height: 28, color: "#000000" }]));
    const ocr = new TesseractOcr();
    try {
      const result = await ocr.recognize(out, "eng");
      expect(result.text).toContain("Broken button");
      const word = result.regions.find((r) => r.text === "Broken")!;
      expect(word.x).toBeGreaterThanOrEqual(28);
      expect(word.x).toBeLessThan(40);
      expect(word.y).toBeGreaterThanOrEqual(38);
      expect(word.y).toBeLessThan(52);
    } finally {
      await ocr.close();
    }
  });
});

describe("fonts for text, as deployed", () => {
  // Cloud Functions' image has almost no fonts: text must render from functions/assets/fonts alone.
  // A child process renders with fontconfig limited to that folder (or to nothing, for contrast).
  function renderWithFontsFrom(dir: string): Buffer {
    const conf = mkdtempSync(join(tmpdir(), "fotos-fc-"));
    writeFileSync(join(conf, "fonts.conf"), `<?xml version="1.0"?><fontconfig><dir>${dir}</dir><cachedir>${conf}</cachedir></fontconfig>`);
    const script = `
      const { renderAnnotations } = await import(${JSON.stringify(new URL("../../functions/src/domains/fotos/annotate/render.ts", import.meta.url).href)});
      const sharp = (await import("sharp")).default;
      const base = await sharp({ create: { width: 360, height: 80, channels: 3, background: "#ffffff" } }).png().toBuffer();
      const out = await renderAnnotations(base, [{ type: "text", x: 10, y: 20, text: "Look here", height: 32, color: "#000000", stroke_width: 2 }]);
      process.stdout.write(out.toString("base64"));`;
    const out = execFileSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { ...process.env, FONTCONFIG_FILE: join(conf, "fonts.conf") },
      encoding: "utf8",
      maxBuffer: 10 * 1024 * 1024,
    });
    return Buffer.from(out, "base64");
  }

  test("text renders legibly from the shipped fonts alone; without any font it does not", async () => {
    const ocr = new TesseractOcr();
    try {
      const shipped = await ocr.recognize(renderWithFontsFrom(new URL("../../functions/assets/fonts", import.meta.url).pathname), "eng");
      expect(shipped.text).toContain("Look here");
      const none = await ocr.recognize(renderWithFontsFrom("/nonexistent"), "eng");
      expect(none.text).not.toContain("Look here");
    } finally {
      await ocr.close();
    }
  });
});

describe("blur and order", () => {
  test("blur really blurs the region (edges smoothed) and leaves the rest untouched", async () => {
    const stripes = await renderPage({ width: W, height: H, lines: [], decor: Array.from({ length: 40 }, (_, i) => `<rect x="${i * 10}" y="0" width="5" height="${H}" fill="#000"/>`).join("") });
    const out = await renderAnnotations(stripes, annotations([{ type: "blur", x: 100, y: 100, width: 100, height: 100 }]));
    const before = await pixels(stripes);
    const at = await pixels(out);
    // Inside: black/white stripes became grey.
    for (const x of [120, 140, 160, 180]) expect(at(x, 150)[0]).toBeGreaterThan(60), expect(at(x, 150)[0]).toBeLessThan(200);
    // Outside: exactly as before.
    for (const [x, y] of [[50, 50], [55, 150], [250, 150], [150, 250]] as const) expect(at(x, y)).toEqual(before(x, y));
  });

  test("annotations are drawn in array order: a blur after a rect blurs it, a rect after a blur is sharp", async () => {
    const rect = { type: "rect", x: 140, y: 140, width: 20, height: 20, stroke_width: 4 };
    const blur = { type: "blur", x: 100, y: 100, width: 100, height: 100 };
    const blurredRect = await pixels(await renderAnnotations(base, annotations([rect, blur])));
    const sharpRect = await pixels(await renderAnnotations(base, annotations([blur, rect])));
    expect(sharpRect(140, 150)).toEqual(RED);
    expect(blurredRect(140, 150)).not.toEqual(RED);
    expect(blurredRect(140, 150)[1]).toBeGreaterThan(0); // red mixed with white
  });
});

describe("coordinates outside the image", () => {
  test("are clipped, not errors: shapes, blur and arrows partly or wholly outside", async () => {
    const out = await renderAnnotations(
      base,
      annotations([
        { type: "rect", x: -50, y: -50, width: 100, height: 100 },
        { type: "blur", x: 350, y: 250, width: 500, height: 500 },
        { type: "blur", x: 1000, y: 1000, width: 10, height: 10 },
        { type: "arrow", points: [{ x: 200, y: 150 }, { x: 5000, y: 150 }] },
        { type: "text", x: 390, y: 290, text: "off the edge" },
      ]),
    );
    expect(await sharp(out).metadata()).toMatchObject({ width: W, height: H });
    const at = await pixels(out);
    expect(at(50, 20)).toEqual(RED); // the visible part of the rect's right edge
    expect(at(399, 150)).toEqual(RED); // the arrow runs to the edge
  });
});

describe("invalid annotations name the index and the field", () => {
  const input = (list: unknown[]) => () => parseInput(annotateScreenshotTool.inputSchema, { screenshot_id: "abc", annotations: list });

  test("missing fields per type", () => {
    expect(input([{ type: "rect", x: 1, y: 1, width: 10, height: 10 }, { type: "rect", x: 1, y: 1, height: 10 }])).toThrow(
      "Invalid input: annotations.1.width is required for rect",
    );
    expect(input([{ type: "text", x: 1, y: 1 }])).toThrow("annotations.0.text is required for text");
    expect(input([{ type: "arrow", points: [{ x: 1, y: 1 }] }])).toThrow("annotations.0.points must have at least 2 points for arrow");
    expect(input([{ type: "arrow" }])).toThrow("annotations.0.points is required for arrow");
  });

  test("wrong values", () => {
    expect(input([{ type: "star", x: 1, y: 1 }])).toThrow('annotations.0.type must be one of: "arrow", "rect", "ellipse", "text", "blur"');
    expect(input([{ type: "rect", x: 1, y: 1, width: 10, height: 10, color: "red; fill:url(x)" }])).toThrow("annotations.0.color must be a hex color");
    // A word that is not a CSS color would draw nothing at all: refused, not silently invisible.
    expect(input([{ type: "rect", x: 1, y: 1, width: 10, height: 10, color: "notacolor" }])).toThrow("annotations.0.color must be a hex color such as #FF0000 or a CSS color name such as red");
    expect(input([{ type: "rect", x: 1, y: 1, width: 10, height: 10, color: "RebeccaPurple" }])).not.toThrow();
    expect(input([{ type: "rect", x: 1, y: 1, width: 10, height: 10, x2: 5 }, { type: "rect", x: null, y: 1, width: 10, height: 10 }])).toThrow("annotations.1.x");
    expect(input([{ type: "rect", x: "1", y: 1, width: 10, height: 10 }])).toThrow("annotations.0.x must be a number, not a string");
    expect(input([{ type: "blur", x: 1, y: 1, width: -5, height: 10 }])).toThrow("annotations.0.width must be at least 0");
    expect(input([])).toThrow("annotations must have at least 1 item");
  });

  test("text with characters XML cannot hold (control characters, lone surrogates) is drawn without them, not an internal error", async () => {
    const out = await renderAnnotations(base, annotations([{ type: "text", x: 10, y: 10, height: 30, text: "bell\u0007 nul\u0000 \uD800half" }]));
    const at = await pixels(out);
    let red = 0;
    for (let y = 10; y < 45; y++) for (let x = 10; x < 300; x++) if (at(x, y)[0]! > 200 && at(x, y)[1]! < 80) red++;
    expect(red).toBeGreaterThan(50); // the rest of the text is there
  });

  test("defaults are the seed's", () => {
    const parsed = parseInput(annotateScreenshotTool.inputSchema, { screenshot_id: "abc", annotations: [{ type: "rect", x: 1, y: 1, width: 2, height: 2 }] });
    expect(parsed.annotations[0]).toMatchObject({ color: "#FF0000", stroke_width: 2 });
  });
});
