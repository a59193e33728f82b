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
};

export interface FontStyle {
  size: number;
  bold: boolean;
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
      try {
        k = this.kerningTables
          ? this.font.position.getKerningValue(this.kerningTables, left, right)
          : this.font.getKerningValue(left, right);
      } catch {
        k = 0;
      }
      this.kern.set(key, k ?? 0);
    }
    return k ?? 0;
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
        // Not in Liberation: the browser falls back to another font (CJK, emoji, ...).
        fallbackEm += isWide(cp) ? 1 : 0.6;
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

let loaded: { regular: Metrics; bold: Metrics } | undefined;

function load(file: string): Metrics {
  const buf = readFileSync(file);
  return new Metrics(opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer));
}

export function loadFonts(): void {
  loaded ??= { regular: load(FONT_FILES.regular), bold: load(FONT_FILES.bold) };
}

function metrics(bold: boolean): Metrics {
  loadFonts();
  return bold ? loaded!.bold : loaded!.regular;
}

const widthCache = new Map<string, number>();

/** Width in px of a single line of text. */
export function textWidth(text: string, style: FontStyle): number {
  const key = (style.bold ? "b" : "r") + text;
  let em = widthCache.get(key);
  if (em === undefined) {
    em = metrics(style.bold).width(text);
    if (widthCache.size > 20_000) widthCache.clear();
    widthCache.set(key, em);
  }
  return em * style.size;
}

export function fontAscent(bold = false): number {
  return metrics(bold).ascent;
}

export function fontDescent(bold = false): number {
  return metrics(bold).descent;
}
