// What every OCR engine returns and the line helpers they share (ocr.ts picks the engine; the
// engines import only this, so the front and its engines form no import circle).
import { invalidInput } from "../core/errors.js";

/** One recognised word and where it is, in the original image's pixels. */
export interface OcrRegion {
  text: string;
  x: number;
  y: number;
  w: number;
  h: number;
  /** 0..1 */
  confidence: number;
}

export interface OcrResult {
  /** Full text, lines separated by "\n". */
  text: string;
  /** Every word, in reading order. */
  regions: OcrRegion[];
  /** Which words form each line (indexes into `regions`): PII is matched on whole lines. */
  lines: number[][];
  language: OcrLanguage;
  engine: OcrEngineName;
}

export const OCR_LANGUAGES = ["eng", "deu", "jpn"] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];
export type OcrEngineName = "vision" | "tesseract";

export interface OcrEngine {
  readonly name: OcrEngineName;
  recognize(png: Buffer, language: OcrLanguage): Promise<OcrResult>;
}

/** The language code as given, checked; an unknown one is an error listing the supported codes. */
export function ocrLanguage(code: string): OcrLanguage {
  const normalized = code.trim().toLowerCase();
  if ((OCR_LANGUAGES as readonly string[]).includes(normalized)) return normalized as OcrLanguage;
  throw invalidInput(`Unsupported OCR language "${code}": use one of ${OCR_LANGUAGES.join(", ")}`);
}

/** Builds `text` from words grouped in lines (Japanese joins words without spaces). */
export function joinLines(regions: OcrRegion[], lines: number[][], language: OcrLanguage): string {
  const sep = language === "jpn" ? "" : " ";
  return lines.map((line) => line.map((i) => regions[i]!.text).join(sep)).join("\n");
}

/**
 * Splits lines at wide horizontal gaps: tesseract happily joins a sidebar label and a sentence
 * (or two panels) at the same height into one line, and a line is what PII patterns run on.
 */
export function splitAtGaps(regions: OcrRegion[], lines: number[][]): number[][] {
  return lines.flatMap((line) => {
    const parts: number[][] = [];
    let current: number[] = [];
    for (const i of line) {
      const prev = current.length ? regions[current[current.length - 1]!]! : undefined;
      const word = regions[i]!;
      const height = Math.max(prev?.h ?? 0, word.h, 1);
      if (prev && word.x - (prev.x + prev.w) > height * 2.5) {
        parts.push(current);
        current = [];
      }
      current.push(i);
    }
    if (current.length) parts.push(current);
    return parts;
  });
}

/** The text of one line, and where each word starts in it (for mapping matches back to boxes). */
export function lineText(regions: OcrRegion[], line: number[], sep = " "): { text: string; starts: number[] } {
  let text = "";
  const starts: number[] = [];
  for (const [k, i] of line.entries()) {
    if (k > 0) text += sep;
    starts.push(text.length);
    text += regions[i]!.text;
  }
  return { text, starts };
}
