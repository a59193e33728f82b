// Splits prose into chunks of sensible size for embedding: about TARGET characters, never more
// than MAX, cut at paragraph or sentence boundaries, each chunk starting with the last sentences
// (up to OVERLAP characters) of the previous one so that an idea cut in two is found from both.
export const CHUNK_TARGET = 1000;
export const CHUNK_MAX = 1500;
export const CHUNK_OVERLAP = 200;

interface Unit {
  text: string;
  paragraphStart: boolean;
}

export function chunkText(text: string, target = CHUNK_TARGET, max = CHUNK_MAX, overlap = CHUNK_OVERLAP): string[] {
  const units = toUnits(text, max);
  if (!units.length) return [];
  const chunks: string[] = [];
  let start = 0;
  while (start < units.length) {
    let end = start;
    let size = units[start]!.text.length;
    while (end + 1 < units.length && size + 1 + units[end + 1]!.text.length <= target) {
      end++;
      size += 1 + units[end]!.text.length;
    }
    chunks.push(join(units.slice(start, end + 1)));
    if (end + 1 >= units.length) break;
    // Overlap: the trailing units of this chunk that fit in `overlap`, but always move forward.
    let next = end + 1;
    let carried = 0;
    while (next - 1 > start && carried + units[next - 1]!.text.length <= overlap) {
      next--;
      carried += units[next]!.text.length + 1;
    }
    start = next;
  }
  return chunks;
}

function join(units: Unit[]): string {
  return units
    .map((u, i) => (i === 0 ? u.text : (u.paragraphStart ? "\n\n" : " ") + u.text))
    .join("")
    .trim();
}

function toUnits(text: string, max: number): Unit[] {
  const units: Unit[] = [];
  const paragraphs = text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  for (const paragraph of paragraphs) {
    const pieces = paragraph.length <= max / 3 ? [paragraph] : splitSentences(paragraph);
    pieces.forEach((piece, i) => {
      for (const part of hardSplit(piece, max)) units.push({ text: part, paragraphStart: i === 0 });
    });
  }
  return units;
}

function splitSentences(paragraph: string): string[] {
  return paragraph
    .split(/(?<=[.!?…]["')\]]?)\s+(?=\S)|\n(?=[-*#>\d])/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** A "sentence" longer than max (a table, a list without stops) is cut at spaces. */
function hardSplit(text: string, max: number): string[] {
  if (text.length <= max) return [text];
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    let cut = rest.lastIndexOf(" ", max);
    if (cut < max / 2) cut = max;
    out.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) out.push(rest);
  return out;
}
