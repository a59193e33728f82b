// A device's name is chosen by whoever starts pairing, so it is untrusted text that later reaches
// pages and an AI model's context. Only letters, digits, spaces and a few punctuation marks are
// kept, at most NAME_MAX characters: no markup, no quotes to break out of, no control characters.
export const NAME_MAX = 40;
/** Everything a device name may not contain. */
const UNSAFE = /[^\p{L}\p{N} ._()'’-]/gu;

export function safeDeviceName(raw: string | undefined, fallback: string): string {
  const kept = (raw ?? "")
    .normalize("NFKC")
    .replace(UNSAFE, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, NAME_MAX)
    .trim();
  return /[\p{L}\p{N}]/u.test(kept) ? kept : fallback;
}

/**
 * A device name as data in tool text: JSON-quoted (nothing can close the quotes) and held to the
 * same set, also for names stored before pairing enforced it.
 */
export const quoted = (name: string): string => JSON.stringify(name.replace(UNSAFE, "").slice(0, NAME_MAX));
