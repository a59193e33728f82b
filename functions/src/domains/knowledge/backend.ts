// What the knowledge domain runs against (the storage seam), passed in by whoever serves it as the
// domain's `backend` (index.ts: Firestore and the process's embedder; the logic tests: memory,
// records.ts). Every tool, resource and prompt reaches data through it: reads through storeFor(ctx),
// a note saved or a document removed through knowledgeBackend(ctx).
import type { RequestContext, SignedInContext } from "../../mcp/define.js";
import type { Embedder } from "../../platform/embeddings.js";
import type { DocumentResult } from "./ingest/import.js";
import type { ParsedDocument } from "./ingest/parse.js";
import type { RemovedDocument } from "./ingest/remove.js";
import type { KnowledgeStore } from "./store.js";

/** One owner's reads (store.ts' KnowledgeStore in Firestore): every query is scoped to that owner. */
export type KnowledgeReads = Pick<
  KnowledgeStore,
  "uid" | "getChunk" | "nearest" | "postings" | "liveMatching" | "chunksById" | "byMetadata" | "byMetadataPage" | "newestChunks" | "chunkIdsStartingWith" | "counts" | "valuesStartingWith"
>;

export interface KnowledgeBackend {
  readsFor(uid: string): KnowledgeReads;
  /** Imports one parsed document for `uid` (chunks, vectors, word index, stats), as kb:import does. */
  importDocument(doc: ParsedDocument, uid: string, embedder: Embedder): Promise<DocumentResult>;
  /** The owner's document removed with its chunks, or undefined when they have none by that id. */
  removeDocument(uid: string, parentId: string): Promise<RemovedDocument | undefined>;
  /** The embedder for queries and saved notes. */
  embedder(): Promise<Embedder>;
}

/** The backend the host served the domain with. */
export function knowledgeBackend(ctx: RequestContext): KnowledgeBackend {
  const backend = ctx.backend as KnowledgeBackend | undefined;
  if (typeof backend?.readsFor !== "function") throw new Error("the knowledge domain was served without a backend");
  return backend;
}

/** The signed-in caller's reads. */
export function storeFor(ctx: SignedInContext): KnowledgeReads {
  return knowledgeBackend(ctx).readsFor(ctx.caller.uid);
}
