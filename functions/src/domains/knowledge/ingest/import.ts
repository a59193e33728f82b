// Imports parsed documents into a user's knowledge base: chunk, hash, embed, upsert.
//
// Every logical document has one manifest (`kb_documents/{parent_doc_id}`) listing its live chunk
// ids; the user's stats summary only ever changes together with a manifest, by the difference of
// what the document adds. Chunk ids hash their content, so an unchanged chunk keeps its id and is
// neither re-embedded nor rewritten.
// - Prose (Markdown, text) is replaced as a whole: chunks the new version no longer has go.
// - Highlights (Kindle, Readwise) only grow: exports overlap (each file holds some of a book's
//   highlights), so a highlight missing from one file is never deleted, and importing the same
//   or an older export again finds every highlight id in the manifest and writes nothing.
// - Nothing half-written is ever visible: new chunks are first written as *pending* (an
//   `owner_uid` no query matches), in batches of any number; then ONE transaction checks that the
//   manifest did not change meanwhile, publishes them, deletes the chunks the document no longer
//   has, switches the manifest and updates the stats. A failure before that leaves the old
//   version complete (the pending orphans are invisible and removed by the next import).
// - A switch larger than one transaction can hold (MAX_SWITCH_WRITES) commits the manifest and
//   stats with a roll-forward log (ids to publish / delete), then applies the log in batches; a
//   crash in between is finished by the next import of that document before anything else.
// Used by `npm run kb:import`, the demo seeder and the tests (with any admin Firestore).
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { basename, extname, join, relative, resolve } from "node:path";
import { FieldValue, Timestamp, type DocumentReference, type DocumentSnapshot, type Firestore, type WriteBatch } from "firebase-admin/firestore";
import { EmbeddingError, type Embedder } from "../../../platform/embeddings.js";
import { chunkId, emptyCounts, KB_DOCUMENTS, KB_ITEMS, KB_STATS, parentDocId, pendingOwner, statKey, type DocumentRecord, type StatsCounts } from "../schema.js";
import { chunkTerms, LEXICAL_VERSION, type ChunkTerms } from "../lexical.js";
import { PostingChanges, PostingWriter } from "../postings.js";
import { chunkText, CHUNK_MAX } from "./chunk.js";
import { ParseError, parseFile, SUPPORTED_EXTENSIONS, type ParsedDocument } from "./parse.js";

/** Pending chunks per batched write: ~7.5 KB each (768 doubles + text), far below the 10 MiB request cap. */
export const WRITE_BATCH = 100;
/** Writes one switch transaction may hold (Firestore's classic cap is 500) before it uses the roll-forward log. */
export const MAX_SWITCH_WRITES = 450;
/** The manifest lists every chunk id (~40 bytes): this keeps it far below Firestore's 1 MiB per document. */
export const MAX_CHUNKS_PER_DOCUMENT = 10_000;
const CHUNKER_VERSION = 2;

export interface ImportOptions {
  db: Firestore;
  uid: string;
  embedder: Embedder;
  onProgress?: (event: ProgressEvent) => void;
  now?: () => Date;
  /** Precomputed vectors by `vectorCacheKey(model, text)` (the demo seeder's cache). */
  vectorCache?: Map<string, number[]>;
  /** Overrides of WRITE_BATCH / MAX_SWITCH_WRITES (tests use small ones to exercise every path). */
  writeBatch?: number;
  maxSwitchWrites?: number;
  /** false: write no lexical index (the benchmark's baseline: the import as it was before the index). */
  lexicalIndex?: boolean;
}

export type ProgressEvent =
  | { type: "file"; index: number; total: number; path: string }
  | { type: "document"; title: string; status: DocumentStatus; chunks: number }
  | { type: "embedding"; title: string; done: number; total: number }
  | { type: "writing"; title: string; stage: "pending" | "roll-forward"; done: number; total: number }
  | { type: "file-failed"; path: string; error: string };

export type DocumentStatus = "imported" | "updated" | "unchanged";

export interface DocumentResult {
  parent_doc_id: string;
  title: string;
  status: DocumentStatus;
  /** Live chunks of the document after the import. */
  chunks: number;
  /** Chunks embedded and written by this import. */
  written: number;
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

export interface ImportFile {
  path: string;
  /** Path relative to the folder named on the command line (the file name for a file named directly). */
  relativePath: string;
}

/** Expands folders (recursively, supported extensions only, hidden entries skipped). */
export async function expandPaths(paths: string[]): Promise<ImportFile[]> {
  const out: ImportFile[] = [];
  const walk = async (path: string, root: string, top: boolean): Promise<void> => {
    const info = await stat(path).catch(() => undefined);
    if (!info) {
      out.push({ path, relativePath: basename(path) }); // reported as failed (not found) by importFiles
      return;
    }
    if (info.isDirectory()) {
      const entries = (await readdir(path)).filter((e) => !e.startsWith(".")).sort();
      for (const entry of entries) await walk(join(path, entry), root, false);
    } else if (top || SUPPORTED_EXTENSIONS.has(extname(path).toLowerCase())) {
      out.push({ path, relativePath: top ? basename(path) : relative(root, path) });
    }
  };
  for (const p of paths) await walk(resolve(p), resolve(p), true);
  return out;
}

/** Files read ahead, whose new chunks are embedded together (one model call for many documents). */
const LOOKAHEAD_FILES = 16;

async function readParsed(file: ImportFile): Promise<ParsedDocument[]> {
  await stat(file.path).catch(() => {
    throw new ParseError("no such file or folder");
  });
  return parseFile(file.path, await readFile(file.path, "utf8"), file.relativePath);
}

/**
 * Embeds, ahead of time and in one call (the embedder batches it: the local model over its
 * workers, Vertex in requests of up to 250 texts), the chunks that the documents of the next files
 * will write (the same plan importParsed makes), into the vector cache importParsed reads.
 * Only an optimisation: a document it misses (a book stored by another model, a manifest that
 * changes meanwhile) is embedded by importParsed as before, and a vector it made needlessly is
 * just not used.
 */
async function embedAhead(parsed: (ParsedDocument[] | undefined)[], opts: ImportOptions, cache: Map<string, number[]>): Promise<void> {
  const docs = parsed.flatMap((d) => d ?? []);
  if (!docs.length) return;
  const manifests = await opts.db.getAll(...docs.map((d) => manifestRef(opts, d)));
  const model = opts.embedder.model;
  const texts = new Set<string>();
  for (const [i, doc] of docs.entries()) {
    const snap = manifests[i]!;
    const old = snap.exists ? (snap.data() as DocumentRecord) : undefined;
    const chunks = chunksOf(doc, snap.ref.id, model);
    // A book stored by another model is re-embedded from its stored chunks: left to importParsed.
    if (doc.kind === "highlights" && old && (old.embedding_model !== model || old.kind !== "highlights")) continue;
    const plan = doc.kind === "prose" ? planProse(doc, chunks, old, model) : await planHighlights(doc, snap.ref.id, chunks, old, model, opts);
    for (const c of plan?.write ?? []) if (!cache.has(vectorCacheKey(model, c.content))) texts.add(c.content);
  }
  const list = [...texts];
  if (!list.length) return;
  const vectors = await opts.embedder.embed(list, "document");
  list.forEach((t, k) => cache.set(vectorCacheKey(model, t), vectors[k]!));
}

export async function importFiles(paths: string[], optsIn: ImportOptions): Promise<ImportReport> {
  const files = await expandPaths(paths);
  const report: ImportReport = { files: [], documents: { imported: 0, updated: 0, unchanged: 0 }, chunksWritten: 0, failed: 0 };
  // Vectors embedded ahead for the next files (plus the caller's own cache, if any).
  const cache = new Map(optsIn.vectorCache ?? []);
  const opts: ImportOptions = { ...optsIn, vectorCache: cache };
  postingWriters.set(opts, new PostingWriter(opts.db, opts.uid));
  // The next windows of files are read and embedded while this one is written: the embedder always
  // has work queued (the writes are Firestore round trips, the embedding is CPU or Vertex).
  const prepare = (start: number) => {
    const parsed = files.slice(start, start + LOOKAHEAD_FILES).map((f) => readParsed(f));
    // Embedding ahead is an optimisation: if it fails, each document embeds (and reports) as before.
    const embedded = Promise.all(parsed.map((p) => p.catch(() => undefined)))
      .then((docs) => embedAhead(docs, opts, cache))
      .catch(() => undefined);
    return { parsed, embedded };
  };
  const ahead: ReturnType<typeof prepare>[] = [];
  let planned = 0;
  const run: ImportRun = { opts, total: files.length, documents: new Map() };
  for (let start = 0; start < files.length; start += LOOKAHEAD_FILES) {
    // This window and the next two are being read and embedded while this one is written.
    for (; ahead.length < 3 && planned < files.length; planned += LOOKAHEAD_FILES) ahead.push(prepare(planned));
    const window = ahead.shift()!;
    await window.embedded;
    // A few files at a time: a document's import is a handful of sequential round trips, so one
    // after another the writes, not the embedding, would set the pace.
    const outcomes = new Array<FileResult>(window.parsed.length);
    let taken = 0;
    const writer = async () => {
      for (let k = taken++; k < window.parsed.length; k = taken++) outcomes[k] = await importFile(files[start + k]!, window.parsed[k]!, start + k, run);
    };
    await Promise.all(Array.from({ length: Math.min(FILES_IN_FLIGHT, window.parsed.length) }, writer));
    for (const outcome of outcomes) {
      report.files.push(outcome);
      if (outcome.status === "failed") report.failed++;
      for (const r of outcome.documents) {
        report.documents[r.status]++;
        report.chunksWritten += r.written;
      }
    }
  }
  return report;
}

/**
 * Imports one parsed document (a note saved from a conversation, a page's upload): the same plan,
 * limits, switch and idempotence as a file's document.
 */
export async function importDocument(doc: ParsedDocument, opts: ImportOptions): Promise<DocumentResult> {
  return importParsed(doc, await manifestRef(opts, doc).get(), opts);
}

/** The run's group commit of word-index postings (one per importFiles call; created on first use otherwise). */
const postingWriters = new WeakMap<ImportOptions, PostingWriter>();
function writePostings(opts: ImportOptions, changes: PostingChanges): Promise<void> {
  if (opts.lexicalIndex === false || !changes.size) return Promise.resolve();
  let writer = postingWriters.get(opts);
  if (!writer) postingWriters.set(opts, (writer = new PostingWriter(opts.db, opts.uid)));
  return writer.apply(changes);
}

/** The stored terms of chunks (to remove their postings); chunks already gone have none. */
async function storedTerms(ids: string[], opts: ImportOptions): Promise<PostingChanges> {
  const changes = new PostingChanges();
  if (opts.lexicalIndex === false || !ids.length) return changes;
  const snaps = await opts.db.getAll(...ids.map((id) => opts.db.collection(KB_ITEMS).doc(id)), { fieldMask: ["terms"] });
  for (const snap of snaps) if (snap.exists) changes.remove(snap.id, (snap.get("terms") as string[] | undefined) ?? []);
  return changes;
}

/** Files written at the same time (each file's documents one after another). */
const FILES_IN_FLIGHT = 8;

interface ImportRun {
  opts: ImportOptions;
  total: number;
  /** The latest import of each document in this run: a document in two files (a book in two exports) is imported by one at a time. */
  documents: Map<string, Promise<unknown>>;
}

async function importFile(file: ImportFile, parsed: Promise<ParsedDocument[]>, index: number, run: ImportRun): Promise<FileResult> {
  const { opts } = run;
  const { path } = file;
  opts.onProgress?.({ type: "file", index: index + 1, total: run.total, path });
  let docs: ParsedDocument[];
  try {
    docs = await parsed;
  } catch (err) {
    const error = err instanceof ParseError ? err.message : `could not read it (${(err as Error).message})`;
    opts.onProgress?.({ type: "file-failed", path, error });
    return { path, status: "failed", error, documents: [] };
  }
  const results: DocumentResult[] = [];
  try {
    // One round trip for all the file's manifests: an unchanged file costs one getAll.
    const refs = docs.map((d) => manifestRef(opts, d));
    const manifests = await opts.db.getAll(...refs);
    for (const [i, doc] of docs.entries()) {
      const ref = refs[i]!;
      const before = run.documents.get(ref.path);
      const mine = (async () => {
        // Another file of this run imports the same document: after it, with its manifest.
        if (before) await before.catch(() => undefined);
        return importParsed(doc, before ? await ref.get() : manifests[i]!, opts);
      })();
      run.documents.set(ref.path, mine);
      results.push(await mine);
    }
    return { path, status: "ok", documents: results };
  } catch (err) {
    // Documents already switched stay (each is complete); the failed one kept its old version.
    const error = err instanceof EmbeddingError && err.detail ? `${err.message} (${err.detail})` : (err as Error).message;
    opts.onProgress?.({ type: "file-failed", path, error });
    return { path, status: "failed", error, documents: results };
  }
}

const manifestRef = (opts: ImportOptions, doc: ParsedDocument) => opts.db.collection(KB_DOCUMENTS).doc(parentDocId(opts.uid, doc.key));

/** A chunk the import plans to keep or write (its id hashes its content). */
interface PlannedChunk {
  id: string;
  content: string;
  tags: string[];
  createdAt?: Date | undefined;
}

export const vectorCacheKey = (model: string, text: string): string => createHash("sha256").update(`${model}\u0000${text}`).digest("hex");

/** The chunks a parsed document consists of, with content-derived ids (in order, duplicates dropped for highlights). */
/** What a stored chunk says of its document and of itself: every store writes these fields so. */
export const chunkFields = (doc: ParsedDocument, c: PlannedChunk) => ({ title: doc.title, author: doc.author, source: doc.source, category: doc.category, tags: c.tags, content: c.content });

export function chunksOf(doc: ParsedDocument, parentId: string, model: string): PlannedChunk[] {
  const out: PlannedChunk[] = [];
  const seen = new Map<string, number>();
  for (const piece of doc.pieces) {
    const texts = doc.kind === "prose" ? chunkText(piece.text) : piece.text.length > CHUNK_MAX ? chunkText(piece.text) : [piece.text.trim()];
    const tags = [...new Set([...doc.tags, ...(piece.tags ?? [])])];
    for (const content of texts) {
      if (!content) continue;
      // A highlight is identified by its book (in parentId), its text and the model; its tags and
      // date are those of the first import that saw it. A prose chunk by everything it stores.
      const key =
        doc.kind === "highlights"
          ? JSON.stringify([model, content])
          : JSON.stringify([CHUNKER_VERSION, model, doc.title, doc.author, doc.source, doc.category, doc.createdAt?.toISOString() ?? null, tags, piece.createdAt?.toISOString() ?? null, content]);
      const n = seen.get(key) ?? 0;
      seen.set(key, n + 1);
      if (n > 0 && doc.kind === "highlights") continue;
      out.push({ id: chunkId(parentId, n ? `${key}#${n}` : key), content, tags, ...(piece.createdAt ? { createdAt: piece.createdAt } : {}) });
    }
  }
  return out;
}

interface Plan {
  /** Live chunk ids after the import, in chunk_index order. */
  live: string[];
  /** Chunks to embed and write (a subset of live). */
  write: PlannedChunk[];
  /** Live chunks to delete. */
  remove: string[];
  /** Kept chunks whose chunk_index / total_chunks change. */
  renumber: string[];
  counts: StatsCounts;
  contentHash: string;
}

async function importParsed(doc: ParsedDocument, snapIn: DocumentSnapshot, opts: ImportOptions): Promise<DocumentResult> {
  const { db, uid, embedder } = opts;
  const model = embedder.model;
  const ref = snapIn.ref as DocumentReference;
  const parentId = ref.id;
  let snap = snapIn;
  // Finish a switch that a crash interrupted before looking at anything else.
  if (snap.exists && ((snap.get("publish") as string[] | undefined)?.length || (snap.get("remove") as string[] | undefined)?.length || snap.get("reindex"))) {
    await rollForward(ref, doc.title, opts);
    snap = await ref.get();
  }
  const old = snap.exists ? (snap.data() as DocumentRecord) : undefined;
  const chunks = chunksOf(doc, parentId, model);
  const plan = doc.kind === "prose" ? planProse(doc, chunks, old, model) : await planHighlights(doc, parentId, chunks, old, model, opts);
  if (!plan) {
    // Indexed by an older word analysis (or before the lexical index): index the terms again, no re-embedding.
    if (old && old.lexical_version !== LEXICAL_VERSION) {
      await reindexTerms(old.chunk_ids, opts);
      await ref.update({ lexical_version: LEXICAL_VERSION });
    }
    const live = old?.chunk_ids.length ?? 0;
    opts.onProgress?.({ type: "document", title: doc.title, status: "unchanged", chunks: live });
    return { parent_doc_id: parentId, title: doc.title, status: "unchanged", chunks: live, written: 0 };
  }
  if (plan.live.length > MAX_CHUNKS_PER_DOCUMENT) {
    throw new Error(`"${doc.title}" would have ${plan.live.length} chunks, more than the ${MAX_CHUNKS_PER_DOCUMENT} one document may have: split the file`);
  }

  await deletePendingOrphans(parentId, opts);
  const vectors = await embedAll(plan.write.map((c) => c.content), doc.title, opts);
  const nowTs = Timestamp.fromDate(opts.now?.() ?? new Date());
  const firstSeen = old?.created_at ?? nowTs;
  const docCreated = doc.createdAt ? Timestamp.fromDate(doc.createdAt) : firstSeen;
  const index = new Map(plan.live.map((id, i) => [id, i]));
  const termsOf = new Map<string, ChunkTerms>(
    opts.lexicalIndex === false ? [] : plan.write.map((c) => [c.id, chunkTerms({ title: doc.title, author: doc.author, tags: c.tags, content: c.content })]),
  );

  // 1. New chunks, invisible until the switch, and their postings (a search reads a posting's
  // chunk before showing it: a pending or deleted chunk is never shown).
  const size = Math.max(1, opts.writeBatch ?? WRITE_BATCH);
  const added = new PostingChanges();
  for (const [id, t] of termsOf) added.add({ id, ...t });
  const postingsWritten = writePostings(opts, added); // beside the chunk writes, awaited before the switch
  postingsWritten.catch(() => undefined);
  for (let i = 0; i < plan.write.length; i += size) {
    const batch = db.batch();
    plan.write.slice(i, i + size).forEach((c, k) => {
      batch.set(db.collection(KB_ITEMS).doc(c.id), {
        owner_uid: pendingOwner(uid),
        parent_doc_id: parentId,
        chunk_index: index.get(c.id)!,
        total_chunks: plan.live.length,
        ...chunkFields(doc, c),
        embedding: FieldValue.vector(vectors[i + k]!),
        embedding_model: model,
        ...termsOf.get(c.id),
        created_at: c.createdAt ? Timestamp.fromDate(c.createdAt) : docCreated,
        updated_at: nowTs,
      });
    });
    await batch.commit();
    opts.onProgress?.({ type: "writing", title: doc.title, stage: "pending", done: Math.min(i + size, plan.write.length), total: plan.write.length });
  }

  await postingsWritten;

  // 2. The switch: publish, delete, manifest, stats — in one transaction when it fits.
  const generation = (old?.generation as number | undefined) ?? 0;
  const writes = plan.write.length + plan.remove.length + plan.renumber.length + 2;
  const inline = writes <= (opts.maxSwitchWrites ?? MAX_SWITCH_WRITES);
  // Kept chunks indexed by an older word analysis are re-indexed after the switch; until then the
  // manifest keeps the old version, so a crash in between is finished by the next import.
  const written = new Set(plan.write.map((c) => c.id));
  const stale = old && old.lexical_version !== LEXICAL_VERSION ? plan.live.filter((id) => !written.has(id)) : [];
  // The removed chunks' postings go after the switch (until then they are live).
  const removed = inline ? await storedTerms(plan.remove, opts) : new PostingChanges();
  const status = await db.runTransaction(async (tx) => {
    const current = await tx.get(ref);
    if (((current.get("generation") as number | undefined) ?? 0) !== generation || current.exists !== !!old) {
      throw new Error(`"${doc.title}" was imported by another run at the same time; run the import again`);
    }
    const items = db.collection(KB_ITEMS);
    if (inline) {
      for (const c of plan.write) tx.update(items.doc(c.id), { owner_uid: uid });
      for (const id of plan.remove) tx.delete(items.doc(id));
      for (const id of plan.renumber) tx.update(items.doc(id), { chunk_index: index.get(id)!, total_chunks: plan.live.length });
    }
    const record: DocumentRecord = {
      owner_uid: uid,
      doc_key: doc.key,
      kind: doc.kind,
      content_hash: plan.contentHash,
      title: doc.title,
      author: doc.author,
      source: doc.source,
      total_chunks: plan.live.length,
      chunk_ids: plan.live,
      embedding_model: model,
      counts: plan.counts,
      generation: generation + 1,
      publish: inline ? [] : plan.write.map((c) => c.id),
      remove: inline ? [] : plan.remove,
      reindex: !inline && plan.renumber.length > 0,
      lexical_version: stale.length ? (old?.lexical_version ?? 0) : LEXICAL_VERSION,
      created_at: firstSeen,
      updated_at: nowTs,
    };
    tx.set(ref, record);
    tx.set(db.collection(KB_STATS).doc(uid), statsDelta(old?.counts ?? emptyCounts(), plan.counts, nowTs), { merge: true });
    return old ? ("updated" as const) : ("imported" as const);
  });
  await writePostings(opts, removed);
  if (!inline) await rollForward(ref, doc.title, opts);
  if (stale.length) {
    await reindexTerms(stale, opts);
    await ref.update({ lexical_version: LEXICAL_VERSION });
  }
  opts.onProgress?.({ type: "document", title: doc.title, status, chunks: plan.live.length });
  return { parent_doc_id: parentId, title: doc.title, status, chunks: plan.live.length, written: plan.write.length };
}

function planProse(doc: ParsedDocument, chunks: PlannedChunk[], old: DocumentRecord | undefined, model: string): Plan | undefined {
  const live = chunks.map((c) => c.id);
  const contentHash = createHash("sha256").update(JSON.stringify([CHUNKER_VERSION, model, doc.key, live])).digest("hex");
  if (old && old.content_hash === contentHash && old.embedding_model === model) return undefined;
  const before = old?.chunk_ids ?? [];
  const beforeIndex = new Map(before.map((id, i) => [id, i]));
  const keep = new Set(live);
  return {
    live,
    write: chunks.filter((c) => !beforeIndex.has(c.id)),
    remove: before.filter((id) => !keep.has(id)),
    renumber: live.filter((id, i) => beforeIndex.has(id) && (beforeIndex.get(id) !== i || before.length !== live.length)),
    counts: countsOf(doc, chunks, model),
    contentHash,
  };
}

async function planHighlights(doc: ParsedDocument, parentId: string, chunks: PlannedChunk[], old: DocumentRecord | undefined, model: string, opts: ImportOptions): Promise<Plan | undefined> {
  if (old && (old.embedding_model !== model || old.kind !== "highlights")) {
    // Another model embedded this book (or an older importer stored it with other ids):
    // re-embed all its highlights (the stored ones, from their chunks, plus the file's new ones)
    // under this model's ids, and drop the old chunks.
    const stored = old.chunk_ids.length ? await opts.db.getAll(...old.chunk_ids.map((id) => opts.db.collection(KB_ITEMS).doc(id))) : [];
    const fromStored = stored
      .filter((s) => s.exists)
      .map((s) => ({
        id: chunkId(parentId, JSON.stringify([model, s.get("content") as string])),
        content: s.get("content") as string,
        tags: (s.get("tags") as string[]) ?? [],
        createdAt: (s.get("created_at") as Timestamp | undefined)?.toDate(),
      }));
    const union = new Map<string, PlannedChunk>();
    for (const c of [...fromStored, ...chunks]) if (!union.has(c.id)) union.set(c.id, c);
    const all = [...union.values()];
    const live = new Set(all.map((c) => c.id));
    return { live: [...live], write: all, remove: old.chunk_ids.filter((id) => !live.has(id)), renumber: [], counts: countsOf(doc, all, model), contentHash: "" };
  }
  const existing = new Set(old?.chunk_ids ?? []);
  const fresh = chunks.filter((c) => !existing.has(c.id));
  if (old && !fresh.length) return undefined;
  const counts = addCounts(old?.counts ?? emptyCounts(), countsOf(doc, fresh, model));
  counts.documents = 1;
  return { live: [...(old?.chunk_ids ?? []), ...fresh.map((c) => c.id)], write: fresh, remove: [], renumber: [], counts, contentHash: "" };
}

/** Applies a manifest's roll-forward log in batches, then clears it. Idempotent: safe to repeat after a crash. */
async function rollForward(ref: DocumentReference, title: string, opts: ImportOptions): Promise<void> {
  const { db, uid } = opts;
  const record = (await ref.get()).data() as DocumentRecord | undefined;
  if (!record) return;
  const size = Math.max(1, opts.writeBatch ?? WRITE_BATCH);
  const items = db.collection(KB_ITEMS);
  type Op = (batch: WriteBatch) => void;
  const removed = await storedTerms(record.remove ?? [], opts);
  const ops: Op[] = [
    ...(record.publish ?? []).map((id): Op => (b) => b.update(items.doc(id), { owner_uid: uid })),
    ...(record.remove ?? []).map((id): Op => (b) => b.delete(items.doc(id))),
    ...(record.reindex ? record.chunk_ids.map((id, i): Op => (b) => b.update(items.doc(id), { chunk_index: i, total_chunks: record.chunk_ids.length })) : []),
  ];
  for (let i = 0; i < ops.length; i += size) {
    const batch = db.batch();
    for (const op of ops.slice(i, i + size)) op(batch);
    await batch.commit();
    opts.onProgress?.({ type: "writing", title, stage: "roll-forward", done: Math.min(i + size, ops.length), total: ops.length });
  }
  await writePostings(opts, removed);
  await ref.update({ publish: [], remove: [], reindex: false });
}

/** Writes the lexical index entries of stored chunks again from their stored fields (chunks already gone are skipped). */
async function reindexTerms(ids: string[], opts: ImportOptions): Promise<void> {
  const { db } = opts;
  const size = Math.max(1, opts.writeBatch ?? WRITE_BATCH);
  for (let i = 0; i < ids.length; i += size) {
    const refs = ids.slice(i, i + size).map((id) => db.collection(KB_ITEMS).doc(id));
    const snaps = await db.getAll(...refs, { fieldMask: ["title", "author", "tags", "content", "terms"] });
    const batch = db.batch();
    const changes = new PostingChanges();
    let n = 0;
    for (const snap of snaps) {
      if (!snap.exists) continue;
      const d = snap.data()!;
      const t = chunkTerms({ title: d.title ?? "", author: d.author ?? "", tags: d.tags ?? [], content: d.content ?? "" });
      changes.remove(snap.id, ((d.terms as string[] | undefined) ?? []).filter((x) => !(x in t.term_weights))).add({ id: snap.id, ...t });
      batch.update(snap.ref, { ...t });
      n++;
    }
    if (n) await batch.commit();
    await writePostings(opts, changes);
  }
}

/** Pending chunks of this document left by an import that failed before its switch. */
async function deletePendingOrphans(parentId: string, opts: ImportOptions): Promise<void> {
  const { db, uid } = opts;
  const snap = await db.collection(KB_ITEMS).where("owner_uid", "==", pendingOwner(uid)).where("parent_doc_id", "==", parentId).select("terms").get();
  const size = Math.max(1, opts.writeBatch ?? WRITE_BATCH);
  const changes = new PostingChanges();
  for (let i = 0; i < snap.docs.length; i += size) {
    const batch = db.batch();
    for (const d of snap.docs.slice(i, i + size)) {
      batch.delete(d.ref);
      changes.remove(d.id, (d.get("terms") as string[] | undefined) ?? []);
    }
    await batch.commit();
  }
  await writePostings(opts, changes);
}

async function embedAll(texts: string[], title: string, opts: ImportOptions): Promise<number[][]> {
  const { embedder, vectorCache } = opts;
  const out = new Array<number[] | undefined>(texts.length);
  const missing: number[] = [];
  texts.forEach((t, i) => {
    const key = vectorCacheKey(embedder.model, t);
    const cached = vectorCache?.get(key);
    if (cached) {
      out[i] = cached;
      vectorCache!.delete(key); // used once: an import of 100,000 chunks must not hold them all
    } else missing.push(i);
  });
  // Large enough for both local workers and a Vertex request of many texts; small enough for progress lines.
  const BATCH = 128;
  for (let i = 0; i < missing.length; i += BATCH) {
    const idx = missing.slice(i, i + BATCH);
    const vectors = await embedder.embed(idx.map((j) => texts[j]!), "document");
    idx.forEach((j, k) => {
      out[j] = vectors[k]!;
    });
    if (missing.length > BATCH) opts.onProgress?.({ type: "embedding", title, done: Math.min(i + BATCH, missing.length), total: missing.length });
  }
  return out as number[][];
}

function countsOf(doc: ParsedDocument, chunks: PlannedChunk[], model: string): StatsCounts {
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

function addCounts(a: StatsCounts, b: StatsCounts): StatsCounts {
  const add = (x: Record<string, number>, y: Record<string, number>) => {
    const out = { ...x };
    for (const [k, n] of Object.entries(y)) out[k] = (out[k] ?? 0) + n;
    return out;
  };
  return {
    chunks: a.chunks + b.chunks,
    documents: a.documents + b.documents,
    chars: a.chars + b.chars,
    sources: add(a.sources, b.sources),
    authors: add(a.authors, b.authors),
    tags: add(a.tags, b.tags),
    models: add(a.models, b.models),
  };
}

/** What to add to the user's summary when a document's counts change from `before` to `after`. */
export function statsDelta(before: StatsCounts, after: StatsCounts, now: Timestamp): Record<string, unknown> {
  const inc = (n: number) => FieldValue.increment(n);
  const mapDelta = (a: Record<string, number>, b: Record<string, number>) => {
    const out: Record<string, FieldValue> = {};
    for (const key of new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})])) {
      const d = (b[key] ?? 0) - (a?.[key] ?? 0);
      if (d) out[key] = inc(d);
    }
    return out;
  };
  const delta: Record<string, unknown> = {
    chunks: inc(after.chunks - before.chunks),
    documents: inc(after.documents - before.documents),
    chars: inc(after.chars - before.chars),
    updated_at: now,
  };
  // Only maps that change: an empty map in a merge is a value, and would replace the whole map
  // (a document without tags, imported after tagged ones, wiped the user's tag counts).
  for (const key of ["sources", "authors", "tags", "models"] as const) {
    const d = mapDelta(before[key], after[key]);
    if (Object.keys(d).length) delta[key] = d;
  }
  return delta;
}
