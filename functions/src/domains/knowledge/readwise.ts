// Readwise sync: the person pastes a Readwise access token once (on their home page); their new and
// changed highlights arrive on a schedule through Readwise's export API (GET /api/v2/export/ with
// the `updatedAfter` cursor of the last complete sync, `pageCursor` pagination, 429 answers waited
// out by their Retry-After). Each book is a highlights document keyed like the CSV importer's
// (`readwise:<title>|<author>`), so a CSV export imported before and the sync never duplicate a
// highlight, and a re-sync writes nothing new. The token lives in `kb_readwise/{uid}`, which the
// Firestore rules keep from every client: only the functions read it, and nothing ever shows it.
import { Timestamp, type Firestore } from "firebase-admin/firestore";
import type { Embedder } from "../../platform/embeddings.js";
import { parseWallClockUtc } from "../../mcp/dates.js";
import { importDocument, type DocumentResult } from "./ingest/import.js";
import { normalizeTags, type ParsedDocument } from "./ingest/parse.js";

export const KB_READWISE = "kb_readwise";
/** Where Readwise answers (a local stand-in in tests). */
export const readwiseApi = (): string => (process.env.READWISE_API_URL ?? "https://readwise.io").replace(/\/+$/, "");
/** Waits for 429s per sync before it gives up (the next scheduled sync carries on from the cursor). */
const MAX_RATE_LIMIT_WAITS = 5;
/** Longest wait for one 429 (Readwise asks for seconds to a minute). */
const MAX_WAIT_SECONDS = 120;

export class ReadwiseError extends Error {
  override readonly name = "ReadwiseError";
}

const headers = (token: string) => ({ authorization: `Token ${token}` });

/** Checks the token with Readwise (GET /api/v2/auth/ answers 204 for a valid one), then keeps it. */
export async function saveReadwiseToken(db: Firestore, uid: string, token: string): Promise<void> {
  const t = token.trim();
  if (!/^[A-Za-z0-9]{20,100}$/.test(t)) throw new ReadwiseError("That does not look like a Readwise access token: copy it from readwise.io/access_token");
  const res = await fetch(`${readwiseApi()}/api/v2/auth/`, { headers: headers(t) }).catch(() => undefined);
  if (!res) throw new ReadwiseError("Readwise could not be reached; try again later");
  if (res.status === 401 || res.status === 403) throw new ReadwiseError("Readwise refused this token: copy a current one from readwise.io/access_token");
  if (res.status !== 204 && res.status !== 200) throw new ReadwiseError(`Readwise answered HTTP ${res.status}; try again later`);
  await db.collection(KB_READWISE).doc(uid).set({ token: t, savedAt: Timestamp.now(), updatedAfter: null, lastSync: null, lastResult: null });
}

export async function removeReadwiseToken(db: Firestore, uid: string): Promise<void> {
  await db.collection(KB_READWISE).doc(uid).delete();
}

/** What the page shows: never the token. */
export async function readwiseStatus(db: Firestore, uid: string): Promise<{ connected: boolean; savedAt?: string; lastSync?: string; lastResult?: string }> {
  const snap = await db.collection(KB_READWISE).doc(uid).get();
  if (!snap.exists) return { connected: false };
  const iso = (t: unknown) => (t instanceof Timestamp ? t.toDate().toISOString() : undefined);
  return { connected: true, ...(iso(snap.get("savedAt")) ? { savedAt: iso(snap.get("savedAt"))! } : {}), ...(iso(snap.get("lastSync")) ? { lastSync: iso(snap.get("lastSync"))! } : {}), ...(snap.get("lastResult") ? { lastResult: String(snap.get("lastResult")) } : {}) };
}

interface ExportPage {
  nextPageCursor?: string | number | null;
  results: {
    title?: string;
    readable_title?: string;
    author?: string | null;
    category?: string | null;
    book_tags?: { name: string }[];
    highlights: { text?: string; note?: string | null; highlighted_at?: string | null; tags?: { name: string }[]; is_deleted?: boolean }[];
  }[];
}

/** The books of one export page as the importer's highlights documents (the CSV importer's keys). */
export function booksOf(page: ExportPage): ParsedDocument[] {
  return page.results.flatMap((b): ParsedDocument[] => {
    const title = (b.readable_title || b.title || "").trim() || "Untitled";
    const author = (b.author ?? "").trim();
    const bookTags = normalizeTags((b.book_tags ?? []).map((t) => t.name));
    const pieces = b.highlights
      .filter((h) => !h.is_deleted && h.text?.trim())
      .map((h) => {
        const date = h.highlighted_at ? (parseWallClockUtc(h.highlighted_at) ?? undefined) : undefined;
        const note = h.note?.trim();
        return { text: note ? `${h.text!.trim()}\n\nNote: ${note}` : h.text!.trim(), tags: normalizeTags([...(h.tags ?? []).map((t) => t.name), ...bookTags]), ...(date ? { createdAt: date } : {}) };
      });
    return pieces.length ? [{ key: `readwise:${title}|${author}`, title, author, source: "readwise", category: (b.category ?? "").toLowerCase() || "books", tags: bookTags, kind: "highlights", pieces }] : [];
  });
}

export interface SyncResult {
  books: number;
  /** Highlights written by this sync (new ones; the ones already there are not written again). */
  highlights: number;
}

/**
 * One sync of one person: every page changed since the last complete sync. The cursor moves only
 * when every page was imported, so a failed sync is repeated in full next time (idempotent).
 */
export async function syncReadwise(db: Firestore, uid: string, embedder: Embedder, opts: { sleep?: (ms: number) => Promise<void> } = {}): Promise<SyncResult> {
  const ref = db.collection(KB_READWISE).doc(uid);
  const snap = await ref.get();
  if (!snap.exists) throw new ReadwiseError("No Readwise token is saved");
  const token = String(snap.get("token"));
  const updatedAfter = snap.get("updatedAfter") as string | null;
  const startedAt = new Date().toISOString();
  const sleep = opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const result: SyncResult = { books: 0, highlights: 0 };
  let cursor: string | undefined;
  let waits = 0;
  try {
    for (;;) {
      const url = new URL(`${readwiseApi()}/api/v2/export/`);
      if (updatedAfter) url.searchParams.set("updatedAfter", updatedAfter);
      if (cursor) url.searchParams.set("pageCursor", cursor);
      const res = await fetch(url, { headers: headers(token) });
      if (res.status === 429) {
        if (++waits > MAX_RATE_LIMIT_WAITS) throw new ReadwiseError("Readwise kept asking to slow down; the next sync carries on");
        const seconds = Math.min(MAX_WAIT_SECONDS, Math.max(1, Number(res.headers.get("retry-after")) || 60));
        await sleep(seconds * 1000);
        continue;
      }
      if (res.status === 401 || res.status === 403) throw new ReadwiseError("Readwise refused the saved token: paste a current one on your home page");
      if (!res.ok) throw new ReadwiseError(`Readwise answered HTTP ${res.status}; the next sync tries again`);
      const page = (await res.json()) as ExportPage;
      for (const doc of booksOf(page)) {
        const r: DocumentResult = await importDocument(doc, { db, uid, embedder });
        result.books++;
        result.highlights += r.written;
      }
      if (!page.nextPageCursor) break;
      cursor = String(page.nextPageCursor);
    }
  } catch (err) {
    await ref.update({ lastSync: Timestamp.now(), lastResult: `failed: ${(err as Error).message}` }).catch(() => undefined);
    throw err;
  }
  await ref.update({ updatedAfter: startedAt, lastSync: Timestamp.now(), lastResult: `${result.highlights} new highlight(s) from ${result.books} book(s)` });
  return result;
}

/** Every person with a saved token, one after another (the scheduled sync). */
export async function syncEveryone(db: Firestore, embedder: Embedder): Promise<void> {
  const people = await db.collection(KB_READWISE).select().get();
  for (const p of people.docs) await syncReadwise(db, p.id, embedder).catch(() => undefined);
}
