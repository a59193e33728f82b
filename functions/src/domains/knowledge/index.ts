// The knowledge domain (kx-hub): a personal knowledge base of reading
// highlights and notes per signed-in user, searched by meaning (Firestore vector search) and by words.
import { defineDomain } from "../../mcp/define.js";
import { authorDeepDive, findInsightsAbout, relatedToChunk, tagExploration } from "./prompts/prompts.js";
import { byAuthorResource, bySourceResource, byTagResource, chunkResource } from "./resources/chunks.js";
import { getRelatedChunks } from "./tools/get_related_chunks.js";
import { deleteDocument } from "./tools/delete_document.js";
import { getStats } from "./tools/get_stats.js";
import { saveNote } from "./tools/save_note.js";
import { searchByMetadata } from "./tools/search_by_metadata.js";
import { searchSemantic } from "./tools/search_semantic.js";
import { importsRoute } from "./routes/imports.js";
import { firestoreKnowledge } from "./records.js";
import { RESULTS_VIEW } from "./views.js";

export default defineDomain({
  name: "knowledge",
  title: "Knowledge base (kx-hub)",
  description: "Your personal knowledge base of reading highlights and notes: hybrid search (meaning and exact words), metadata search, related chunks and statistics; save notes from the conversation and delete documents.",
  instructions: [
    "This server searches the caller's own knowledge base (Kindle/Readwise highlights, Markdown and text notes), split into chunks.",
    'Use search_semantic first: by default it searches by meaning (paraphrases) and by the exact words (names, codes, rare words; "quoted phrases" as written) at once, and each result says why it matched; mode "semantic" or "lexical" asks for one side only. When it answers no_match, nothing in the knowledge base is about the query: say so rather than guessing. search_by_metadata to list by tags/author/source; get_related_chunks to follow connections from a chunk_id; get_stats to learn which authors, sources and tags exist.',
    "save_note keeps something from the conversation (the person's notes, insights) so later searches find it; delete_document removes a document when the person asks.",
    "Cite chunks by title, author and chunk_id. Read kxhub://chunk/{chunk_id} for a chunk's full Markdown.",
  ].join(" "),
  tools: [searchSemantic, searchByMetadata, getRelatedChunks, getStats, saveNote, deleteDocument],
  resources: [chunkResource, bySourceResource, byAuthorResource, byTagResource, RESULTS_VIEW],
  prompts: [findInsightsAbout, authorDeepDive, tagExploration, relatedToChunk],
  routes: [importsRoute],
  backend: firestoreKnowledge,
  async warmup() {
    // Load the embedding model before the first request (local model: ~0.2 s, then a few warm-up
    // queries; Vertex: the client only).
    const e = await firestoreKnowledge.embedder().catch(() => undefined);
    await e?.warmup?.();
  },
});
