// Imports parsed documents into a user's knowledge base: chunk, hash, embed, upsert.
// - Idempotent: a document whose content hash (text + metadata + embedding model) is unchanged is
//   skipped before anything is embedded.
// - An edited document replaces its old chunks: new chunks, deletion of the chunks it no longer
//   has, its record and the user's stats summary are written in ONE transaction, so a failure
//   leaves the previous version intact and never a mix.
// Used by `npm run kb:import`, the demo seeder and the tests (with any admin Firestore).
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { FieldValue, Timestamp, type Firestore } from "firebase-admin/firestore";
import type { Embedder } from "../../../platform/embeddings.js";
import { chunkId, emptyCounts, KB_DOCUMENTS, KB_ITEMS, KB_STATS, parentDocId, statKey, type DocumentRecord, type StatsCounts } from "../schema.js";
import { chunkText, CHUNK_MAX } from "./chunk.js";
import { ParseError, parseFile, SUPPORTED_EXTENSIONS, type ParsedDocument } from "./parse.js";

/** Keeps one document's writes (new chunks + deletions of old ones + 2) within a single commit. */
export const MAX_CHUNKS_PER_DOCUMENT = 240;
const CHUNKER_VERSION = 1;

export interface ImportOptions {
  db: Firestore;
  uid: string;
  embedder: Embedder;
  onProgress?: (event: ProgressEvent) => void;
  now?: () => Date;
  /** Precomputed vectors by `vectorCacheKey(model, text)` (the demo seeder's cache). */
  vectorCache?: Map<string, number[]>;
}

export type ProgressEvent =
  | { type: "file"; index: number; total: number; path: string }
  | { type: "document"; title: string; status: DocumentStatus; chunks: number }
  | { type: "embedding"; title: string; done: number; total: number }
  | { type: "file-failed"; path: string; error: string };

export type DocumentStatus = "imported" | "updated" | "unchanged";

export interface DocumentResult {
  parent_doc_id: string;
  title: string;
  status: DocumentStatus;
  chunks: number;
}

export interface FileResult {
  path: string;
  status: "ok" | "failed";
  error?: string;
  documents: DocumentResult[];
}

export interface ImportReport {
  files: FileResult[];
  documents: { imported: number; updated: number; unchanged: number };
  chunksWritten: number;
  failed: number;
}

/** Expands folders (recursively, supported extensions only, hidden entries skipped). */
export async function expandPaths(paths: string[]): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string, top: boolean): Promise<void> => {
    const info = await stat(path).catch(() => undefined);
    if (!info) {
      out.push(path); // reported as failed (not found) by importFiles
      return;
    }
    if (info.isDirectory()) {
      const entries = (await readdir(path)).filter((e) => !e.startsWith(".")).sort();
      for (const entry of entries) await walk(join(path, entry), false);
    } else if (top || SUPPORTED_EXTENSIONS.has(extname(path).toLowerCase())) out.push(path);
  };
  for (const p of paths) await walk(resolve(p), true);
  return out;
}

export async function importFiles(paths: string[], opts: ImportOptions): Promise<ImportReport> {
  const files = await expandPaths(paths);
  const report: ImportReport = { files: [], documents: { imported: 0, updated: 0, unchanged: 0 }, chunksWritten: 0, failed: 0 };
  for (const [index, path] of files.entries()) {
    opts.onProgress?.({ type: "file", index: index + 1, total: files.length, path });
    let docs: ParsedDocument[];
    try {
      const info = await stat(path).catch(() => {
        throw new ParseError("no such file or folder");
      });
      docs = parseFile(path, await readFile(path, "utf8"), info.mtime);
    } catch (err) {
      const error = err instanceof ParseError ? err.message : `could not read it (${(err as Error).message})`;
      report.failed++;
      report.files.push({ path, status: "failed", error, documents: [] });
      opts.onProgress?.({ type: "file-failed", path, error });
      continue;
    }
    const results: DocumentResult[] = [];
    try {
      for (const doc of docs) results.push(...(await importDocument(doc, opts)));
      report.files.push({ path, status: "ok", documents: results });
    } catch (err) {
      // Documents already committed stay (each is complete); the failed one kept its old version.
      const error = (err as Error).message;
      report.failed++;
      report.files.push({ path, status: "failed", error, documents: results });
      opts.onProgress?.({ type: "file-failed", path, error });
    }
    for (const r of results) {
      report.documents[r.status]++;
      if (r.status !== "unchanged") report.chunksWritten += r.chunks;
    }
  }
  return report;
}

interface PreparedChunk {
  content: string;
  tags: string[];
  createdAt?: Date;
}

/** Splits a parsed document into chunks (and into parts when it has very many). */
export function prepareChunks(doc: ParsedDocument): PreparedChunk[][] {
  const chunks: PreparedChunk[] = [];
  for (const piece of doc.pieces) {
    const texts = doc.kind === "prose" ? chunkText(piece.text) : piece.text.length > CHUNK_MAX ? chunkText(piece.text) : [piece.text.trim()];
    const tags = [...new Set([...doc.tags, ...(piece.tags ?? [])])];
    for (const content of texts) if (content) chunks.push({ content, tags, ...(piece.createdAt ? { createdAt: piece.createdAt } : {}) });
  }
  const parts: PreparedChunk[][] = [];
  for (let i = 0; i < chunks.length; i += MAX_CHUNKS_PER_DOCUMENT) parts.push(chunks.slice(i, i + MAX_CHUNKS_PER_DOCUMENT));
  return parts;
}

export const vectorCacheKey = (model: string, text: string): string => createHash("sha256").update(`${model}\u0000${text}`).digest("hex");

/** Imports one parsed document (as one or more parts); returns what happened to each part. */
export async function importDocument(doc: ParsedDocument, opts: ImportOptions): Promise<DocumentResult[]> {
  const parts = prepareChunks(doc);
  const results: DocumentResult[] = [];
  for (const [i, chunks] of parts.entries()) {
    const part = parts.length > 1 ? { key: `${doc.key}#part${i + 1}`, title: `${doc.title} (part ${i + 1} of ${parts.length})` } : { key: doc.key, title: doc.title };
    results.push(await importPart(doc, part.key, part.title, chunks, opts));
  }
  return results;
}

async function importPart(doc: ParsedDocument, key: string, title: string, chunks: PreparedChunk[], opts: ImportOptions): Promise<DocumentResult> {
  const { db, uid, embedder } = opts;
  const parentId = parentDocId(uid, key);
  const model = embedder.model;
  const hash = createHash("sha256")
    .update(
      JSON.stringify({
        v: CHUNKER_VERSION,
        model,
        title,
        author: doc.author,
        source: doc.source,
        category: doc.category,
        createdAt: doc.createdAt?.toISOString() ?? null,
        chunks: chunks.map((c) => [c.content, c.tags, c.createdAt?.toISOString() ?? null]),
      }),
    )
    .digest("hex");
  const recordRef = db.collection(KB_DOCUMENTS).doc(parentId);
  const before = await recordRef.get();
  if (before.exists && before.get("content_hash") === hash) {
    opts.onProgress?.({ type: "document", title, status: "unchanged", chunks: chunks.length });
    return { parent_doc_id: parentId, title, status: "unchanged", chunks: chunks.length };
  }

  const vectors = await embedAll(chunks.map((c) => c.content), title, opts);
  const now = opts.now?.() ?? new Date();
  const nowTs = Timestamp.fromDate(now);
  const ids = chunks.map((_, i) => chunkId(parentId, i));
  const counts = countsOf(doc, chunks, model);

  const status = await db.runTransaction(async (tx) => {
    const snap = await tx.get(recordRef);
    const old = snap.exists ? (snap.data() as DocumentRecord) : undefined;
    if (old && old.content_hash === hash) return "unchanged" as const;
    const firstSeen = old?.created_at ?? nowTs;
    const docCreated = doc.createdAt ? Timestamp.fromDate(doc.createdAt) : firstSeen;
    chunks.forEach((c, i) => {
      tx.set(db.collection(KB_ITEMS).doc(ids[i]!), {
        owner_uid: uid,
        parent_doc_id: parentId,
        chunk_index: i,
        total_chunks: chunks.length,
        title,
        author: doc.author,
        source: doc.source,
        category: doc.category,
        tags: c.tags,
        content: c.content,
        embedding: FieldValue.vector(vectors[i]!),
        embedding_model: model,
        created_at: c.createdAt ? Timestamp.fromDate(c.createdAt) : docCreated,
        updated_at: nowTs,
      });
    });
    const keep = new Set(ids);
    for (const stale of old?.chunk_ids ?? []) if (!keep.has(stale)) tx.delete(db.collection(KB_ITEMS).doc(stale));
    const record: DocumentRecord = {
      owner_uid: uid,
      doc_key: key,
      content_hash: hash,
      title,
      author: doc.author,
      source: doc.source,
      total_chunks: chunks.length,
      chunk_ids: ids,
      embedding_model: model,
      counts,
      created_at: firstSeen,
      updated_at: nowTs,
    };
    tx.set(recordRef, record);
    tx.set(db.collection(KB_STATS).doc(uid), statsDelta(old?.counts ?? emptyCounts(), counts, nowTs), { merge: true });
    return old ? ("updated" as const) : ("imported" as const);
  });
  opts.onProgress?.({ type: "document", title, status, chunks: chunks.length });
  return { parent_doc_id: parentId, title, status, chunks: chunks.length };
}

async function embedAll(texts: string[], title: string, opts: ImportOptions): Promise<number[][]> {
  const { embedder, vectorCache } = opts;
  const out = new Array<number[] | undefined>(texts.length);
  const missing: number[] = [];
  texts.forEach((t, i) => {
    const cached = vectorCache?.get(vectorCacheKey(embedder.model, t));
    if (cached) out[i] = cached;
    else missing.push(i);
  });
  const BATCH = 32;
  for (let i = 0; i < missing.length; i += BATCH) {
    const idx = missing.slice(i, i + BATCH);
    const vectors = await embedder.embed(idx.map((j) => texts[j]!), "document");
    idx.forEach((j, k) => {
      out[j] = vectors[k]!;
      vectorCache?.set(vectorCacheKey(embedder.model, texts[j]!), vectors[k]!);
    });
    if (missing.length > BATCH) opts.onProgress?.({ type: "embedding", title, done: Math.min(i + BATCH, missing.length), total: missing.length });
  }
  return out as number[][];
}

function countsOf(doc: ParsedDocument, chunks: PreparedChunk[], model: string): StatsCounts {
  const counts = emptyCounts();
  counts.documents = 1;
  counts.chunks = chunks.length;
  const bump = (map: Record<string, number>, key: string) => {
    if (key) map[statKey(key)] = (map[statKey(key)] ?? 0) + 1;
  };
  for (const c of chunks) {
    counts.chars += c.content.length;
    bump(counts.sources, doc.source);
    bump(counts.authors, doc.author);
    bump(counts.models, model);
    for (const tag of c.tags) bump(counts.tags, tag);
  }
  return counts;
}

/** What to add to the user's summary when a document's counts change from `before` to `after`. */
function statsDelta(before: StatsCounts, after: StatsCounts, now: Timestamp): Record<string, unknown> {
  const inc = (n: number) => FieldValue.increment(n);
  const mapDelta = (a: Record<string, number>, b: Record<string, number>) => {
    const out: Record<string, FieldValue> = {};
    for (const key of new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])) {
      const d = (b[key] ?? 0) - (a?.[key] ?? 0);
      if (d) out[key] = inc(d);
    }
    return out;
  };
  return {
    chunks: inc(after.chunks - before.chunks),
    documents: inc(after.documents - before.documents),
    chars: inc(after.chars - before.chars),
    sources: mapDelta(before.sources, after.sources),
    authors: mapDelta(before.authors, after.authors),
    tags: mapDelta(before.tags, after.tags),
    models: mapDelta(before.models, after.models),
    updated_at: now,
  };
}
