// How chunks are shown: Markdown for resources, bounded fields for tool results.
import { z } from "zod";
import { TRUNCATION_MARKER } from "../../mcp/content.js";
import type { Chunk } from "./store.js";

export const SNIPPET_CHARS = 200;
/** Largest full_content of one result; the total of a result is bounded by RESULT_BUDGET. */
export const MAX_FULL_CONTENT = 4_000;
export const RESULT_BUDGET = 80_000;

export function snippet(text: string, max = SNIPPET_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(" ", max);
  return flat.slice(0, cut > max / 2 ? cut : max) + "…";
}

export const chunkUri = (id: string) => `kxhub://chunk/${encodeURIComponent(id)}`;

/** The text cut to `max` characters, ending with a marker that names the resource holding the rest. */
export function trimmed(text: string, max: number, chunkId: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max))}… ${TRUNCATION_MARKER} (${text.length - max} more characters: read ${chunkUri(chunkId)} for the rest)`;
}

/** Full contents trimmed so that all of them together stay within the budget. */
export function fitContents(chunks: { chunk_id: string; content: string }[], budget = RESULT_BUDGET): string[] {
  let left = budget;
  return chunks.map(({ chunk_id, content: c }, i) => {
    const fair = Math.max(300, Math.floor(left / (chunks.length - i)));
    const out = trimmed(c, Math.min(MAX_FULL_CONTENT, fair), chunk_id);
    left -= Math.min(c.length, out.length);
    return out;
  });
}

/** The fields every tool that returns chunks gives for each (rank, id, title, author, source, snippet, full content); each tool extends it. */
export const resultItem = z.object({
  rank: z.number().int(),
  chunk_id: z.string(),
  title: z.string(),
  author: z.string(),
  source: z.string(),
  snippet: z.string(),
  full_content: z.string(),
});

/** Ranked chunks as those fields, their full contents fitted to the result budget together. */
export function resultItems(chunks: Chunk[]): z.infer<typeof resultItem>[] {
  const contents = fitContents(chunks);
  return chunks.map((c, i) => ({
    rank: i + 1,
    chunk_id: c.chunk_id,
    title: c.title,
    author: c.author,
    source: c.source,
    snippet: snippet(c.content),
    full_content: contents[i]!,
  }));
}

export function chunkMarkdown(c: Chunk): string {
  const meta = [
    c.author && `**Author:** ${c.author}`,
    c.source && `**Source:** ${c.source}`,
    c.category && `**Category:** ${c.category}`,
    c.tags.length ? `**Tags:** ${c.tags.join(", ")}` : "",
    `**Chunk:** ${c.chunk_index + 1} of ${c.total_chunks} (document \`${c.parent_doc_id}\`)`,
    c.created_at && `**Created:** ${c.created_at.slice(0, 10)}`,
    `**Chunk ID:** \`${c.chunk_id}\``,
  ].filter(Boolean);
  return `# ${c.title || "Untitled"}\n\n${meta.join("  \n")}\n\n---\n\n${c.content}\n`;
}

export function chunkListMarkdown(heading: string, chunks: Chunk[], more: boolean, hint: string): string {
  if (!chunks.length) return `# ${heading}\n\nNo chunks.\n`;
  const parts = chunks.map((c) => {
    const by = [c.author, c.source].filter(Boolean).join(" · ");
    return `## ${c.title || "Untitled"}${by ? ` — ${by}` : ""}\n\n*Chunk \`${c.chunk_id}\` (${c.chunk_index + 1}/${c.total_chunks})${
      c.tags.length ? ` · tags: ${c.tags.join(", ")}` : ""
    }*\n\n${trimmed(c.content, MAX_FULL_CONTENT, c.chunk_id)}\n`;
  });
  const tail = more ? `\n${TRUNCATION_MARKER} Showing ${chunks.length} chunks; ${hint}\n` : "";
  return `# ${heading}\n\n${chunks.length} chunk${chunks.length === 1 ? "" : "s"}${more ? " (more exist)" : ""}.\n\n${parts.join("\n---\n\n")}${tail}`;
}
