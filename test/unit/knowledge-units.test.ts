// Knowledge-domain checks that need no served function: every query shape store.ts builds has its
// index in firestore.indexes.json (the emulator serves any shape; production only indexed ones),
// embedding failures reach callers as fixed sentences with the details only in the log, and
// kb:import refuses to write where its vectors would be wrong.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { EmbeddingError } from "../../functions/src/platform/embeddings.js";
import { ToolError } from "../../functions/src/core/errors.js";
import { asEmbeddingToolError, EMBEDDING_NOT_CONFIGURED, EMBEDDING_UNAVAILABLE } from "../../functions/src/domains/knowledge/embedding.js";
import { metadataQuery, newestFirst, vectorQueries, type Filters, type QueryLike } from "../../functions/src/domains/knowledge/store.js";
import { packPosting, PostingChanges, POSTING_SHARDS, shardOf, unpackPosting } from "../../functions/src/domains/knowledge/postings.js";

const ROOT = join(import.meta.dirname, "..", "..");

/** A query that only records what was asked of it. */
class Recorder implements QueryLike<Recorder> {
  constructor(
    readonly wheres: { field: string; op: string }[] = [],
    readonly orders: { field: string; direction: string }[] = [],
  ) {}
  where(field: string, op: string): Recorder {
    return new Recorder([...this.wheres, { field, op }], this.orders);
  }
  orderBy(field: string, direction: "asc" | "desc"): Recorder {
    return new Recorder(this.wheres, [...this.orders, { field, direction }]);
  }
}

interface IndexField {
  fieldPath: string;
  order?: string;
  arrayConfig?: string;
  vectorConfig?: { dimension: number };
}
interface Index {
  collectionGroup: string;
  fields: IndexField[];
}

const declared = (JSON.parse(readFileSync(join(ROOT, "firestore.indexes.json"), "utf8")) as { indexes: Index[] }).indexes.filter((i) => i.collectionGroup === "kb_items");
const owned = () => new Recorder().where("owner_uid", "==");
const tag = (f: IndexField) => (f.arrayConfig ? `${f.fieldPath}:contains` : f.vectorConfig ? `${f.fieldPath}:vector${f.vectorConfig.dimension}` : `${f.fieldPath}:${f.order}`);

/** Every combination of the filters the tools and resources accept. */
function allFilters(withDates: boolean): Filters[] {
  const out: Filters[] = [];
  for (const author of [undefined, "A"])
    for (const source of [undefined, "S"])
      for (const tags of [undefined, ["x"], ["x", "y"]])
        for (const dateFrom of withDates ? [undefined, new Date(0)] : [undefined])
          for (const dateTo of withDates ? [undefined, new Date(1)] : [undefined]) out.push({ author, source, tags, dateFrom, dateTo });
  return out;
}

/** The index a vector query needs: its equality / array-contains fields, the range field next, the vector last. */
function vectorIndexFor(q: Recorder): { equalities: Set<string>; range?: string } {
  const equalities = new Set(q.wheres.filter((w) => w.op === "==" || w.op === "array-contains").map((w) => (w.op === "array-contains" ? `${w.field}:contains` : `${w.field}:ASCENDING`)));
  const ops = q.wheres.map((w) => w.op);
  expect(ops).not.toContain("array-contains-any"); // not served inside findNearest in production
  expect(ops).not.toContain("in");
  const ranges = [...new Set(q.wheres.filter((w) => [">", ">=", "<", "<="].includes(w.op)).map((w) => w.field))];
  expect(ranges.length).toBeLessThanOrEqual(1);
  return { equalities, ...(ranges[0] ? { range: `${ranges[0]}:ASCENDING` } : {}) };
}

function matchesVector(index: Index, need: { equalities: Set<string>; range?: string }): boolean {
  const fields = index.fields.map(tag);
  if (fields.at(-1) !== "embedding:vector768") return false;
  const rest = fields.slice(0, -1);
  const head = need.range ? rest.slice(0, -1) : rest;
  if (need.range && rest.at(-1) !== need.range) return false;
  return head.length === need.equalities.size && head.every((f) => need.equalities.has(f));
}

function matchesOrdered(index: Index, q: Recorder): boolean {
  const fields = index.fields.map(tag);
  if (fields.some((f) => f.includes(":vector"))) return false;
  const equalities = new Set(q.wheres.map((w) => (w.op.startsWith("array-contains") ? `${w.field}:contains` : `${w.field}:ASCENDING`)));
  // The document id ordering the listing adds is implicit in every index (same direction as the last field).
  const orders = q.orders.filter((o) => o.field !== "__name__").map((o) => `${o.field}:${o.direction === "desc" ? "DESCENDING" : "ASCENDING"}`);
  const head = fields.slice(0, fields.length - orders.length);
  return fields.slice(head.length).join() === orders.join() && head.length === equalities.size && head.every((f) => equalities.has(f));
}

describe("firestore.indexes.json serves every query store.ts builds", () => {
  test("vector queries (search_semantic with any filters, get_related_chunks): one declared index each, no index unused", () => {
    const used = new Set<Index>();
    for (const filters of allFilters(true)) {
      const queries = vectorQueries(owned(), "model", filters);
      expect(queries).toHaveLength(filters.tags?.length ?? 1); // one findNearest per tag
      for (const q of queries) {
        const need = vectorIndexFor(q);
        const index = declared.find((i) => matchesVector(i, need));
        expect(index, `no vector index for ${JSON.stringify(q.wheres)}`).toBeDefined();
        used.add(index!);
      }
    }
    const vectorIndexes = declared.filter((i) => i.fields.some((f) => f.vectorConfig));
    expect(vectorIndexes.filter((i) => !used.has(i)).map((i) => i.fields.map(tag).join(", "))).toEqual([]);
  });

  test("metadata queries and the resource listing: one declared index each, no index unused (the word index is read by id, with no query)", () => {
    const used = new Set<Index>();
    const queries = [
      ...allFilters(false).map((f) => metadataQuery(owned(), f)),
      newestFirst(owned()).orderBy("__name__", "desc"),
    ];
    for (const q of queries) {
      const index = declared.find((i) => matchesOrdered(i, q));
      expect(index, `no index for ${JSON.stringify(q)}`).toBeDefined();
      used.add(index!);
    }
    const plain = declared.filter((i) => !i.fields.some((f) => f.vectorConfig));
    expect(plain.filter((i) => !used.has(i)).map((i) => i.fields.map(tag).join(", "))).toEqual([]);
  });
});

describe("embedding failures as tool errors", () => {
  const upstream = "Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/secret-project-42/locations/us-central1'";
  const capture = () => {
    const lines: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    const record = (message: string, fields?: Record<string, unknown>) => void lines.push({ message, fields });
    const log = { debug: record, info: record, warn: record, error: record, child: () => log };
    return { lines, ctx: { log, requestId: "req-123" } };
  };

  test.each([
    ["config", 403, EMBEDDING_NOT_CONFIGURED],
    ["unavailable", 503, EMBEDDING_UNAVAILABLE],
  ] as const)("%s: a fixed sentence for the caller (503), the upstream detail only in the log with the request id", (reason, status, sentence) => {
    const { lines, ctx } = capture();
    const err = asEmbeddingToolError(new EmbeddingError(`Vertex AI refused the embedding request (HTTP ${status})`, reason, status, upstream), ctx);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.toText()).toBe(`Error: ${sentence} (503)`);
    expect(err.message).not.toContain("secret-project-42");
    expect(err.message).not.toContain("aiplatform");
    expect(lines).toHaveLength(1);
    expect(lines[0]!.fields).toMatchObject({ requestId: "req-123", reason, status, detail: upstream });
  });

  test("an unexpected exception is 'temporarily unavailable', logged", () => {
    const { lines, ctx } = capture();
    const err = asEmbeddingToolError(new Error(`socket hang up at ${upstream}`), ctx);
    expect(err.toText()).toBe(`Error: ${EMBEDDING_UNAVAILABLE} (503)`);
    expect(JSON.stringify(lines[0]!.fields)).toContain("secret-project-42");
  });
});

describe("kb:import refuses to write where its vectors would be wrong", () => {
  const run = (env: Record<string, string>) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(FIRESTORE_EMULATOR_HOST|FIREBASE_|GCLOUD_PROJECT|GOOGLE_CLOUD_PROJECT|MCP_TARGET|EMBEDDINGS_PROVIDER|K_SERVICE|FUNCTIONS_EMULATOR)/.test(k)));
    return spawnSync(join(ROOT, "node_modules", ".bin", "tsx"), ["scripts/kb-import.ts", "--user", "someone", "notes/"], { cwd: ROOT, env: { ...clean, ...env }, encoding: "utf8", timeout: 60_000 });
  };

  test("no emulator and no MCP_TARGET=production: refused, with both ways to go on", () => {
    const r = run({ GCLOUD_PROJECT: "real-project" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("production was not asked for");
    expect(r.stderr).toContain("MCP_TARGET=production GCLOUD_PROJECT=<project>");
  });

  test("production with the local model: refused, saying why", () => {
    const r = run({ MCP_TARGET: "production", GCLOUD_PROJECT: "real-project", EMBEDDINGS_PROVIDER: "local" });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/Refusing to import into production with the local embedding model/);
    expect(r.stderr).toContain("could never be searched");
  });
});

describe("posting shards (the word index)", () => {
  test("a posting keeps its weight and length; later changes of one posting win; a term always maps to the same shard", () => {
    expect(unpackPosting(packPosting(7, 183))).toEqual({ weight: 7, length: 183 });
    expect(unpackPosting(packPosting(3, 5000)).length).toBe(1023); // lengths past the slot saturate
    const changes = new PostingChanges().add({ id: "c1", term_weights: { harbour: 2, ship: 1 }, term_count: 40 });
    changes.merge(new PostingChanges().remove("c1", ["ship"]).add({ id: "c2", term_weights: { ship: 4 }, term_count: 10 }));
    const entries = [...changes.shards.values()].flatMap((terms) => [...terms].flatMap(([t, ids]) => [...ids].map(([id, v]) => [t, id, v])));
    expect(entries.sort()).toEqual([["harbour", "c1", packPosting(2, 40)], ["ship", "c1", null], ["ship", "c2", packPosting(4, 10)]].sort());
    expect(shardOf("harbour")).toBe(shardOf("harbour"));
    const used = new Set(Array.from({ length: 2000 }, (_, i) => shardOf(`term${i}`)));
    expect(Math.min(...used)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...used)).toBeLessThan(POSTING_SHARDS);
    expect(used.size).toBe(POSTING_SHARDS); // 2,000 terms reach every shard
  });
});
