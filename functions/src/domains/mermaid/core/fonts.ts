// Text measurement from real font metrics: Liberation Sans (metric-compatible with Arial, which
// is what Chromium resolves mermaid's font stack to on Linux). Advance widths + GPOS kerning,
// cached per glyph and per pair, so measuring a label costs microseconds.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import opentype, { type Font } from "opentype.js";

/** functions/assets/fonts, from functions/src/... (tsx) or functions/lib/... (deployed). */
export const FONT_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../../../assets/fonts");

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

class Metrics {
  readonly unitsPerEm: number;
  /** hhea ascent/descent as fractions of the em (what browsers use for a text box). */
  readonly ascent: number;
  readonly descent: number;
  private readonly glyphIndex = new Map<string, number>();
  private readonly advance = new Map<number, number>();
  private readonly kern = new Map<number, number>();
  private readonly kerningTables: unknown;

  constructor(private readonly font: Font) {
    this.unitsPerEm = font.unitsPerEm;
    const hhea = font.tables.hhea;
    this.ascent = (hhea?.ascender ?? font.ascender) / font.unitsPerEm;
    this.descent = Math.abs(hhea?.descender ?? font.descender) / font.unitsPerEm;
    try {
      this.kerningTables = font.position.getKerningTables(font.position.getDefaultScriptName());
    } catch {
      this.kerningTables = undefined;
    }
  }

  private index(ch: string): number {
    let i = this.glyphIndex.get(ch);
    if (i === undefined) {
      i = this.font.charToGlyphIndex(ch) ?? 0;
      this.glyphIndex.set(ch, i);
    }
    return i;
  }

  private advanceOf(i: number): number {
    let a = this.advance.get(i);
    if (a === undefined) {
      a = this.font.glyphs.get(i).advanceWidth ?? 0;
      this.advance.set(i, a);
    }
    return a;
  }

  private kerning(left: number, right: number): number {
    const key = left * 65536 + right;
    let k = this.kern.get(key);
    if (k === undefined) {
      // The font's pair table first: Liberation 2's GPOS keeps its kerning under "latn", which
      // the default-script lookup misses (" T", " A", … were unkerned, 1–2 px wide per line).
      const pairs = (this.font as unknown as { kerningPairs?: Record<string, number> }).kerningPairs;
      k = pairs?.[`${left},${right}`];
      if (k === undefined) {
        try {
          k = this.kerningTables ? this.font.position.getKerningValue(this.kerningTables, left, right) : this.font.getKerningValue(left, right);
        } catch {
          k = 0;
        }
      }
      this.kern.set(key, k ?? 0);
    }
    return k ?? 0;
  }

  private readonly inkBottom = new Map<string, number>();

  /** The lowest point any glyph of `text` reaches, in em (negative below the baseline). */
  lowestInk(text: string): number {
    let low = 0;
    for (const ch of text) {
      let y = this.inkBottom.get(ch);
      if (y === undefined) {
        const i = this.index(ch);
        y = i ? ((this.font.glyphs.get(i) as unknown as { yMin?: number }).yMin ?? 0) / this.unitsPerEm : 0;
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

function load(file: string): Metrics {
  const buf = readFileSync(file);
  return new Metrics(opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer));
}

export function loadFonts(): void {
  loaded ??= { regular: load(FONT_FILES.regular), bold: load(FONT_FILES.bold) };
}

function metrics(bold: boolean, serif = false): Metrics {
  loadFonts();
  if (serif) return bold ? (loaded!.serifBold ??= load(FONT_FILES.serifBold)) : (loaded!.serif ??= load(FONT_FILES.serif));
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
