// Hybrid search: the chunks nearest in meaning (Firestore findNearest) and the chunks that contain
// the query's words (the user's inverted index, postings.ts; terms from lexical.ts), fused into one ranking.
// Every candidate of either side is scored by both: the vector query returns each hit's weights of
// the query's terms, and a lexical hit's vector is read to compute its similarity. The fused score
// is the similarity plus LEXICAL_WEIGHT times the share of the query's word weight (BM25 against
// the best the whole query could score) the chunk holds: a rare word found lifts its chunk far,
// words that most chunks share, or a few words of a longer query, barely move the order by meaning.
import type { RequestContext } from "../../mcp/define.js";
import { invalidInput } from "../../core/errors.js";
import type { Embedder } from "../../platform/embeddings.js";
import { embedQuery, weakSimilarity } from "./embedding.js";
import { containsPhrase, parseQuery, type ParsedQuery } from "./lexical.js";
import type { KnowledgeReads } from "./backend.js";
import { cosine, type Chunk, type Filters } from "./store.js";

export const SEARCH_MODES = ["hybrid", "semantic", "lexical"] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/**
 * Chunks found only by their words that a search reads (best BM25 first, in pages) to check that
 * they are live and match the filters, before it gives up finding more.
 */
export const LEXICAL_CAP = 400;
/** Candidates each side brings to the fusion (at least the requested limit). */
export const FUSION_DEPTH = 30;
/** A word held by at most this share of the chunks (and at least one) is rare: the query names something. */
export const RARE_SHARE = 0.02;
/** Weight of the lexical share (0–1) added to the similarity in the fused score. */
export const LEXICAL_WEIGHT = 0.5;
// BM25 (k1, b): saturation of repeated words and how much length dampens them. Chunks are already
// cut to ~1,000 characters, so length weighs less than in BM25's usual b = 0.75: a note that says
// one thing more should not lose to its near-duplicate for it.
const K1 = 1.2;
const B = 0.3;

/** Why a chunk is in the results. */
export interface Match {
  /** Query words and "quoted phrases" the chunk contains (title, author, tags or text), as the query wrote them. */
  terms: string[];
  similarity?: number;
  semantic_rank?: number;
  lexical_rank?: number;
  lexical_score?: number;
  fused_rank?: number;
  fused_score?: number;
}

export interface SearchHit {
  chunk: Chunk;
  similarity?: number;
  match: Match;
}

export interface SearchOutcome {
  hits: SearchHit[];
  /** Nothing contains a query word and nothing is close in meaning: the hits would be noise, so there are none. */
  noMatch: boolean;
  /** Query words no chunk (under the filters) contains. */
  absent: string[];
  /** Best similarity seen (semantic side), to explain a no-match. */
  bestSimilarity?: number;
  /** Query words beyond the lexical limit. */
  dropped: string[];
}

export interface SearchRequest {
  query: string;
  limit: number;
  mode: SearchMode;
  filters: Filters;
  minSimilarity?: number | undefined;
}

interface Candidate {
  id: string;
  chunk?: Chunk;
  vector?: number[];
  similarity?: number;
  termWeights: Record<string, number>;
  termCount: number;
  tags: string[];
  lexical: number;
  semanticRank?: number;
  lexicalRank?: number;
}

/** `chunkTotal`: the caller's chunk count (the summary's), for the rarity of words. */
export async function search(store: KnowledgeReads, req: SearchRequest, ctx: RequestContext, chunkTotal: Promise<number>, embedder?: Embedder): Promise<SearchOutcome> {
  if (req.mode === "lexical" && req.minSimilarity !== undefined) throw invalidInput("min_similarity needs the semantic ranking: use mode hybrid or semantic");
  const parsed = parseQuery(req.query);
  const terms = [...new Set(parsed.words.flatMap((w) => w.variants))];
  const depth = Math.max(req.limit, FUSION_DEPTH);
  const semanticDepth = req.mode === "semantic" ? req.limit : depth;

  const semantic =
    req.mode === "lexical"
      ? Promise.resolve(undefined)
      : embedQuery(req.query, ctx, embedder).then(async ({ vector, model }) => ({
          vector,
          model,
          hits: await store.nearest(vector, model, semanticDepth, req.filters, req.minSimilarity, terms),
        }));
  const lexical = req.mode === "semantic" || !terms.length ? Promise.resolve(undefined) : wordHits(store, parsed, terms);
  semantic.catch(() => undefined);
  const [sem, lex, n] = await Promise.all([semantic, lexical, chunkTotal]);

  const absent = lex ? parsed.words.filter((_, i) => lex.df[i] === 0).map((w) => w.text) : [];
  const candidates = new Map<string, Candidate>();
  for (const [i, h] of (sem?.hits ?? []).entries()) {
    candidates.set(h.chunk_id, { id: h.chunk_id, chunk: h, similarity: h.similarity, termWeights: h.termWeights ?? {}, termCount: h.termCount ?? 0, tags: h.tags, lexical: 0, semanticRank: i + 1 });
  }
  for (const h of lex?.hits ?? []) if (!candidates.has(h.id)) candidates.set(h.id, { id: h.id, termWeights: h.termWeights, termCount: h.termCount, tags: [], lexical: 0 });

  // Lexical scores (BM25 over the field-weighted counts), for every candidate of either side.
  const total = Math.max(1, n, ...(lex?.df ?? []));
  const idf = parsed.words.map((_, i) => {
    const df = lex?.df[i] ?? 0;
    return Math.log(1 + (total - df + 0.5) / (df + 0.5));
  });
  // The most a chunk could score: every query word at saturation. A query naming something rare
  // (a word only a few chunks hold) is after that thing: its words no chunk has are filler or
  // typos ("what did Kahneman say …") and do not count. Otherwise the words no chunk has count
  // too, so one everyday word of a paraphrase whose other words no note has (a title word a whole
  // theme shares, "trains" found as "training") is a small share and barely moves the order by
  // meaning: fusion keeps what semantic search alone finds.
  const rareAt = Math.max(1, RARE_SHARE * total);
  const namesRare = !!lex && lex.df.some((df) => df > 0 && df <= rareAt);
  const bestPossible = lex ? idf.reduce((sum, x, i) => sum + (namesRare && lex.df[i] === 0 ? 0 : x), 0) * (K1 + 1) : 0;
  const all = [...candidates.values()];
  const avgLength = all.reduce((n, c) => n + c.termCount, 0) / Math.max(1, all.length) || 1;
  for (const c of all) c.lexical = lex ? bm25(c, parsed, idf, avgLength) : 0;

  // Quoted phrases must appear as written: candidates with all their words are read and checked.
  let lexicalList = all.filter((c) => c.lexical > 0).sort(byScore((c) => c.lexical));
  lexicalList = await liveMatching(store, lexicalList, req.filters, parsed.phrases.length ? depth * 2 : req.mode === "lexical" ? req.limit : depth, req.mode === "hybrid");
  if (parsed.phrases.length) {
    const unread = lexicalList.slice(0, depth * 2).filter((c) => !c.chunk);
    await readChunks(store, unread, sem?.model !== undefined);
    lexicalList = lexicalList.filter((c) => c.chunk && parsed.phrases.every((p) => containsPhrase(searchable(c.chunk!), p)));
    const keep = new Set(lexicalList.map((c) => c.id));
    for (const c of all) if (!keep.has(c.id)) c.lexical = 0;
  }
  lexicalList = lexicalList.slice(0, req.mode === "lexical" ? req.limit : depth);
  lexicalList.forEach((c, i) => (c.lexicalRank = i + 1));

  if (req.mode === "lexical") {
    await readChunks(store, lexicalList, false);
    const hits = lexicalList.filter((c) => c.chunk).map((c) => hitOf(c, parsed));
    return { hits, noMatch: !hits.length, absent, dropped: parsed.dropped };
  }
  if (req.mode === "semantic") {
    const hits = (sem?.hits ?? []).map((h) => hitOf(candidates.get(h.chunk_id)!, parsed));
    return { hits, noMatch: false, absent, dropped: parsed.dropped, ...(hits.length ? { bestSimilarity: hits[0]!.similarity } : {}) };
  }

  // Hybrid: the lexical side's candidates get their similarity from their stored vectors.
  const pool = new Map<string, Candidate>();
  for (const c of [...(sem?.hits ?? []).map((h) => candidates.get(h.chunk_id)!), ...lexicalList]) pool.set(c.id, c);
  const missing = [...pool.values()].filter((c) => !c.chunk || c.similarity === undefined);
  await readChunks(store, missing, true);
  for (const c of missing) {
    if (c.vector?.length && c.chunk?.embedding_model === sem!.model) c.similarity = round(cosine(sem!.vector, c.vector));
  }
  let fused = [...pool.values()].filter((c) => c.chunk);
  if (req.minSimilarity !== undefined) fused = fused.filter((c) => (c.similarity ?? -Infinity) >= req.minSimilarity!);
  const sims = fused.map((c) => c.similarity).filter((s): s is number => s !== undefined);
  const best = sims.length ? Math.max(...sims) : undefined;
  const anyWord = lexicalList.length > 0;
  if (!anyWord && (best === undefined || best < weakSimilarity(sem!.model))) {
    return { hits: [], noMatch: true, absent, dropped: parsed.dropped, ...(best !== undefined ? { bestSimilarity: best } : {}) };
  }
  const floor = sims.length ? Math.min(...sims) : 0; // a chunk of another model has no similarity: the weakest one's
  const score = new Map(fused.map((c) => [c.id, (c.similarity ?? floor) + (bestPossible > 0 ? (LEXICAL_WEIGHT * c.lexical) / bestPossible : 0)]));
  // Semantic ranks over the whole pool (the lexical side's chunks placed by their computed similarity).
  [...fused].sort(byScore((c) => c.similarity ?? -Infinity)).forEach((c, i) => (c.semanticRank = i + 1));
  const ranked = fused.sort(byScore((c) => score.get(c.id)!)).slice(0, req.limit);
  const hits = ranked.map((c, i) => {
    const h = hitOf(c, parsed);
    h.match.fused_rank = i + 1;
    h.match.fused_score = round(score.get(c.id)!);
    return h;
  });
  return { hits, noMatch: false, absent, dropped: parsed.dropped, ...(best !== undefined ? { bestSimilarity: best } : {}) };
}

/** A chunk containing query words: its weights of the query's terms and its length (from the postings). */
interface WordHit {
  id: string;
  termWeights: Record<string, number>;
  termCount: number;
}

/**
 * Chunks containing the query's words, from the caller's postings of its terms, and each word's
 * document frequency (the chunks holding any of its variants).
 */
async function wordHits(store: KnowledgeReads, q: ParsedQuery, terms: string[]): Promise<{ hits: WordHit[]; df: number[] }> {
  const postings = await store.postings(terms);
  const hits = new Map<string, WordHit>();
  for (const [t, list] of postings) {
    for (const [id, p] of list) {
      let h = hits.get(id);
      if (!h) hits.set(id, (h = { id, termWeights: {}, termCount: p.length }));
      h.termWeights[t] = p.weight;
    }
  }
  const df = q.words.map((w) => new Set(w.variants.flatMap((v) => [...(postings.get(v)?.keys() ?? [])])).size);
  return { hits: [...hits.values()], df };
}

/**
 * The ranked candidates (best first) whose chunks are the caller's, live and match the filters,
 * until `want` are found or LEXICAL_CAP were read: the vector query's hits already are; the
 * others' chunks are read by id, a page at a time (with their vectors in hybrid mode, for their similarity).
 */
async function liveMatching(store: KnowledgeReads, ranked: Candidate[], filters: Filters, want: number, withVectors: boolean): Promise<Candidate[]> {
  const kept: Candidate[] = [];
  let read = 0;
  let i = 0;
  while (i < ranked.length && kept.length < want && read < LEXICAL_CAP) {
    const page: Candidate[] = [];
    for (; i < ranked.length && page.filter((c) => !c.chunk).length < Math.min(want - kept.length, LEXICAL_CAP - read); i++) page.push(ranked[i]!);
    const unread = page.filter((c) => !c.chunk);
    read += unread.length;
    const chunks = await store.liveMatching(
      unread.map((c) => c.id),
      filters,
      withVectors,
    );
    for (const c of page) {
      if (!c.chunk) {
        const read = chunks.get(c.id);
        if (!read) continue;
        c.chunk = read.chunk;
        c.tags = read.chunk.tags;
        if (read.vector) c.vector = read.vector;
      }
      kept.push(c);
    }
  }
  return kept;
}

function bm25(c: Candidate, q: ParsedQuery, idf: number[], avgLength: number): number {
  let score = 0;
  q.words.forEach((w, i) => {
    const tf = w.variants.reduce((n, v) => n + (c.termWeights[v] ?? 0), 0);
    if (tf > 0) score += idf[i]! * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * c.termCount) / avgLength)));
  });
  return score;
}

/** Reads the chunks (and vectors) of candidates that have none yet; ones gone meanwhile stay without. */
async function readChunks(store: KnowledgeReads, cs: Candidate[], withVectors: boolean): Promise<void> {
  const need = cs.filter((c) => !c.chunk || (withVectors && !c.vector && c.similarity === undefined));
  if (!need.length) return;
  const read = await store.chunksById(
    need.map((c) => c.id),
    withVectors,
  );
  for (const c of need) {
    const r = read.get(c.id);
    if (!r) continue;
    c.chunk = r.chunk;
    if (r.vector) c.vector = r.vector;
  }
}

const searchable = (c: Chunk) => `${c.title}\n${c.author}\n${c.tags.join(" ")}\n${c.content}`;

function hitOf(c: Candidate, q: ParsedQuery): SearchHit {
  const found = q.words.filter((w) => w.variants.some((v) => (c.termWeights[v] ?? 0) > 0)).map((w) => w.text);
  const phrases = c.chunk ? q.phrases.filter((p) => containsPhrase(searchable(c.chunk!), p)).map((p) => `"${p.text}"`) : [];
  const match: Match = {
    terms: [...phrases, ...found],
    ...(c.similarity !== undefined ? { similarity: c.similarity } : {}),
    ...(c.semanticRank !== undefined ? { semantic_rank: c.semanticRank } : {}),
    ...(c.lexicalRank !== undefined ? { lexical_rank: c.lexicalRank, lexical_score: round(c.lexical) } : {}),
  };
  return { chunk: c.chunk!, ...(c.similarity !== undefined ? { similarity: c.similarity } : {}), match };
}

const byScore =
  (f: (c: Candidate) => number) =>
  (a: Candidate, b: Candidate): number =>
    f(b) - f(a) || (b.similarity ?? -Infinity) - (a.similarity ?? -Infinity) || a.id.localeCompare(b.id);

const round = (n: number) => Math.round(n * 10_000) / 10_000;
