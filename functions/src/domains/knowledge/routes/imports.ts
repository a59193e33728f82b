// POST /imports — the person's own import from a terminal (`kb:import --server`, a `kb-import`
// device token): each file parsed and imported as the operator's importer does (same formats,
// limits, idempotence), embedded with the deployment's embedder; an outcome per file.
import { route } from "../../../http/route.js";
import { device } from "../../../mcp/define.js";
import { EmbeddingError } from "../../../platform/embeddings.js";
import { importRequestSchema, KNOWLEDGE_IMPORT_PATH, MAX_IMPORT_REQUEST_BYTES, type ImportAnswer, type ImportedFile } from "../../../contracts/knowledge-import.js";
import { knowledgeBackend } from "../backend.js";
import { queryEmbedder } from "../embedding.js";
import { ParseError, parseFile } from "../ingest/parse.js";
import { importerSentence } from "../import-queue.js";

export const importsRoute = route({
  method: "POST",
  path: KNOWLEDGE_IMPORT_PATH,
  description: "kb:import --server (kb-import device token): import files sent as text into the person's knowledge base → 200 {files: [{path, status, error?, documents}]}",
  access: device("kb-import"),
  body: { type: "json", maxBytes: MAX_IMPORT_REQUEST_BYTES + 64 * 1024 },
  input: importRequestSchema,
  async handle(req, ctx) {
    const embedder = await queryEmbedder(ctx);
    const backend = knowledgeBackend(ctx);
    const files: ImportedFile[] = [];
    for (const f of req.input.files) {
      const outcome: ImportedFile = { path: f.path, status: "ok", documents: [] };
      try {
        for (const doc of parseFile(f.path, f.content, f.path)) {
          const r = await backend.importDocument(doc, ctx.caller.uid, embedder);
          outcome.documents.push({ title: r.title, status: r.status, chunks: r.chunks });
        }
      } catch (err) {
        // Documents already imported stay (each is complete); the failed one kept its old version.
        outcome.status = "failed";
        outcome.error = err instanceof ParseError || importerSentence(String((err as Error)?.message)) ? (err as Error).message : err instanceof EmbeddingError ? "the embedding service failed; try again later" : `it could not be imported (an internal error, logged with request id ${ctx.requestId})`;
        if (outcome.error.includes(ctx.requestId)) ctx.log.error("import failed", { requestId: ctx.requestId, error: String((err as Error)?.message ?? err) });
      }
      files.push(outcome);
    }
    return { status: 200, body: { files } satisfies ImportAnswer };
  },
});
