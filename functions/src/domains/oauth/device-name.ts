// A device's name is chosen by whoever starts pairing, so it is untrusted text that later reaches
// pages and an AI model's context. Only letters, digits, spaces and a few punctuation marks are
// kept, at most NAME_MAX characters: no markup, no quotes to break out of, no control characters.
export const NAME_MAX = 40;

export function safeDeviceName(raw: string | undefined, fallback: string): string {
  const kept = (raw ?? "")
    .normalize("NFKC")
    .replace(/[^\p{L}\p{N} ._()'’-]/gu, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, NAME_MAX)
    .trim();
  return /[\p{L}\p{N}]/u.test(kept) ? kept : fallback;
}
