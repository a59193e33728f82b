// The person's import from their home page, run in the background: each file the page sends is
// kept as a queued item (its text in parts, under Firestore's document size), then imported by
// whichever comes first, the page's next poll (one file per request) or the scheduled drain
// (index.ts), so a closed tab still finishes. Same formats, limits and idempotence as the importer.
import { Timestamp, type DocumentReference, type Firestore } from "firebase-admin/firestore";
import type { Embedder } from "../../platform/embeddings.js";
import { EmbeddingError } from "../../platform/embeddings.js";
import { MAX_IMPORT_REQUEST_BYTES } from "../../contracts/knowledge-import.js";
import type { QueuedImportView } from "../../http/person.js";
import { importDocument } from "./ingest/import.js";
import { ParseError, parseFile } from "./ingest/parse.js";
import { INDEX_FULL } from "./postings.js";

export const KB_IMPORT_QUEUE = "kb_import_queue";
const PARTS = "parts";
/** Characters per stored part: 3 bytes each at most in UTF-8, well under a document's 1 MiB. */
const PART_CHARS = 250_000;
/** An item claimed this long ago whose worker never finished is queued again. */
const STALE_CLAIM_MS = 15 * 60 * 1000;
/** How many of the person's recent files the page shows. */
const SHOWN = 200;

/** The importer's own refusals (its limits), which say what to do; anything else is internal. */
export const importerSentence = (m: string): boolean => m === INDEX_FULL || /would have \d+ chunks|at the same time/.test(m);

function view(id: string, d: FirebaseFirestore.DocumentData): QueuedImportView {
  return { id, path: String(d.path), status: d.status, ...(d.detail ? { detail: String(d.detail) } : {}), documents: (d.documents ?? []) as QueuedImportView["documents"] };
}

/** Keeps one file for import; one too large is recorded as skipped, saying why. */
export async function enqueueImport(db: Firestore, uid: string, path: string, content: string): Promise<QueuedImportView> {
  const ref = db.collection(KB_IMPORT_QUEUE).doc();
  const base = { owner_uid: uid, path: path.slice(0, 1000), queued_at: Timestamp.now(), documents: [] };
  if (content.length > MAX_IMPORT_REQUEST_BYTES) {
    const item = { ...base, status: "skipped", detail: `larger than ${MAX_IMPORT_REQUEST_BYTES / 1024 / 1024} MiB; split it` };
    await ref.set(item);
    return view(ref.id, item);
  }
  const batch = db.batch();
  const parts = Math.max(1, Math.ceil(content.length / PART_CHARS));
  for (let i = 0; i < parts; i++) batch.set(ref.collection(PARTS).doc(String(i).padStart(4, "0")), { text: content.slice(i * PART_CHARS, (i + 1) * PART_CHARS) });
  const item = { ...base, status: "queued", parts };
  batch.set(ref, item);
  await batch.commit();
  return view(ref.id, item);
}

/** The person's recent files, newest first, with each one's state. */
export async function listImports(db: Firestore, uid: string): Promise<QueuedImportView[]> {
  const snap = await db.collection(KB_IMPORT_QUEUE).where("owner_uid", "==", uid).get();
  return snap.docs
    .sort((a, b) => b.get("queued_at").toMillis() - a.get("queued_at").toMillis() || (a.get("path") < b.get("path") ? -1 : 1))
    .slice(0, SHOWN)
    .map((d) => view(d.id, d.data()));
}

/** Claims an item for this worker: only one worker imports it (the importer is idempotent anyway). */
async function claim(db: Firestore, ref: DocumentReference): Promise<boolean> {
  return db.runTransaction(async (tx) => {
    const d = await tx.get(ref);
    const stale = d.get("status") === "processing" && Date.now() - (d.get("claimed_at")?.toMillis() ?? 0) > STALE_CLAIM_MS;
    if (d.get("status") !== "queued" && !stale) return false;
    tx.update(ref, { status: "processing", claimed_at: Timestamp.now() });
    return true;
  });
}

async function importItem(db: Firestore, ref: DocumentReference, embedder: Embedder): Promise<void> {
  const item = await ref.get();
  const uid = String(item.get("owner_uid"));
  const path = String(item.get("path"));
  const parts = await ref.collection(PARTS).get();
  const content = parts.docs.map((p) => String(p.get("text") ?? "")).join("");
  const documents: QueuedImportView["documents"] = [];
  let outcome: { status: QueuedImportView["status"]; detail?: string };
  try {
    for (const doc of parseFile(path, content, path)) {
      const r = await importDocument(doc, { db, uid, embedder });
      documents.push({ title: r.title, status: r.status, chunks: r.chunks });
    }
    outcome = { status: documents.every((d) => d.status === "unchanged") ? "unchanged" : "imported" };
  } catch (err) {
    // Documents already imported stay (each is complete); the failed one kept its old version.
    const message = String((err as Error)?.message ?? err);
    if (err instanceof ParseError) outcome = { status: "skipped", detail: message };
    else if (err instanceof EmbeddingError) {
      // The embedding service may be back soon: the file waits for the next try.
      await ref.update({ status: "queued", detail: "the embedding service failed; it is tried again" });
      return;
    } else outcome = { status: "failed", detail: importerSentence(message) ? message : "it could not be imported (an internal error, logged)" };
    if (!importerSentence(message) && !(err instanceof ParseError)) console.error("home import failed", { item: ref.id, error: message });
  }
  const writer = db.bulkWriter();
  for (const p of parts.docs) void writer.delete(p.ref);
  void writer.update(ref, { ...outcome, documents, done_at: Timestamp.now() });
  await writer.close();
}

/** Imports the next queued file (the person's, or anyone's when uid is omitted); undefined when none is left. */
export async function importNext(db: Firestore, embedder: () => Promise<Embedder>, uid?: string): Promise<QueuedImportView | undefined> {
  const waiting = (status: "queued" | "processing") => {
    const q = db.collection(KB_IMPORT_QUEUE).where("status", "==", status);
    return (uid ? q.where("owner_uid", "==", uid) : q).limit(status === "queued" ? 5 : 50).get();
  };
  for (;;) {
    let next = (await waiting("queued")).docs;
    // None queued: an item whose worker stopped midway (claimed long ago) is taken over.
    const stale = !next.length;
    if (stale) next = (await waiting("processing")).docs.filter((d) => Date.now() - (d.get("claimed_at")?.toMillis() ?? 0) > STALE_CLAIM_MS);
    if (!next.length) return undefined;
    for (const d of next) {
      if (!(await claim(db, d.ref))) continue;
      await importItem(db, d.ref, await embedder());
      const done = await d.ref.get();
      return view(d.id, done.data()!);
    }
    if (stale) return undefined;
  }
}

/**
 * The scheduled drain: imports queued files until none is left or the time is up. The embedder is
 * made only once a file is claimed: a run that finds the queue empty costs one query.
 */
export async function drainImports(db: Firestore, embedder: () => Promise<Embedder>, budgetMs: number): Promise<number> {
  const until = Date.now() + budgetMs;
  let made: Promise<Embedder> | undefined;
  const once = () => (made ??= embedder());
  let n = 0;
  while (Date.now() < until && (await importNext(db, once))) n++;
  return n;
}

/** Deletes the person's queued and finished items with their stored text. */
export async function eraseImports(db: Firestore, uid: string): Promise<void> {
  const items = await db.collection(KB_IMPORT_QUEUE).where("owner_uid", "==", uid).select().get();
  await Promise.all(items.docs.map((d) => db.recursiveDelete(d.ref)));
}
