// delete_document: removes one of the caller's documents (a note, an imported file, a book's
// highlights) with all its chunks; another person's document id reads as not found.
import { z } from "zod";
import { notFound } from "../../../core/errors.js";
import { tool } from "../../../mcp/signed-in.js";
import { knowledgeBackend } from "../backend.js";
import { requireWrite } from "../write-access.js";

/** A document id, or a chunk id (the document id, "-", the chunk's hash). */
const ID = /^(d[0-9a-f]{20})(?:-[0-9a-f]{16})?$/;

export const deleteDocument = tool(
  {
    name: "delete_document",
    title: "Delete a document from the knowledge base",
    description:
      "Deletes one document of your knowledge base — a saved note, an imported file, or a book's highlights — with all its chunks; it is no longer found by any search. Pass its document_id (from save_note, or shown in kxhub://chunk/{chunk_id}) or the chunk_id of any of its chunks. Answers what was removed. Cannot be undone.",
    inputSchema: z.object({
      document_id: z.string().trim().min(1).max(200).describe("The document's id, or the chunk_id of one of its chunks"),
    }),
    outputSchema: z.object({
      document_id: z.string(),
      title: z.string(),
      author: z.string(),
      source: z.string(),
      chunks_removed: z.number().int(),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  },
  async (input, ctx) => {
    requireWrite(ctx);
    const id = ID.exec(input.document_id)?.[1];
    const removed = id ? await knowledgeBackend(ctx).removeDocument(ctx.caller.uid, id) : undefined;
    if (!removed) throw notFound("Document");
    const r = { document_id: removed.parent_doc_id, title: removed.title, author: removed.author, source: removed.source, chunks_removed: removed.chunks };
    return { data: r, text: `Deleted "${r.title}"${r.author ? ` by ${r.author}` : ""} (${r.source}, ${r.chunks_removed} chunk${r.chunks_removed === 1 ? "" : "s"}, document ${r.document_id}).` };
  },
);
