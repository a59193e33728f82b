// Secrets in screen text. The provider formats come from secretlint's recommended preset
// (@secretlint/secretlint-rule-preset-recommend: AWS, GCP, GitHub, Slack, Stripe, OpenAI,
// Anthropic, npm, SendGrid, private keys, database URLs and basic auth in URLs, …), kept up to date
// by its maintainers. It runs once over the whole screen text, so a key block spread over several
// lines is found as one. Beside it, only what that preset leaves out or what OCR bends:
// JWTs, a private key's header line on its own, AWS key ids and Google API keys as OCR reads
// them (I ↔ l), the value of an assignment whose name says it is secret, and generic long
// high-entropy tokens (as secret scanners score them).
import type { Span } from "./spans.js";

type Lint = (text: string) => Promise<Span[]>;
let linter: Promise<Lint> | undefined;

/** secretlint over a text; its preset and core are loaded once per process. */
function secretlint(): Promise<Lint> {
  linter ??= (async () => {
    const [{ lintSource }, { creator }] = await Promise.all([import("@secretlint/core"), import("@secretlint/secretlint-rule-preset-recommend")]);
    const options = { config: { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: creator }] }, noPhysicFilePath: true, maskSecrets: true };
    return async (content: string) => {
      const result = await lintSource({ source: { content, filePath: "screen.txt", ext: ".txt", contentType: "text" }, options });
      return result.messages.map((m) => ({ start: m.range[0], end: m.range[1] }));
    };
  })();
  return linter;
}

/** Every secret secretlint's preset finds in `text` (character spans). */
export async function maintainedSecrets(text: string): Promise<Span[]> {
  return (await secretlint())(text);
}

/** Provider formats the preset leaves out, or misses once OCR has bent a character. */
export const PROVIDER_PATTERNS = [
  /-{3,}\s?BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?\s?-{3,}/g, // the header line, even without the rest of the block on screen
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*)?/g, // JWT (header.payload.signature)
  /\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[0-9A-Z]{16}\b/g, // AWS access key id (the preset skips documentation keys)
  /\bA[Il1]za[0-9A-Za-z_-]{35}\b/g, // Google API key (OCR reads I as l)
  /\bya29\.[0-9A-Za-z_-]{20,}/g, // Google OAuth access token
  /\bsk-(?:proj-|ant-(?:api\d\d-)?|svcacct-)?[A-Za-z0-9_-]{20,}/g, // OpenAI, Anthropic in shorter shapes than the preset's
  /\b[rs]k[_ ](?:live|test)[_ ][A-Za-z0-9]{16,}\b/g, // Stripe with the underscores OCR dropped
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, // GitHub tokens of older lengths
  /\bgithub_pat_[A-Za-z0-9_]{22,}/g, // GitHub fine-grained tokens of other lengths
  /\bxox[abposre]-[A-Za-z0-9-]{10,}/g, // Slack tokens of other lengths
];

/** Provider formats, and the value of an assignment whose name says it is secret. */
export const EXTRA_SECRET_PATTERNS = [
  ...PROVIDER_PATTERNS,
  // The value of an assignment whose name says it is a secret: `api_key = "…"`, `PASSWORD: …`, `DB_TOKEN=…`
  /(?<=\b[\w.-]*(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|pwd|passphrase|credential|private[_-]?key|access[_-]?key|auth)["']?\s*[:=]\s*["']?)[^\s"',;]{6,}/gi,
];

/** Long tokens with high Shannon entropy and mixed character classes: generic secrets (e.g. `KEY=<random>`). */
export function highEntropyTokens(text: string): Span[] {
  const found: Span[] = [];
  for (const m of text.matchAll(/[A-Za-z0-9+/_=-]{20,}/g)) {
    const token = m[0].replace(/=+$/, "");
    const classes = [/[a-z]/, /[A-Z]/, /[0-9]/].filter((re) => re.test(token)).length;
    if (classes < 3 || entropy(token) < 3.7) continue;
    // Identifiers in code (camelCase words, snake_case, paths) are long and mixed too, but made of words.
    if (/^[A-Za-z]+(?:[_/-]?[A-Z]?[a-z]+)+\d*$/.test(token)) continue;
    found.push({ start: m.index, end: m.index + m[0].length });
  }
  return found;
}

export function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) bits -= (n / s.length) * Math.log2(n / s.length);
  return bits;
}
