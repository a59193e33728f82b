// Resources: one chunk, and the chunks of one source / author / tag, as Markdown. Listing pages
// through the caller's newest chunks (at most LIST_NEWEST: a knowledge base of 100,000 chunks is
// not a list anyone reads), then the by-source/by-author/by-tag URIs of all the caller's values
// (each reads LIST_CHUNKS chunks a page, the next page's URI at the end); completion offers the caller's own values.
import type { ReadResourceResult } from "@modelcontextprotocol/server";
import { Timestamp } from "firebase-admin/firestore";
import { type SignedInContext, type ResourceListPage } from "../../../mcp/define.js";
import { resourceTemplate } from "../../../mcp/signed-in.js";
import { decodeCursor, encodeCursor } from "../../../mcp/cursor.js";
import { invalidInput } from "../../../core/errors.js";
import { MAX_RESULT_TEXT, truncateText } from "../../../mcp/content.js";
import { TIMESTAMP_MAX_SECONDS, TIMESTAMP_MIN_SECONDS } from "../../../platform/firebase.js";
import { normalizeTags } from "../ingest/parse.js";
import { chunkListMarkdown, chunkMarkdown, chunkUri } from "../format.js";
import { storeFor } from "../backend.js";
import type { Filters, ListPosition } from "../store.js";

const PAGE = 100;
/** Chunks per page of a by-source/author/tag resource (its description says so). */
export const LIST_CHUNKS = 50;
/** The listing shows at most the 1,000 most recent chunks. */
export const LIST_NEWEST = 1_000;
const MARKDOWN = "text/markdown";

const markdown = (uri: URL, text: string): ReadResourceResult => ({
  contents: [{ uri: uri.href, mimeType: MARKDOWN, text: truncateText(text, MAX_RESULT_TEXT).text }],
});

// Cursors (mcp/cursor.ts) are not signed, so what comes back is checked here: anything we did not
// issue is refused before it reaches Firestore, where e.g. a "/" in a document id would fail with
// SDK internals.
interface ChunkCursor {
  /** Chunks listed so far (the listing stops at LIST_NEWEST). */
  n: number;
  s: number;
  ns: number;
  id: string;
}

const int = (v: unknown, min: number, max: number): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

function chunkCursor(cursor: string | undefined): { listed: number; after?: ListPosition } {
  if (!cursor) return { listed: 0 };
  const c = decodeCursor(cursor, (c): ChunkCursor | undefined =>
    int(c.n, 1, LIST_NEWEST - 1) &&
    int(c.s, TIMESTAMP_MIN_SECONDS, TIMESTAMP_MAX_SECONDS) &&
    int(c.ns, 0, 999_999_999) &&
    typeof c.id === "string" &&
    /^[A-Za-z0-9_-]{1,200}$/.test(c.id)
      ? { n: c.n, s: c.s, ns: c.ns, id: c.id }
      : undefined,
  );
  return { listed: c.n, after: { createdAt: new Timestamp(c.s, c.ns), id: c.id } };
}

/** A by-source/author/tag page's cursor: the position of the previous page's last chunk. */
function pageCursor(cursor: string | undefined): ListPosition | undefined {
  if (!cursor) return undefined;
  return chunkCursor(cursor).after;
}

/** The by-source/author/tag listing's cursor: an offset into the caller's sorted values. */
function offsetCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  return decodeCursor(cursor, (c) => (int(c.o, 1, Number.MAX_SAFE_INTEGER) ? c.o : undefined));
}

export const chunkResource = resourceTemplate(
  {
    name: "chunk",
    uriTemplate: "kxhub://chunk/{chunk_id}",
    title: "Knowledge chunk",
    description: "One chunk of your knowledge base with its metadata and full content, as Markdown.",
    mimeType: MARKDOWN,
    async list(ctx, cursor): Promise<ResourceListPage> {
      const { listed, after } = chunkCursor(cursor);
      const size = Math.min(PAGE, LIST_NEWEST - listed);
      const { chunks, last } = await storeFor(ctx).newestChunks(after, size);
      const total = listed + chunks.length;
      const more = chunks.length === size && total < LIST_NEWEST && last;
      return {
        resources: chunks.map((c) => ({
          uri: chunkUri(c.chunk_id),
          name: c.chunk_id,
          title: `${c.title || "Untitled"} (${c.chunk_index + 1}/${c.total_chunks})`,
          description: [c.author, c.source, c.tags.join(", ")].filter(Boolean).join(" · "),
          mimeType: MARKDOWN,
        })),
        ...(more ? { nextCursor: encodeCursor({ n: total, s: last.createdAt.seconds, ns: last.createdAt.nanoseconds, id: last.id } satisfies ChunkCursor) } : {}),
      };
    },
    complete: { chunk_id: (prefix, ctx) => storeFor(ctx).chunkIdsStartingWith(prefix) },
  },
  async (uri, { chunk_id }, ctx) => markdown(uri, chunkMarkdown((await storeFor(ctx).getChunk(chunk_id ?? "")).chunk)),
);

type Field = "source" | "author" | "tag";
const plural = { source: "sources", author: "authors", tag: "tags" } as const;

function groupResource(field: Field, title: string, description: string) {
  const listValues = async (ctx: SignedInContext, cursor: string | undefined): Promise<ResourceListPage> => {
    const values = await storeFor(ctx).valuesStartingWith(plural[field], "", Number.MAX_SAFE_INTEGER);
    values.sort((a, b) => a.localeCompare(b));
    const offset = offsetCursor(cursor);
    const page = values.slice(offset, offset + PAGE);
    return {
      resources: page.map((v) => ({
        uri: `kxhub://chunks/by-${field}/${encodeURIComponent(v)}`,
        name: `${field}: ${v}`,
        title: `Chunks with ${field} "${v}"`,
        mimeType: MARKDOWN,
      })),
      ...(offset + PAGE < values.length ? { nextCursor: encodeCursor({ o: offset + PAGE }) } : {}),
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
      complete: { [field]: (prefix: string, ctx: SignedInContext) => storeFor(ctx).valuesStartingWith(plural[field], prefix) },
    },
    async (uri, variables, ctx) => {
      // A page after the first is the same URI with ?cursor=… (given in the page's last line).
      const cursor = uri.search ? new URLSearchParams(uri.search).get("cursor") ?? undefined : undefined;
      const raw = variables[field] ?? "";
      const value = (uri.search && raw.includes("?") ? raw.slice(0, raw.lastIndexOf("?")) : raw).trim();
      if (!value) throw invalidInput(`The URI needs a ${field}`);
      const filters: Filters = field === "tag" ? { tags: normalizeTags([value]) } : { [field]: value };
      const after = pageCursor(cursor);
      const page = await storeFor(ctx).byMetadataPage(filters, LIST_CHUNKS, after);
      const base = `kxhub://chunks/by-${field}/${encodeURIComponent(value)}`;
      const next =
        page.more && page.last
          ? `${base}?cursor=${encodeURIComponent(encodeCursor({ n: 1, s: page.last.createdAt.seconds, ns: page.last.createdAt.nanoseconds, id: page.last.id } satisfies ChunkCursor))}`
          : undefined;
      const hint = `read ${next} for the next ${LIST_CHUNKS}.`;
      return markdown(uri, chunkListMarkdown(`Chunks with ${field} "${value}"`, page.chunks, page.more, hint));
    },
  );
}

// A resource read has no cursor in MCP: each page says its limit and names the URI of the next
// page (the same URI with ?cursor=…), so every chunk can be reached.
export const bySourceResource = groupResource(
  "source",
  "Chunks by source",
  `Chunks, newest first, ${LIST_CHUNKS} a page, from one source (e.g. kindle, readwise, markdown), as Markdown; a page that has more ends with the URI of the next page (?cursor=…).`,
);
export const byAuthorResource = groupResource(
  "author",
  "Chunks by author",
  `Chunks, newest first, ${LIST_CHUNKS} a page, by one author (URL-encoded, e.g. James%20Clear), as Markdown; a page that has more ends with the URI of the next page (?cursor=…).`,
);
export const byTagResource = groupResource(
  "tag",
  "Chunks by tag",
  `Chunks, newest first, ${LIST_CHUNKS} a page, with one tag, as Markdown; a page that has more ends with the URI of the next page (?cursor=…).`,
);
