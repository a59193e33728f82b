// PII detection on OCR output. Patterns run on whole lines (words joined with spaces), not on
// single words, because OCR splits "4111 1111 1111 1111" or "+1 415 555 2671" into several
// words; a match is mapped back to the boxes of the words it touches. The most specific
// detectors run first and consume their characters, so a card number is not also a phone.
import { isIPv6 } from "node:net";
import { findPhoneNumbersInText } from "libphonenumber-js/max";
import { lineText, type OcrResult } from "../../../platform/ocr.js";

export const PII_TYPES = ["email", "phone", "ssn", "credit_card", "api_key", "ip_address"] as const;
export type PiiType = (typeof PII_TYPES)[number];

export interface PiiMatch {
  type: PiiType;
  /** Character span in the line's text. */
  start: number;
  end: number;
}

export interface Detection {
  type: PiiType;
  x: number;
  y: number;
  w: number;
  h: number;
}

type Detector = (text: string) => { start: number; end: number }[];

const regexDetector =
  (...patterns: RegExp[]): Detector =>
  (text) =>
    patterns.flatMap((re) => [...text.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length })));

/** Provider formats, as secret scanners (gitleaks, GitHub secret scanning) know them. */
const KEY_PATTERNS = [
  /-----BEGIN (?:[A-Z]+ )*PRIVATE KEY(?: BLOCK)?-----/g,
  /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g, // AWS access key id
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{22,}\b/g,
  /\bgl(?:pat|dt|ptt|rt)-[A-Za-z0-9_-]{20,}\b/g, // GitLab
  /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, // Slack
  /\b[rs]k[_ ](?:live|test)[_ ][A-Za-z0-9]{16,}\b/g, // Stripe (OCR may drop the underscores)
  /\bA[Il1]za[0-9A-Za-z_-]{35}\b/g, // Google API key (OCR reads I as l)
  /\bya29\.[0-9A-Za-z_-]{20,}/g, // Google OAuth access token
  /\bsk-(?:proj-|ant-(?:api\d\d-)?)?[A-Za-z0-9_-]{20,}/g, // OpenAI, Anthropic
  /\beyJ[A-Za-z0-9_-]{8,}\.\S{4,}/g, // JWT (header, then whatever OCR made of the rest)
  /\bnpm_[A-Za-z0-9]{36}\b/g,
  /\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b/g, // SendGrid
  // The value of an assignment whose name says it is a secret: `api_key = "…"`, `password: …`
  /(?<=\b(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|pwd|client[_-]?secret|access[_-]?key)\s*[:=]\s*["']?)[^\s"']{8,}/gi,
];

/** Long tokens with high Shannon entropy and mixed character classes: generic secrets. */
function highEntropySecrets(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9+/_=-]{24,}/g)) {
    const token = m[0];
    const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(token)).length;
    if (classes < 3 || entropy(token) < 3.8) continue;
    found.push({ start: m.index, end: m.index + token.length });
  }
  return found;
}

function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}

/** 13–19 digits with any spacing or dashes (OCR spaces them oddly), passing the Luhn check. */
function creditCards(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (const run of text.matchAll(/\d(?:[ -]{0,2}\d){12,}/g)) {
    // Try windows that start and end at group boundaries, longest first, so a run with an extra
    // group around still matches but a window cut inside a group (a random Luhn hit) does not.
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

function ipv6(text: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  for (const m of text.matchAll(/(?<![\w:])[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}(?![\w:])/g)) {
    if (isIPv6(m[0]) && /[0-9A-Fa-f]/.test(m[0])) found.push({ start: m.index, end: m.index + m[0].length });
  }
  return found;
}

function phones(text: string): { start: number; end: number }[] {
  return findPhoneNumbersInText(text, { defaultCountry: "US" }).map((p) => ({ start: p.startsAt, end: p.endsAt }));
}

/** In priority order: each detector sees the text with earlier matches blanked out. */
const DETECTORS: [PiiType, Detector][] = [
  ["api_key", regexDetector(...KEY_PATTERNS)],
  ["email", regexDetector(/[A-Za-z0-9._%+-]+ ?@ ?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g)],
  ["ip_address", (t) => [...regexDetector(/(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?![\d.]*\d)/g)(t), ...ipv6(t)]],
  ["credit_card", creditCards],
  ["ssn", regexDetector(/(?<!\d)(?!000|666|9\d\d)\d{3}[- ](?!00)\d{2}[- ](?!0000)\d{4}(?!\d)/g)],
  ["phone", phones],
  ["api_key", highEntropySecrets],
];

/** Every PII match in one line of text. */
export function detectInText(line: string): PiiMatch[] {
  let text = line;
  const matches: PiiMatch[] = [];
  for (const [type, detect] of DETECTORS) {
    for (const { start, end } of detect(text)) {
      if (end <= start) continue;
      matches.push({ type, start, end });
      text = text.slice(0, start) + "\u2588".repeat(end - start) + text.slice(end); // consumed
    }
  }
  return matches.sort((a, b) => a.start - b.start);
}

/** Every PII item on the screenshot, as boxes in its pixels (the union of the words a match touches). */
export function detectPii(ocr: OcrResult): Detection[] {
  const detections: Detection[] = [];
  for (const line of ocr.lines) {
    const { text, starts } = lineText(ocr.regions, line);
    for (const match of detectInText(text)) {
      const words = line.filter((_, k) => {
        const from = starts[k]!;
        const to = from + ocr.regions[line[k]!]!.text.length;
        return from < match.end && to > match.start;
      });
      if (!words.length) continue;
      const boxes = words.map((i) => ocr.regions[i]!);
      const x = Math.min(...boxes.map((b) => b.x));
      const y = Math.min(...boxes.map((b) => b.y));
      const right = Math.max(...boxes.map((b) => b.x + b.w));
      const bottom = Math.max(...boxes.map((b) => b.y + b.h));
      detections.push({ type: match.type, x, y, w: right - x, h: bottom - y });
    }
  }
  return detections;
}
