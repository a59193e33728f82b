/// <reference path="../functions/src/platform/mermaid/opentype.d.ts" />
// Generates functions/assets/fonts/cjk-widths.json: advance widths of CJK characters in the fonts
// Chromium falls back to on Debian when Liberation Sans has no glyph (fontconfig's choice for
// sans-serif: IPAGothic for kana, kanji and full-width forms; Droid Sans Fallback for Hangul and
// what IPAGothic lacks). A run-length table of [first, last, width in 1/1000 em], a few KB instead
// of 16 MB of fonts. Run: npx tsx scripts/gen-cjk-widths.ts (needs fonts-ipafont-gothic and
// fonts-droid-fallback installed).
import { readFileSync, writeFileSync } from "node:fs";
import opentype from "opentype.js";

const FONTS = ["/usr/share/fonts/opentype/ipafont-gothic/ipag.ttf", "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"];
const RANGES: [number, number][] = [
  [0x1100, 0x11ff], [0x2e80, 0x2fdf], [0x3000, 0x33ff], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xa960, 0xa97f],
  [0xac00, 0xd7af], [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xffef],
];

const fonts = FONTS.map((f) => {
  const buf = readFileSync(f);
  return opentype.parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
});

const runs: [number, number, number][] = [];
for (const [from, to] of RANGES) {
  for (let cp = from; cp <= to; cp++) {
    let width: number | undefined;
    for (const font of fonts) {
      const index = font.charToGlyphIndex(String.fromCodePoint(cp));
      if (index) {
        width = Math.round(((font.glyphs.get(index).advanceWidth ?? 0) / font.unitsPerEm) * 1000);
        break;
      }
    }
    if (width === undefined) continue;
    const last = runs[runs.length - 1];
    if (last && last[1] === cp - 1 && last[2] === width) last[1] = cp;
    else runs.push([cp, cp, width]);
  }
}
const out = { source: FONTS.map((f) => f.split("/").pop()), runs };
writeFileSync(new URL("../functions/assets/fonts/cjk-widths.json", import.meta.url), JSON.stringify(out));
console.log(`${runs.length} runs, ${JSON.stringify(out).length} bytes`);
