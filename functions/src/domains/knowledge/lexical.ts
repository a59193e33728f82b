// Word analysis for lexical search, the same at import (index terms stored on each chunk) and at
// query time: Unicode words, lower case, English or German stop words dropped, Snowball stems
// (@orama/stemmers), diacritics folded (so "Straße"/"strasse", "café"/"cafe" and "Häuser"/"Haus"
// meet). A chunk is stemmed in its own language (the one whose stop words it uses more); a query
// is too short to tell, so each query word looks for both its English and its German stem.
import { stemmer as stemEnglish } from "@orama/stemmers/english";
import { stemmer as stemGerman } from "@orama/stemmers/german";
import { stopwords as englishStopwords } from "@orama/stopwords/english";
import { stopwords as germanStopwords } from "@orama/stopwords/german";

/**
 * Version of the analysis below. Stored in each document manifest: an import that finds an older
 * version re-indexes that document's chunks (terms only, no re-embedding).
 */
export const LEXICAL_VERSION = 1;

/** Field weights: a word in the title or author name counts as this many occurrences in the text. */
export const FIELD_WEIGHTS = { title: 3, author: 3, tags: 2, content: 1 } as const;
/** Distinct terms stored per chunk (a 1,500-character chunk has ~200 words); the most weighted are kept. */
export const MAX_TERMS_PER_CHUNK = 400;
/** Query words searched (each one Firestore query); the rest of a long question is left to the semantic side. */
export const MAX_QUERY_WORDS = 8;

const ENGLISH_STOP = new Set(englishStopwords);
const GERMAN_STOP = new Set(germanStopwords);
const WORD = /[\p{L}\p{N}]+/gu;
const LIGATURES: Record<string, string> = { ß: "ss", æ: "ae", œ: "oe", ø: "o", ł: "l", đ: "d", ð: "d", þ: "th", ı: "i" };

/** Lower case without diacritics: "Crème Brûlée" → "creme brulee", "Straße" → "strasse". */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/[ßæœøłđðþı]/g, (c) => LIGATURES[c] ?? c);
}

/** The words of a text in order, lower case, diacritics kept (the German stemmer reads umlauts). */
export function words(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 1 || /\d/.test(w));
}

export type Language = "en" | "de";

/** The language whose stop words the text uses more (English on a tie). */
export function detectLanguage(ws: string[]): Language {
  let en = 0;
  let de = 0;
  for (const w of ws) {
    if (ENGLISH_STOP.has(w)) en++;
    if (GERMAN_STOP.has(w)) de++;
  }
  return de > en ? "de" : "en";
}

const isStop = (w: string, lang: Language) => (lang === "de" ? GERMAN_STOP : ENGLISH_STOP).has(w);

/** The index term of a word in a language; undefined for a stop word. */
export function term(word: string, lang: Language): string | undefined {
  if (isStop(word, lang)) return undefined;
  // Digits and codes ("6749", "e404") are kept whole: a stemmer would cut "errors1" as a word.
  if (/\d/.test(word)) return fold(word);
  return fold(lang === "de" ? stemGerman(word) : stemEnglish(fold(word)));
}

export interface ChunkTerms {
  /** Distinct terms, for `array-contains` queries. */
  terms: string[];
  /** Weighted occurrences per term (content + weighted title, author and tag words), for ranking. */
  term_weights: Record<string, number>;
  /** Words in the content (length normalisation). */
  term_count: number;
}

/** The lexical index entries of one chunk. */
export function chunkTerms(chunk: { title: string; author: string; tags: string[]; content: string }): ChunkTerms {
  const content = words(chunk.content);
  const lang = detectLanguage(content);
  const weights = new Map<string, number>();
  const add = (text: string, weight: number, seenOnce: boolean) => {
    const seen = new Set<string>();
    for (const w of words(text)) {
      const t = term(w, lang);
      if (!t || (seenOnce && seen.has(t))) continue;
      seen.add(t);
      weights.set(t, (weights.get(t) ?? 0) + weight);
    }
  };
  for (const w of content) {
    const t = term(w, lang);
    if (t) weights.set(t, (weights.get(t) ?? 0) + FIELD_WEIGHTS.content);
  }
  // A field word counts once per field, however often the field repeats it.
  add(chunk.title, FIELD_WEIGHTS.title, true);
  add(chunk.author, FIELD_WEIGHTS.author, true);
  add(chunk.tags.join(" "), FIELD_WEIGHTS.tags, true);
  const kept = [...weights.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, MAX_TERMS_PER_CHUNK);
  // Map keys may not have the reserved `__x__` form (statKey's rule); a word never does: only letters and digits.
  return { terms: kept.map(([t]) => t).sort(), term_weights: Object.fromEntries(kept), term_count: content.length };
}

/** One word of a query: what it looks for (its English and German stems, deduplicated). */
export interface QueryWord {
  /** As written in the query (lower case). */
  text: string;
  variants: string[];
}

/** A quoted phrase: its words must appear in this order. */
export interface QueryPhrase {
  text: string;
  /** Folded words, matched against the folded words of a chunk. */
  tokens: string[];
}

export interface ParsedQuery {
  words: QueryWord[];
  phrases: QueryPhrase[];
  /** Words beyond MAX_QUERY_WORDS, not searched lexically. */
  dropped: string[];
}

/** Query words (stop words dropped, both stems) and "quoted phrases". */
export function parseQuery(query: string): ParsedQuery {
  const phrases: QueryPhrase[] = [];
  for (const m of query.matchAll(/["“„«]([^"“”„«»]+)["”“»]/g)) {
    const tokens = words(m[1]!).map(fold);
    if (tokens.length) phrases.push({ text: m[1]!.trim(), tokens });
  }
  const byVariants = new Map<string, QueryWord>();
  for (const w of words(query)) {
    // A stop word of either language is dropped: a query does not say which it is in ("what" is no
    // German stop word, but it is one here). Inside "quoted phrases" every word still counts.
    if (isStop(w, "en") || isStop(w, "de")) continue;
    const variants = [...new Set([term(w, "en"), term(w, "de")].filter((t): t is string => !!t))].sort();
    if (!variants.length) continue;
    const key = variants.join(" ");
    if (!byVariants.has(key)) byVariants.set(key, { text: w, variants });
  }
  const all = [...byVariants.values()];
  return { words: all.slice(0, MAX_QUERY_WORDS), phrases, dropped: all.slice(MAX_QUERY_WORDS).map((w) => w.text) };
}

/**
 * Where in `text` the query's words and phrases occur, as [start, end) ranges in order: a word by
 * its stems, so "habits" finds "Habit" and "Häuser" finds "Haus", as the search itself matched it.
 */
export function matchRanges(text: string, query: string): Array<[number, number]> {
  const { words: qs, phrases } = parseQuery(query);
  const wanted = new Set(qs.flatMap((w) => w.variants));
  const ranges: Array<[number, number]> = [];
  if (wanted.size) {
    for (const m of text.matchAll(WORD)) {
      const w = m[0].toLowerCase();
      if ([term(w, "en"), term(w, "de")].some((t) => t && wanted.has(t))) ranges.push([m.index!, m.index! + m[0].length]);
    }
  }
  for (const p of phrases) {
    const pattern = new RegExp(p.text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+"), "giu");
    for (const m of text.matchAll(pattern)) ranges.push([m.index!, m.index! + m[0].length]);
  }
  ranges.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([...r]);
  }
  return merged;
}

/** Whether the folded words of `text` contain the phrase's words in order. */
export function containsPhrase(text: string, phrase: QueryPhrase): boolean {
  const hay = ` ${words(text).map(fold).join(" ")} `;
  return hay.includes(` ${phrase.tokens.join(" ")} `);
}
