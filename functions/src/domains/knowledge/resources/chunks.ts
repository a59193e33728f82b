// Resources: one chunk, and the chunks of one source / author / tag, as Markdown. Listing pages
// through the caller's chunks and values; completion offers the caller's own values.
import type { ReadResourceResult } from "@modelcontextprotocol/server";
import { resourceTemplate, type RequestContext, type ResourceListPage } from "../../../mcp/define.js";
import { invalidInput } from "../../../mcp/errors.js";
import { MAX_RESULT_TEXT, truncateText } from "../../../mcp/content.js";
import { storeFor } from "../context.js";
import { chunkListMarkdown, chunkMarkdown, chunkUri } from "../format.js";
import type { Filters } from "../store.js";

const PAGE = 100;
const LIST_CHUNKS = 50;
const MARKDOWN = "text/markdown";

const markdown = (uri: URL, text: string): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: MARKDOWN, text: truncateText(text, MAX_RESULT_TEXT).text }],
});

function decodeCursor(cursor: string | undefined): string | undefined {
  if (!cursor) return undefined;
  try {
    return Buffer.from(cursor, "base64url").toString("utf8");
  } catch {
    throw invalidInput("Invalid cursor: pass the nextCursor of the previous page unchanged");
  }
}
const encodeCursor = (value: string) => Buffer.from(value, "utf8").toString("base64url");

export const chunkResource = resourceTemplate(
  {
    name: "chunk",
    uriTemplate: "kxhub://chunk/{chunk_id}",
    title: "Knowledge chunk",
    description: "One chunk of your knowledge base with its metadata and full content, as Markdown.",
    mimeType: MARKDOWN,
    async list(ctx, cursor): Promise<ResourceListPage> {
      const { chunks, next } = await storeFor(ctx).listChunks(decodeCursor(cursor), PAGE);
      return {
        resources: chunks.map((c) => ({
          uri: chunkUri(c.chunk_id),
          name: c.chunk_id,
          title: `${c.title || "Untitled"} (${c.chunk_index + 1}/${c.total_chunks})`,
          description: [c.author, c.source, c.tags.join(", ")].filter(Boolean).join(" · "),
          mimeType: MARKDOWN,
        })),
        ...(next ? { nextCursor: encodeCursor(next) } : {}),
      };
    },
    complete: { chunk_id: (prefix, ctx) => storeFor(ctx).chunkIdsStartingWith(prefix) },
  },
  async (uri, { chunk_id }, ctx) => markdown(uri, chunkMarkdown((await storeFor(ctx).getChunk(chunk_id ?? "")).chunk)),
);

type Field = "source" | "author" | "tag";
const plural = { source: "sources", author: "authors", tag: "tags" } as const;

function groupResource(field: Field, title: string, description: string) {
  const listValues = async (ctx: RequestContext, cursor: string | undefined): Promise<ResourceListPage> => {
    const values = await storeFor(ctx).valuesStartingWith(plural[field], "", Number.MAX_SAFE_INTEGER);
    values.sort((a, b) => a.localeCompare(b));
    const offset = Number(decodeCursor(cursor) ?? 0) || 0;
    const page = values.slice(offset, offset + PAGE);
    return {
      resources: page.map((v) => ({
        uri: `kxhub://chunks/by-${field}/${encodeURIComponent(v)}`,
        name: `${field}: ${v}`,
        title: `Chunks with ${field} "${v}"`,
        mimeType: MARKDOWN,
      })),
      ...(offset + PAGE < values.length ? { nextCursor: encodeCursor(String(offset + PAGE)) } : {}),
    };
  };
  return resourceTemplate(
    {
      name: `chunks-by-${field}`,
      uriTemplate: `kxhub://chunks/by-${field}/{${field}}`,
      title,
      description,
      mimeType: MARKDOWN,
      list: listValues,
      complete: { [field]: (prefix: string, ctx: RequestContext) => storeFor(ctx).valuesStartingWith(plural[field], prefix) },
    },
    async (uri, variables, ctx) => {
      const value = (variables[field] ?? "").trim();
      if (!value) throw invalidInput(`The URI needs a ${field}`);
      const filters: Filters = field === "tag" ? { tags: [value.toLowerCase()] } : { [field]: value };
      const chunks = await storeFor(ctx).byMetadata(filters, LIST_CHUNKS + 1);
      const hint = `call search_by_metadata with ${field === "tag" ? "tags" : field} and a limit, or search_semantic with this filter, to see others.`;
      return markdown(uri, chunkListMarkdown(`Chunks with ${field} "${value}"`, chunks.slice(0, LIST_CHUNKS), chunks.length > LIST_CHUNKS, hint));
    },
  );
}

export const bySourceResource = groupResource("source", "Chunks by source", "All chunks from one source (e.g. kindle, readwise, markdown), newest first, as Markdown.");
export const byAuthorResource = groupResource("author", "Chunks by author", "All chunks by one author (URL-encoded, e.g. James%20Clear), newest first, as Markdown.");
export const byTagResource = groupResource("tag", "Chunks by tag", "All chunks with one tag, newest first, as Markdown.");
