/// <reference path="../functions/src/platform/mermaid/opentype.d.ts" />
// Generates functions/assets/fonts/metrics-*.json from the TTFs next to them: what text measurement
// needs (character → glyph, advance widths, kerning pairs, ascent/descent, how far glyphs reach
// below the baseline), so a render worker starts without parsing four fonts with opentype.js
// (~300 ms of every cold start). Run after changing a font: npx tsx scripts/gen-font-metrics.ts
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import opentype from "opentype.js";

const DIR = join(import.meta.dirname, "../functions/assets/fonts");
const FACES = { sans: "LiberationSans-Regular", sansBold: "LiberationSans-Bold", serif: "LiberationSerif-Regular", serifBold: "LiberationSerif-Bold" };

for (const [face, file] of Object.entries(FACES)) {
  const buf = readFileSync(join(DIR, `${file}.ttf`));
  const font = opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
  const map = (font.tables as unknown as { cmap: { glyphIndexMap: Record<string, number> } }).cmap.glyphIndexMap;
  const cmap: number[] = [];
  const used = new Set<number>();
  for (const [cp, index] of Object.entries(map)) {
    if (!index) continue;
    cmap.push(Number(cp), index);
    used.add(index);
  }
  const advances: Record<number, number> = {};
  const yMin: Record<number, number> = {};
  for (const index of used) {
    const glyph = font.glyphs.get(index) as unknown as { advanceWidth?: number; yMin?: number };
    advances[index] = glyph.advanceWidth ?? 0;
    if ((glyph.yMin ?? 0) < 0) yMin[index] = glyph.yMin!;
  }
  const kerning: number[] = [];
  for (const [pair, value] of Object.entries((font as unknown as { kerningPairs: Record<string, number> }).kerningPairs ?? {})) {
    const [l, r] = pair.split(",").map(Number);
    if (value && used.has(l!) && used.has(r!)) kerning.push(l!, r!, value);
  }
  const hhea = font.tables.hhea as { ascender: number; descender: number };
  const out = { source: `${file}.ttf`, unitsPerEm: font.unitsPerEm, ascender: hhea.ascender, descender: hhea.descender, cmap, advances, yMin, kerning };
  writeFileSync(join(DIR, `metrics-${face}.json`), JSON.stringify(out));
  console.log(face, `${used.size} glyphs, ${kerning.length / 3} kerning pairs, ${JSON.stringify(out).length} bytes`);
}
