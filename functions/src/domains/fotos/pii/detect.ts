// PII detection on OCR output. Patterns run on whole lines (words joined with spaces), not on
// single words, because OCR splits "4111 1111 1111 1111" or "+44 7700 900123" into several words;
// secrets are also looked for over the whole screen text (a key block spans lines), and each pair
// of neighbouring lines is tried joined, so an item that wraps (or that OCR cut into two lines) is
// found as one. A match becomes the boxes of every word it touches, on every line it touches.
// Detectors run in priority order; a match consumes its characters for the later ones (a card
// number is not also a phone), except that email and IP addresses are also found inside a secret
// (a database URL's host is an IP address in its own right).
import { isIPv6 } from "node:net";
import { lineText, type OcrResult } from "../../../platform/ocr.js";
import { phoneRegions, phoneSpans } from "./phones.js";
import { EXTRA_SECRET_PATTERNS, highEntropyTokens, maintainedSecrets, PROVIDER_PATTERNS } from "./secrets.js";
import { regexSpans, type Span } from "./spans.js";

import type { Detection, PiiType } from "./types.js";

export { PII_TYPES, type Detection, type PiiType } from "./types.js";

export interface PiiMatch extends Span {
  type: PiiType;
}

export interface DetectOptions {
  /** The person's region (ISO 3166 alpha-2, e.g. "GB"): its national phone forms are read first. */
  region?: string;
}

/** 13–19 digits with any spacing, dots or dashes (OCR spaces them oddly), passing the Luhn check. */
function creditCards(text: string): Span[] {
  const found: Span[] = [];
  for (const run of text.matchAll(/\d(?:[ .-]{0,2}\d){12,}/g)) {
    if (/\+\s?$/.test(text.slice(0, run.index))) continue; // "+<digits>" is a phone in international form, never a card
    // Windows that start and end at group boundaries, longest first, so a run with an extra group
    // around still matches but a window cut inside a group (a random Luhn hit) does not.
    const positions = [...run[0].matchAll(/\d/g)].map((d) => run.index + d.index);
    const startsGroup = (k: number) => k === 0 || positions[k - 1]! + 1 !== positions[k];
    const endsGroup = (k: number) => k === positions.length - 1 || positions[k]! + 1 !== positions[k + 1];
    let i = 0;
    while (i < positions.length) {
      let matched = false;
      for (let len = Math.min(19, positions.length - i); len >= 13 && startsGroup(i); len--) {
        if (!endsGroup(i + len - 1)) continue;
        const digits = positions.slice(i, i + len).map((p) => text[p]).join("");
        if (luhn(digits) && /^[2-6]/.test(digits)) {
          found.push({ start: positions[i]!, end: positions[i + len - 1]! + 1 });
          i += len;
          matched = true;
          break;
        }
      }
      if (!matched) i++;
    }
  }
  return found;
}

export function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** IPv4 wherever it stands: alone, in a URL, after user@, before :port or /prefix. 0.0.0.0 (any address) is not one. */
const IPV4 = /(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\d]|\.\d)/g;

/** IPv6 in full or short forms (::1, fe80::1, 2001:db8::, [::1]:8080), checked by Node's parser. */
function ipAddresses(text: string): Span[] {
  const found = regexSpans(text, [IPV4]).filter((s) => text.slice(s.start, s.end) !== "0.0.0.0");
  for (const m of text.matchAll(/(?<![\w:.])(?:[0-9A-Fa-f]{1,4}|:)(?::[0-9A-Fa-f]{0,4}){1,7}(?:%[\w.]+)?(?![\w:])/g)) {
    const candidate = m[0].replace(/%[\w.]+$/, "");
    if (isIPv6(candidate) && /\d/.test(candidate) && candidate.includes(":")) found.push({ start: m.index, end: m.index + m[0].length });
  }
  return found;
}

/** US SSN as written (AAA-GG-SSSS, spaces), or nine digits after an SSN label; never area 000/666/9xx. */
const SSN = [
  /(?<![\d-])(?!000|666|9\d\d)\d{3}[- ](?!00)\d{2}[- ](?!0000)\d{4}(?![\d-])/g,
  /(?<=\b(?:SSN|social security(?: number| no\.?)?|SS#)\s*[:#]?\s*)(?!000|666|9\d\d)\d{9}\b/gi,
];

/** OCR may put a space around the @ or after a dot ("jane.doe@example. com"). */
const EMAIL = /[A-Za-z0-9._%+-]+ ?@ ?[A-Za-z0-9-]+(?:\. ?[A-Za-z0-9-]+)*\.(?: ?[a-z]{2,}\b|[A-Za-z]{2,})/g;

type Detector = { type: PiiType; find: (text: string) => Span[]; consumes: boolean; insideSecrets?: boolean };

/**
 * The text as digits were meant: OCR reads a slashed or dotted zero as "@", "O" or "o", and a one
 * as "l", "I" or "|", next to digits ("1@.20.30.40", "808@"). Same length, so spans stay valid.
 */
export function digitView(text: string): string {
  return text.replace(/(?<=\d)[@Oo](?=[\d.:,)\]/\s-]|$)|(?<=\d[.:-]?)[lI|](?=[\d.:-])|(?<![A-Za-z])[lI|](?=\d)/g, (c) => (c === "l" || c === "I" || c === "|" ? "1" : "0"));
}
const numeric = (find: (text: string) => Span[]) => (text: string) => find(digitView(text));

/**
 * OCR breaks long tokens at random ("AKIA4HF J2KD7QWX3MZP6", "…Yh5 Jd0Gs"): secret patterns also
 * run on the line with such breaks closed — a space between two pieces of a token (not words or
 * plain numbers), one of them with a digit — and their matches are mapped back to the line.
 */
const fragment = (piece: string) => piece.length >= 3 && /^[A-Za-z0-9]/.test(piece) && /[A-Za-z0-9]$/.test(piece) && !/^(?:[A-Z]?[a-z]+|[A-Z]+|\d+)$/.test(piece);
const joinedPieces = (find: (text: string) => Span[]) => (text: string): Span[] => {
  const keep: number[] = [];
  let closed = "";
  for (let i = 0; i < text.length; i++) {
    if (text[i] === " " && i > 0 && i + 1 < text.length) {
      const left = /[^\s]{3,}$/.exec(text.slice(0, i))?.[0];
      const right = /^[^\s]{3,}/.exec(text.slice(i + 1))?.[0];
      if (left && right && fragment(left) && fragment(right) && /\d/.test(left + right)) continue;
    }
    keep.push(i);
    closed += text[i];
  }
  const direct = find(text);
  if (closed.length === text.length) return direct;
  const mapped = find(closed).map((m) => ({ start: keep[m.start]!, end: keep[m.end - 1]! + 1 }));
  return [...direct, ...mapped.filter((m) => !direct.some((d) => d.start <= m.start && d.end >= m.end))];
};

/**
 * What is tried across a line break: formats that cannot start or end by accident where one line
 * meets the next (a provider's key, an email, a Luhn-valid card). Generic secrets and phones are
 * left out: two ordinary lines glued together look like them too often.
 */
const WRAPPING: Detector[] = [
  { type: "api_key", find: joinedPieces((t) => regexSpans(t, PROVIDER_PATTERNS)), consumes: true },
  { type: "email", find: (t) => regexSpans(t, [EMAIL]), consumes: true },
  { type: "credit_card", find: numeric(creditCards), consumes: true },
];

function detectors(opts: DetectOptions): Detector[] {
  const regions = phoneRegions(opts.region);
  return [
    { type: "api_key", find: joinedPieces((t) => regexSpans(t, EXTRA_SECRET_PATTERNS)), consumes: true, insideSecrets: true },
    { type: "email", find: (t) => regexSpans(t, [EMAIL]), consumes: true, insideSecrets: true },
    { type: "ip_address", find: numeric(ipAddresses), consumes: true, insideSecrets: true },
    { type: "credit_card", find: numeric(creditCards), consumes: true },
    { type: "ssn", find: numeric((t) => regexSpans(t, SSN)), consumes: true },
    { type: "phone", find: numeric((t) => phoneSpans(t, regions)), consumes: true },
    { type: "api_key", find: joinedPieces(highEntropyTokens), consumes: true },
  ];
}

const blank = (text: string, s: Span) => text.slice(0, s.start) + "\u2588".repeat(s.end - s.start) + text.slice(s.end);

/** Every match of the per-line detectors in `text`; `secrets` are spans already known to be secrets. */
function matchLine(text: string, opts: DetectOptions, secrets: Span[] = [], only?: Detector[]): PiiMatch[] {
  const matches: PiiMatch[] = secrets.map((s) => ({ type: "api_key", ...s }));
  let consumed = text;
  let outsideSecrets = text;
  for (const s of secrets) consumed = blank(consumed, s);
  for (const d of only ?? detectors(opts)) {
    const source = d.insideSecrets ? outsideSecrets : consumed;
    for (const s of d.find(source)) {
      if (s.end <= s.start || /\u2588/.test(consumed.slice(s.start, s.end)) && !d.insideSecrets) continue;
      const overlapping = d.insideSecrets ? matches.find((m) => m.type === d.type && m.start < s.end && m.end > s.start) : undefined;
      if (overlapping) {
        // The same item found twice (the preset and a pattern here): one match over both.
        overlapping.start = Math.min(overlapping.start, s.start);
        overlapping.end = Math.max(overlapping.end, s.end);
      } else matches.push({ type: d.type, ...s });
      if (d.consumes) {
        consumed = blank(consumed, s);
        outsideSecrets = blank(outsideSecrets, s);
      }
    }
  }
  return matches.sort((a, b) => a.start - b.start);
}

/** Every PII match in one line of text. */
export async function detectInText(line: string, opts: DetectOptions = {}): Promise<PiiMatch[]> {
  return matchLine(line, opts, await maintainedSecrets(line));
}

/** Every PII item on the screenshot, as boxes in its pixels (per line, the union of the words a match touches). */
export async function detectPii(ocr: OcrResult, opts: DetectOptions = {}): Promise<Detection[]> {
  const texts = ocr.lines.map((line) => lineText(ocr.regions, line));
  // Secrets over the whole text: the preset's multi-line rules (a private key block) see it all.
  const offsets: number[] = [];
  let full = "";
  for (const t of texts) {
    offsets.push(full.length);
    full += t.text + "\n";
  }
  const secretsByLine = texts.map(() => [] as Span[]);
  for (const s of await maintainedSecrets(full)) {
    texts.forEach((t, l) => {
      const start = Math.max(s.start - offsets[l]!, 0);
      const end = Math.min(s.end - offsets[l]!, t.text.length);
      if (end > start) secretsByLine[l]!.push({ start, end });
    });
  }

  // [line, span] pieces to cover.
  const pieces: { line: number; span: Span; type: PiiType }[] = [];
  texts.forEach((t, l) => {
    for (const m of matchLine(t.text, opts, secretsByLine[l])) pieces.push({ line: l, span: m, type: m.type });
  });
  // Lines that wrap into each other (up to four), joined: an item cut by the wrap (or by OCR)
  // is one match across the junctions, covered on every line it touches.
  for (let l = 0; l + 1 < texts.length; l++) {
    const chain = [l];
    while (chain.length < 4 && chain[chain.length - 1]! + 1 < texts.length && wraps(ocr, chain[chain.length - 1]!)) chain.push(chain[chain.length - 1]! + 1);
    if (chain.length < 2) continue;
    const offsets: number[] = [];
    let joined = "";
    for (const j of chain) {
      offsets.push(joined.length);
      joined += texts[j]!.text;
    }
    const firstEnd = texts[l]!.text.length;
    const lastStart = offsets[offsets.length - 1]!;
    for (const m of matchLine(joined, opts, [], WRAPPING)) {
      // Each chain reports the items that start on its first line and end on its last.
      if (!(m.start < firstEnd && m.end > lastStart)) continue;
      // An item complete at the end of a line does not run on into the next line's first word
      // (an email's ".com" glued to "office" on the line below).
      const endLine = chain.length - 1;
      const prefix = joined.slice(0, lastStart);
      const runOn = joined.slice(lastStart, m.end);
      if (/^[A-Za-z]+$/.test(runOn) && /^(?:\s|$)/.test(joined.slice(m.end)) && matchLine(prefix, opts, [], WRAPPING).some((x) => x.type === m.type && x.end === prefix.length)) continue;
      chain.forEach((j, k) => {
        const from = offsets[k]!;
        const to = k === endLine ? joined.length : offsets[k + 1]!;
        const span = { start: Math.max(m.start, from) - from, end: Math.min(m.end, to) - from };
        if (span.end > span.start && !pieces.some((p) => p.line === j && p.span.start <= span.start && p.span.end >= span.end)) pieces.push({ line: j, span, type: m.type });
      });
    }
  }

  const detections: Detection[] = [];
  const seen = new Set<string>();
  for (const { line: l, span, type } of pieces) {
    const line = ocr.lines[l]!;
    const { starts } = texts[l]!;
    const words = line.filter((_, k) => {
      const from = starts[k]!;
      const to = from + ocr.regions[line[k]!]!.text.length;
      return from < span.end && to > span.start;
    });
    if (!words.length) continue;
    // A word the match covers only in part (`DB_PASSWORD=hunter2`, `user@10.0.0.5:5432`) is cut at
    // the match's characters, assuming even character widths, widened by one character each side.
    const boxes = words.map((i) => {
      const r = ocr.regions[i]!;
      const from = starts[line.indexOf(i)]!;
      const chars = Math.max(1, r.text.length);
      const a = Math.max(0, span.start - from - 1);
      const b = Math.min(chars, span.end - from + 1);
      if (a === 0 && b === chars) return r;
      const charW = r.w / chars;
      return { x: r.x + Math.floor(a * charW), y: r.y, w: Math.ceil((b - a) * charW), h: r.h };
    });
    const x = Math.min(...boxes.map((b) => b.x));
    const y = Math.min(...boxes.map((b) => b.y));
    const right = Math.max(...boxes.map((b) => b.x + b.w));
    const bottom = Math.max(...boxes.map((b) => b.y + b.h));
    const d = { type, x, y, w: right - x, h: bottom - y };
    const key = `${type}:${x},${y},${d.w},${d.h}`;
    if (seen.has(key)) continue;
    seen.add(key);
    detections.push(d);
  }
  return detections;
}

/**
 * Whether line `l` may wrap into line `l + 1`: the next one starts right below it, in the same
 * column, and is not longer (a wrapped line runs to the edge; what follows it is at most as long).
 */
function wraps(ocr: OcrResult, l: number): boolean {
  const box = (line: number[]) => {
    const rs = line.map((i) => ocr.regions[i]!);
    const x = Math.min(...rs.map((r) => r.x));
    const y = Math.min(...rs.map((r) => r.y));
    return { x, y, right: Math.max(...rs.map((r) => r.x + r.w)), bottom: Math.max(...rs.map((r) => r.y + r.h)) };
  };
  const A = box(ocr.lines[l]!);
  const B = box(ocr.lines[l + 1]!);
  const h = Math.max(A.bottom - A.y, B.bottom - B.y, 1);
  return B.y >= A.y && B.y - A.bottom < h * 1.5 && Math.abs(B.x - A.x) <= h && A.right >= B.right - h;
}
