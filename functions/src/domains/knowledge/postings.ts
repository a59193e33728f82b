// The inverted word index of one user: which chunks contain a term, read by document id (no
// collection query). A user's postings are spread over POSTING_SHARDS documents
// (`kb_lexicon/{uid}/kb_lexicon_shards/{n}`, n = hash(term) mod POSTING_SHARDS), each holding
// `terms.<term>.<chunk id>` = the chunk's posting (its field-weighted count of the term and its
// length, packed into one number). A search reads only the shards of its terms, projected to those
// terms' maps; an import writes each shard it touches once per group of documents, with merges of
// single map entries (adds and FieldValue.delete()s), which Firestore applies server-side without a
// read, so concurrent imports of one user lose no posting.
import { createHash } from "node:crypto";
import { FieldPath, FieldValue, type Firestore } from "firebase-admin/firestore";

export const KB_LEXICON = "kb_lexicon";
export const KB_LEXICON_SHARDS = "kb_lexicon_shards";
/** Shards per user: a search reads at most one per query term variant; an import group writes at most this many documents. */
export const POSTING_SHARDS = 128;
/** Postings pack the chunk's length (words in its content) below this, the term's weight above it. */
const LENGTH_SLOTS = 1024;
/** Shard writes per commit (Firestore's cap is 500) and postings per commit (a request may carry 10 MiB; a posting ~60 bytes). */
const SHARD_WRITES_PER_BATCH = 400;
const POSTINGS_PER_BATCH = 50_000;

/** A shard past Firestore's 1 MiB per document (see docs/knowledge.md, "Capacity"): the document's switch is not made. */
export const INDEX_FULL =
  "The word index of this knowledge base is full (one of its shards would pass Firestore's 1 MiB per document); this document was not imported. Remove documents you no longer need, or import into another user";
/** Firestore says "exceeds the maximum allowed size", its emulator "maximum entity size is 1048576 bytes". */
const tooLarge = (e: unknown) => /maximum (allowed|entity) size|exceeds.*size|too large/i.test((e as Error)?.message ?? "");

export interface Posting {
  weight: number;
  length: number;
}

export const packPosting = (weight: number, length: number): number => Math.round(weight) * LENGTH_SLOTS + Math.min(Math.max(0, Math.round(length)), LENGTH_SLOTS - 1);
export const unpackPosting = (value: number): Posting => ({ weight: Math.floor(value / LENGTH_SLOTS), length: value % LENGTH_SLOTS });

export function shardOf(term: string): number {
  return createHash("md5").update(term).digest().readUInt32BE(0) % POSTING_SHARDS;
}

export const shardRef = (db: Firestore, uid: string, shard: number) => db.collection(KB_LEXICON).doc(uid).collection(KB_LEXICON_SHARDS).doc(String(shard));

/** The postings of `terms` (term → chunk id → posting): one getAll of their shards, projected to their maps. */
export async function readPostings(db: Firestore, uid: string, terms: string[]): Promise<Map<string, Map<string, Posting>>> {
  const out = new Map<string, Map<string, Posting>>(terms.map((t) => [t, new Map()]));
  if (!terms.length) return out;
  const shards = [...new Set(terms.map(shardOf))];
  const snaps = await db.getAll(...shards.map((s) => shardRef(db, uid, s)), { fieldMask: terms.map((t) => new FieldPath("terms", t)) });
  for (const snap of snaps) {
    if (!snap.exists) continue;
    for (const t of terms) {
      const map = snap.get(new FieldPath("terms", t)) as Record<string, number> | undefined;
      if (!map) continue;
      const list = out.get(t)!;
      for (const [id, v] of Object.entries(map)) list.set(id, unpackPosting(v));
    }
  }
  return out;
}

/** What a chunk contributes to the index: its terms' weights and its length (lexical.ts' chunkTerms). */
export interface ChunkPostings {
  id: string;
  term_weights: Record<string, number>;
  term_count: number;
}

/** Posting changes of many chunks, grouped by shard: term → chunk id → packed posting, or null to delete. */
export class PostingChanges {
  readonly shards = new Map<number, Map<string, Map<string, number | null>>>();

  add(chunk: ChunkPostings): this {
    for (const [t, w] of Object.entries(chunk.term_weights)) this.entry(t).set(chunk.id, packPosting(w, chunk.term_count));
    return this;
  }

  remove(id: string, terms: string[]): this {
    for (const t of terms) this.entry(t).set(id, null);
    return this;
  }

  /** Later changes of the same posting win. */
  merge(other: PostingChanges): this {
    for (const [s, terms] of other.shards) for (const [t, ids] of terms) for (const [id, v] of ids) this.entry(t, s).set(id, v);
    return this;
  }

  get size(): number {
    return this.shards.size;
  }

  private entry(term: string, shard = shardOf(term)): Map<string, number | null> {
    let terms = this.shards.get(shard);
    if (!terms) this.shards.set(shard, (terms = new Map()));
    let ids = terms.get(term);
    if (!ids) terms.set(term, (ids = new Map()));
    return ids;
  }

  /** One merge write per touched shard. */
  async write(db: Firestore, uid: string): Promise<void> {
    let batch = db.batch();
    let writes = 0;
    let postings = 0;
    for (const [s, terms] of this.shards) {
      const data: Record<string, Record<string, number | FieldValue>> = {};
      let n = 0;
      for (const [t, ids] of terms) {
        data[t] = Object.fromEntries([...ids].map(([id, v]) => [id, v === null ? FieldValue.delete() : v]));
        n += ids.size;
      }
      if (writes && (writes >= SHARD_WRITES_PER_BATCH || postings + n > POSTINGS_PER_BATCH)) {
        await batch.commit();
        batch = db.batch();
        writes = postings = 0;
      }
      batch.set(shardRef(db, uid, s), { terms: data }, { merge: true });
      writes++;
      postings += n;
    }
    if (writes) await batch.commit();
  }
}

/**
 * Group commit of posting changes for one import run: a document hands in its changes and waits
 * until they are written; changes handed in while a write is under way go together in the next
 * one, so documents imported side by side share their shard writes.
 */
export class PostingWriter {
  private queued = new PostingChanges();
  private waiters: { resolve: () => void; reject: (e: unknown) => void }[] = [];
  private running = false;

  constructor(
    private readonly db: Firestore,
    private readonly uid: string,
  ) {}

  apply(changes: PostingChanges): Promise<void> {
    if (!changes.size) return Promise.resolve();
    this.queued.merge(changes);
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.kick();
    return done;
  }

  private kick(): void {
    if (this.running || !this.waiters.length) return;
    const changes = this.queued;
    const waiters = this.waiters;
    this.queued = new PostingChanges();
    this.waiters = [];
    this.running = true;
    changes.write(this.db, this.uid).then(
      () => waiters.forEach((w) => w.resolve()),
      (e: unknown) => waiters.forEach((w) => w.reject(tooLarge(e) ? new Error(INDEX_FULL) : e)),
    ).finally(() => {
      this.running = false;
      this.kick();
    });
  }
}
