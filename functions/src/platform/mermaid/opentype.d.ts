// Minimal typing for the parts of opentype.js 2 this domain uses (the package ships no types).
declare module "opentype.js" {
  export interface Glyph {
    index: number;
    advanceWidth?: number;
  }
  export interface Font {
    unitsPerEm: number;
    ascender: number;
    descender: number;
    tables: { hhea?: { ascender: number; descender: number; lineGap: number }; os2?: { sTypoAscender: number } };
    charToGlyphIndex(char: string): number;
    glyphs: { get(index: number): Glyph };
    position: {
      getKerningTables(script?: string, language?: string): unknown;
      getDefaultScriptName(): string;
      getKerningValue(tables: unknown, left: number, right: number): number;
    };
    getKerningValue(left: number, right: number): number;
  }
  export function parse(buffer: ArrayBuffer): Font;
  const opentype: { parse: typeof parse };
  export default opentype;
}
