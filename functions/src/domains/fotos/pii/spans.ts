/** A match: a character span in a text. */
export interface Span {
  start: number;
  end: number;
}

export const regexSpans = (text: string, patterns: RegExp[]): Span[] =>
  patterns.flatMap((re) => [...text.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length })));
