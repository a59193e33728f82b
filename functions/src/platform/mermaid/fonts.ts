// Text measurement from real font metrics: Liberation Sans (metric-compatible with Arial, which
// is what Chromium resolves mermaid's font stack to on Linux) and Liberation Serif (the browser's
// default font). Advance widths + kerning pairs, read from compact tables made from the TTFs
// (metrics-*.json, scripts/gen-font-metrics.ts): no font parsing at start-up.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** functions/assets/fonts, from functions/src/... (tsx) or functions/lib/... (deployed). */
export const FONT_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../../assets/fonts");

export const FONT_FILES = {
  regular: join(FONT_DIR, "LiberationSans-Regular.ttf"),
  bold: join(FONT_DIR, "LiberationSans-Bold.ttf"),
  italic: join(FONT_DIR, "LiberationSans-Italic.ttf"),
  boldItalic: join(FONT_DIR, "LiberationSans-BoldItalic.ttf"),
  // Chromium's default font (Times New Roman → Liberation Serif): text with no usable
  // font-family, e.g. mermaid's own measuring text in sequence diagrams, is measured in it.
  serif: join(FONT_DIR, "LiberationSerif-Regular.ttf"),
  serifBold: join(FONT_DIR, "LiberationSerif-Bold.ttf"),
};

export interface FontStyle {
  size: number;
  bold: boolean;
  /** Liberation Serif (the browser's default font) instead of Liberation Sans. */
  serif?: boolean;
}

/** A face's measuring data (scripts/gen-font-metrics.ts makes it from the TTF). */
interface FaceData {
  unitsPerEm: number;
  ascender: number;
  descender: number;
  /** codepoint, glyph index, codepoint, glyph index, … */
  cmap: number[];
  advances: Record<string, number>;
  yMin: Record<string, number>;
  /** left glyph, right glyph, value, … */
  kerning: number[];
}

class Metrics {
  readonly unitsPerEm: number;
  /** hhea ascent/descent as fractions of the em (what browsers use for a text box). */
  readonly ascent: number;
  readonly descent: number;
  private readonly glyphs = new Map<number, number>();
  private readonly kern = new Map<number, number>();

  constructor(private readonly data: FaceData) {
    this.unitsPerEm = data.unitsPerEm;
    this.ascent = data.ascender / data.unitsPerEm;
    this.descent = Math.abs(data.descender) / data.unitsPerEm;
    for (let i = 0; i < data.cmap.length; i += 2) this.glyphs.set(data.cmap[i]!, data.cmap[i + 1]!);
    for (let i = 0; i < data.kerning.length; i += 3) this.kern.set(data.kerning[i]! * 65536 + data.kerning[i + 1]!, data.kerning[i + 2]!);
  }

  private index(ch: string): number {
    return this.glyphs.get(ch.codePointAt(0)!) ?? 0;
  }

  private advanceOf(i: number): number {
    return this.data.advances[i] ?? 0;
  }

  private kerning(left: number, right: number): number {
    return this.kern.get(left * 65536 + right) ?? 0;
  }

  private glyphYMin(i: number): number {
    return this.data.yMin[i] ?? 0;
  }

  private readonly inkBottom = new Map<string, number>();

  /** The lowest point any glyph of `text` reaches, in em (negative below the baseline). */
  lowestInk(text: string): number {
    let low = 0;
    for (const ch of text) {
      let y = this.inkBottom.get(ch);
      if (y === undefined) {
        const i = this.index(ch);
        y = i ? this.glyphYMin(i) / this.unitsPerEm : 0;
        this.inkBottom.set(ch, y);
      }
      low = Math.min(low, y);
    }
    return low;
  }

  /** Width in em units (multiply by the font size). */
  width(text: string): number {
    let units = 0;
    let prev = -1;
    let fallbackEm = 0;
    for (const ch of text) {
      const cp = ch.codePointAt(0)!;
      if (cp < 32 && ch !== "\t") continue;
      // Zero-width joiners and variation selectors take no space.
      if (cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0x1f3fb && cp <= 0x1f3ff)) continue;
      const i = this.index(ch);
      if (i === 0) {
        // Not in Liberation: the browser falls back to another font. CJK from the fallback
        // fonts' own advance widths (cjk-widths.json); anything else (emoji, …) estimated.
        fallbackEm += cjkWidth(cp) ?? (isWide(cp) ? 1 : 0.6);
        prev = -1;
        continue;
      }
      if (prev >= 0) units += this.kerning(prev, i);
      units += this.advanceOf(i);
      prev = i;
    }
    return units / this.unitsPerEm + fallbackEm;
  }
}

/**
 * Advance widths (em) of CJK characters in the fonts Chromium falls back to on Debian (IPAGothic,
 * Droid Sans Fallback): a run-length table made by scripts/gen-cjk-widths.ts, ~2 KB.
 */
let cjkRuns: [number, number, number][] | undefined;

function cjkWidth(cp: number): number | undefined {
  cjkRuns ??= (JSON.parse(readFileSync(join(FONT_DIR, "cjk-widths.json"), "utf8")) as { runs: [number, number, number][] }).runs;
  let lo = 0;
  let hi = cjkRuns.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [first, last, width] = cjkRuns[mid]!;
    if (cp < first) hi = mid - 1;
    else if (cp > last) lo = mid + 1;
    else return width / 1000;
  }
  return undefined;
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f000 && cp <= 0x1faff) ||
    (cp >= 0x2600 && cp <= 0x27bf) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

let loaded: { regular: Metrics; bold: Metrics; serif?: Metrics; serifBold?: Metrics } | undefined;

function load(face: "sans" | "sansBold" | "serif" | "serifBold"): Metrics {
  return new Metrics(JSON.parse(readFileSync(join(FONT_DIR, `metrics-${face}.json`), "utf8")) as FaceData);
}

export function loadFonts(): void {
  loaded ??= { regular: load("sans"), bold: load("sansBold") };
}

function metrics(bold: boolean, serif = false): Metrics {
  loadFonts();
  if (serif) return bold ? (loaded!.serifBold ??= load("serifBold")) : (loaded!.serif ??= load("serif"));
  return bold ? loaded!.bold : loaded!.regular;
}

const widthCache = new Map<string, number>();

/** Width in px of a single line of text. */
export function textWidth(text: string, style: FontStyle): number {
  const key = (style.serif ? "s" : "") + (style.bold ? "b" : "r") + text;
  let em = widthCache.get(key);
  if (em === undefined) {
    em = metrics(style.bold, style.serif).width(text);
    if (widthCache.size > 20_000) widthCache.clear();
    widthCache.set(key, em);
  }
  return em * style.size;
}

export function fontAscent(bold = false, serif = false): number {
  return metrics(bold, serif).ascent;
}

export function fontDescent(bold = false, serif = false): number {
  return metrics(bold, serif).descent;
}

/**
 * Ascent and descent of a line of SVG text in px, as Blink computes them: each rounded to whole
 * pixels (Skia metrics, SimpleFontData). Liberation Serif's descent comes out one pixel deeper at
 * some sizes (Blink's Linux subpixel rule borrows a pixel); measured in Chromium for 10–24 px.
 */
export function lineMetrics(style: FontStyle, text = ""): { ascent: number; descent: number } {
  const m = metrics(style.bold, style.serif);
  const ascent = Math.round(m.ascent * style.size);
  let descent = Math.round(m.descent * style.size);
  // Measured in Chromium (10–24 px): Liberation Serif text whose glyphs reach more than ~0.3 px
  // below the rounded descent ("y", "(", "[") gets one more pixel; Liberation Sans never does.
  if (style.serif && text && -m.lowestInk(text) * style.size > descent + 0.3) descent += 1;
  return { ascent, descent };
}
