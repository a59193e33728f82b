// save_note: keeps something from the conversation in the caller's knowledge base, through the
// importer (the same chunking, embedding, limits and idempotence as an imported Markdown file), so
// the next search finds it. A note is identified by its title: saving the same title again
// replaces that note.
import { z } from "zod";
import { conflict, tooLarge } from "../../../core/errors.js";
import { tool } from "../../../mcp/signed-in.js";
import { EmbeddingError } from "../../../platform/embeddings.js";
import { knowledgeBackend } from "../backend.js";
import { asEmbeddingToolError, queryEmbedder } from "../embedding.js";
import { normalizeTags } from "../ingest/parse.js";
import { INDEX_FULL } from "../postings.js";
import { MAX_TAGS } from "../store.js";
import { requireWrite } from "../write-access.js";

/** A note's text: a long article belongs in an import, not a tool call. */
export const MAX_NOTE_CHARS = 100_000;

export const saveNote = tool(
  {
    name: "save_note",
    title: "Save a note to the knowledge base",
    description:
      "Saves a note (a summary, an insight, something worth keeping from this conversation) to your knowledge base; the next search finds it by meaning and by its words. Saving again with the same title replaces that note. Needs the connection's permission to save to your knowledge base.",
    inputSchema: z.object({
      title: z.string().trim().min(1).max(300).describe("The note's title; a note with this title is replaced"),
      content: z.string().trim().min(1).max(MAX_NOTE_CHARS).describe(`The note's text (Markdown), at most ${MAX_NOTE_CHARS.toLocaleString("en")} characters`),
      tags: z.array(z.string().min(1).max(200)).max(MAX_TAGS).optional().describe("Tags to find it by"),
      source: z.string().trim().min(1).max(200).default("conversation").describe('Where it comes from (default "conversation"), e.g. a URL or a book'),
      author: z.string().trim().max(500).optional().describe("Who wrote what the note is about, if anyone"),
    }),
    outputSchema: z.object({
      document_id: z.string().describe("The note's document id (delete_document takes it)"),
      title: z.string(),
      status: z.enum(["imported", "updated", "unchanged"]).describe("imported: new; updated: a note with this title was replaced; unchanged: the same note was already saved"),
      chunks: z.number().int().describe("Chunks the note was split into"),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  },
  async (input, ctx) => {
    requireWrite(ctx);
    const embedder = await queryEmbedder(ctx);
    const doc = {
      key: `note:${input.title.toLowerCase()}`,
      title: input.title,
      author: input.author ?? "",
      source: input.source,
      category: "notes",
      tags: normalizeTags(input.tags ?? []),
      kind: "prose" as const,
      pieces: [{ text: input.content }],
    };
    try {
      const r = await knowledgeBackend(ctx).importDocument(doc, ctx.caller.uid, embedder);
      return { data: { document_id: r.parent_doc_id, title: r.title, status: r.status, chunks: r.chunks } };
    } catch (err) {
      if (err instanceof EmbeddingError) throw asEmbeddingToolError(err, ctx);
      const message = (err as Error).message;
      if (message === INDEX_FULL) throw tooLarge(INDEX_FULL);
      if (/at the same time/.test(message)) throw conflict(`"${input.title}" is being saved by another request at the same time; try again`);
      throw err;
    }
  },
);
