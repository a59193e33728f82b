// The production embedding path: the real @google/genai client (Vertex mode) against a local
// HTTP server that speaks Vertex AI's `:predict` wire format for gemini-embedding-001. Covers the
// request shape, task types, 768 dimensions, retry with backoff on 429/5xx, permanent failures,
// and that vectors from this model never mix with the local model's in a search.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { OAuth2Client } from "google-auth-library";
import { adminDb, createUser } from "../support/emulators.js";
import { callTool, connect, textOf } from "../support/mcp.js";
import { configuredProvider, EmbeddingError } from "../../functions/src/platform/embeddings.js";
import { VertexEmbedder, type VertexEmbedderOptions } from "../../functions/src/platform/embeddings-vertex.js";
import { importFiles } from "../../functions/src/domains/knowledge/ingest/import.js";
import { KnowledgeStore } from "../../functions/src/domains/knowledge/store.js";
import { search } from "../../functions/src/domains/knowledge/search.js";
import type { RequestContext } from "../../functions/src/mcp/define.js";
import { writeCorpus } from "./corpus.js";

interface Seen {
  path: string;
  auth: string | undefined;
  body: { instances: { content: string; task_type: string }[]; parameters: { outputDimensionality: number } };
}

let server: Server;
let baseUrl: string;
let seen: Seen[] = [];
/** Status to answer for the next requests, in order; then 200. */
let script: number[] = [];
/** Most instances the fake endpoint takes per request (as some regions do); more is a 400 saying so. */
let maxInstances = 250;
let refusal = (max: number, n: number) => `${max} instance(s) is allowed per prediction. Actual: ${n}`;

const vectorFor = (text: string) => Array.from({ length: 768 }, (_, i) => Math.sin(i + text.length) * 3); // not unit length on purpose

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const parsed = JSON.parse(await body(req)) as Seen["body"];
    seen.push({ path: req.url ?? "", auth: req.headers.authorization, body: parsed });
    const status = script.shift() ?? 200;
    res.setHeader("content-type", "application/json");
    if (!req.url?.endsWith("/models/gemini-embedding-001:predict")) {
      res.statusCode = 404;
      return res.end(JSON.stringify({ error: { code: 404, message: `no route ${req.url}`, status: "NOT_FOUND" } }));
    }
    if (status !== 200) {
      res.statusCode = status;
      const name = status === 429 ? "RESOURCE_EXHAUSTED" : status === 403 ? "PERMISSION_DENIED" : "INTERNAL";
      return res.end(JSON.stringify({ error: { code: status, message: `fake ${name.toLowerCase()}`, status: name } }));
    }
    if (parsed.instances.length > maxInstances) {
      res.statusCode = 400;
      const message = refusal(maxInstances, parsed.instances.length);
      return res.end(JSON.stringify({ error: { code: 400, message, status: "INVALID_ARGUMENT" } }));
    }
    const predictions = parsed.instances.map((i) => ({ embeddings: { values: vectorFor(i.content), statistics: { truncated: false, token_count: 5 } } }));
    res.end(JSON.stringify({ predictions }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  script = [];
  maxInstances = 250;
  refusal = (max, n) => `${max} instance(s) is allowed per prediction. Actual: ${n}`;
});

function vertex(extra: Partial<VertexEmbedderOptions> = {}): { embedder: VertexEmbedder; delays: number[]; warnings: string[] } {
  // A signed-in OAuth client with a fixed access token: google-auth-library adds the header
  // without fetching anything (in production: Application Default Credentials).
  const authClient = new OAuth2Client();
  authClient.setCredentials({ access_token: "test-access-token", expiry_date: Date.now() + 3_600_000 });
  const delays: number[] = [];
  const warnings: string[] = [];
  const embedder = new VertexEmbedder({
    project: "demo-project",
    location: "us-central1",
    baseUrl,
    googleAuthOptions: { authClient },
    sleep: async (ms) => {
      delays.push(ms);
    },
    warn: (message) => void warnings.push(message),
    ...extra,
  });
  return { embedder, delays, warnings };
}

/** A vector as the adapter returns it for `text`: the fake's, normalised. */
const expected = (text: string) => {
  const raw = vectorFor(text);
  const norm = Math.hypot(...raw);
  return raw.map((x) => x / norm);
};

describe("gemini-embedding-001 through @google/genai (Vertex mode)", () => {
  test("speaks the :predict wire format with task types and 768 dimensions", async () => {
    const { embedder } = vertex();
    expect(embedder.model).toBe("gemini-embedding-001");
    const docs = await embedder.embed(["first chunk", "second chunk"], "document");
    const [query] = await embedder.embed(["a question"], "query");
    expect(seen).toHaveLength(2); // the two documents in one request
    expect(seen[0]!.path).toBe("/v1beta1/projects/demo-project/locations/us-central1/publishers/google/models/gemini-embedding-001:predict");
    expect(seen[0]!.auth).toBe("Bearer test-access-token");
    const bodies = seen.map((s) => s.body);
    expect(bodies.map((b) => b.instances)).toEqual([
      [
        { content: "first chunk", task_type: "RETRIEVAL_DOCUMENT" },
        { content: "second chunk", task_type: "RETRIEVAL_DOCUMENT" },
      ],
      [{ content: "a question", task_type: "RETRIEVAL_QUERY" }],
    ]);
    expect(bodies.every((b) => b.parameters.outputDimensionality === 768)).toBe(true);
    for (const v of [...docs, query!]) {
      expect(v).toHaveLength(768);
      expect(Math.hypot(...v)).toBeCloseTo(1, 6); // normalised for cosine
    }
    const raw = vectorFor("first chunk");
    expect(docs[0]![5]).toBeCloseTo(raw[5]! / Math.hypot(...raw), 9);
  });

  test("300 texts go in two requests of at most 250, and the vectors come back in the texts' order", async () => {
    const { embedder, warnings } = vertex();
    const texts = Array.from({ length: 300 }, (_, i) => `text ${i} ${"x".repeat(i % 7)}`);
    const vectors = await embedder.embed(texts, "document");
    expect(seen.map((s) => s.body.instances.length).sort((a, b) => b - a)).toEqual([250, 50]);
    expect(seen.flatMap((s) => s.body.instances.map((i) => i.content)).sort()).toEqual([...texts].sort());
    vectors.forEach((v, i) => expect(v[3]).toBeCloseTo(expected(texts[i]!)[3]!, 9));
    expect(warnings).toEqual([]);
  });

  test("long texts go in smaller requests: about 20,000 tokens per request at most", async () => {
    const { embedder } = vertex();
    const texts = Array.from({ length: 100 }, (_, i) => `${i} ${"word ".repeat(300)}`); // ~1,500 characters: ~500 tokens each
    const vectors = await embedder.embed(texts, "document");
    expect(vectors).toHaveLength(100);
    for (const s of seen) expect(s.body.instances.reduce((n, i) => n + i.content.length, 0) / 3).toBeLessThanOrEqual(20_000);
    expect(seen.length).toBe(3); // 40 + 40 + 20
    vectors.forEach((v, i) => expect(v[7]).toBeCloseTo(expected(texts[i]!)[7]!, 9));
  });

  test("an endpoint that takes one text per request: the refused batch is sent again one by one, and so is everything after it (said once in the log)", async () => {
    maxInstances = 1;
    const { embedder, warnings, delays } = vertex();
    const texts = ["alpha", "beta", "gamma"];
    const vectors = await embedder.embed(texts, "document");
    vectors.forEach((v, i) => expect(v[1]).toBeCloseTo(expected(texts[i]!)[1]!, 9));
    expect(seen.map((s) => s.body.instances.length)).toEqual([3, 1, 1, 1]);
    expect(embedder.batchTexts).toBe(1);
    expect(warnings).toEqual([
      'Vertex AI gemini-embedding-001 takes 1 text(s) per request here ("1 instance(s) is allowed per prediction. Actual: 3"); sending at most 1 per request from now on',
    ]);
    expect(delays).toEqual([]); // not a retry: nothing waits
    seen = [];
    await embedder.embed(["delta", "epsilon"], "document");
    expect(seen.map((s) => s.body.instances.length)).toEqual([1, 1]);
    expect(warnings).toHaveLength(1);
  });

  test('the other wording ("batchSize must be 1") falls back the same way', async () => {
    maxInstances = 1;
    refusal = () => "Unable to submit request because batchSize must be 1. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/text-embeddings-api";
    const { embedder, warnings } = vertex();
    const vectors = await embedder.embed(["one", "two"], "document");
    expect(vectors[1]![0]).toBeCloseTo(expected("two")[0]!, 9);
    expect(seen.map((s) => s.body.instances.length)).toEqual([2, 1, 1]);
    expect(warnings).toHaveLength(1);
  });

  test("an endpoint that takes 5 texts per request gets batches of 5, retried as usual on 429", async () => {
    maxInstances = 5;
    const { embedder, delays } = vertex();
    const texts = Array.from({ length: 12 }, (_, i) => `t${i}`);
    script = [200, 429]; // the first request is refused as too large (400), the second hits a rate limit
    const vectors = await embedder.embed(texts, "document");
    vectors.forEach((v, i) => expect(v[2]).toBeCloseTo(expected(texts[i]!)[2]!, 9));
    expect(seen[0]!.body.instances).toHaveLength(12);
    expect(seen.slice(1).map((s) => s.body.instances.length).sort()).toEqual([2, 5, 5, 5].sort()); // one batch of 5 twice (429, then 200)
    expect(delays).toEqual([1000]);
    expect(embedder.batchTexts).toBe(5);
  });

  test("a 400 that is not about batch size is not retried smaller: it fails as before", async () => {
    const { embedder, warnings } = vertex();
    script = [400];
    const err = (await embedder.embed(["a", "b"], "document").catch((e: unknown) => e)) as EmbeddingError;
    expect(err.reason).toBe("invalid");
    expect(err.message).toBe("Vertex AI refused the embedding request (HTTP 400). Check the project, region and the service account's aiplatform.user role");
    expect(seen).toHaveLength(1);
    expect(warnings).toEqual([]);
  });

  test("a 429 is retried after 1 s and then succeeds", async () => {
    const { embedder, delays } = vertex();
    script = [429];
    const [v] = await embedder.embed(["rate limited once"], "query");
    expect(v).toHaveLength(768);
    expect(seen).toHaveLength(2);
    expect(delays).toEqual([1000]);
  });

  test("server errors back off 1 s, then 2 s", async () => {
    const { embedder, delays } = vertex();
    script = [503, 500];
    await embedder.embed(["flaky"], "document");
    expect(seen).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
  });

  test("baseDelayMs scales the backoff: each retry asks to sleep twice as long", async () => {
    const { embedder, delays } = vertex({ baseDelayMs: 40 });
    script = [429, 429];
    await embedder.embed(["slow"], "query");
    expect(seen).toHaveLength(3);
    expect(delays).toEqual([40, 80]);
  });

  test("a permanent failure gives up after 3 attempts with a clear error", async () => {
    const { embedder, delays } = vertex();
    script = [500, 500, 500, 500];
    const err = await embedder.embed(["doomed"], "query").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EmbeddingError);
    expect((err as EmbeddingError).reason).toBe("unavailable");
    expect((err as Error).message).toBe("The embedding service (Vertex AI gemini-embedding-001) did not answer after 3 attempts (last: HTTP 500). Try again in a minute");
    expect((err as EmbeddingError).detail).toBe("fake internal"); // upstream text: for the logs only
    expect(seen).toHaveLength(3);
    expect(delays).toEqual([1000, 2000]);
  });

  test("a refusal (403) is not retried and says what to check", async () => {
    const { embedder, delays } = vertex();
    script = [403];
    const err = (await embedder.embed(["forbidden"], "query").catch((e: unknown) => e)) as EmbeddingError;
    expect(err.reason).toBe("config");
    expect(err.message).toBe("Vertex AI refused the embedding request (HTTP 403). Check the project, region and the service account's aiplatform.user role");
    expect(err.detail).toBe("fake permission_denied");
    expect(seen).toHaveLength(1);
    expect(delays).toEqual([]);
  });

  test("upstream error text (project ids, IAM details) never reaches a caller: the adapter keeps it in `detail`, the domain answers a fixed sentence", async () => {
    const { asEmbeddingToolError } = await import("../../functions/src/domains/knowledge/embedding.js");
    const logged: unknown[] = [];
    const log = { debug() {}, info() {}, warn() {}, error: (_m: string, f?: unknown) => void logged.push(f), child: () => log };
    for (const status of [403, 500]) {
      const { embedder } = vertex();
      script = status === 403 ? [403] : [500, 500, 500];
      const err = (await embedder.embed(["x"], "query").catch((e: unknown) => e)) as EmbeddingError;
      expect(err.message).not.toMatch(/fake|permission_denied|demo-project/);
      const toolError = asEmbeddingToolError(err, { log, requestId: "r1" });
      expect(toolError.toText()).toBe(
        status === 403
          ? "Error: Semantic search is not configured on this server; the operator can find the cause in the server logs (503)"
          : "Error: Semantic search is temporarily unavailable; try again later (503)",
      );
      expect(JSON.stringify(logged.at(-1))).toContain(status === 403 ? "fake permission_denied" : "fake internal");
    }
  });

  test("GOOGLE_VERTEX_BASE_URL is honoured when no base URL is given", async () => {
    process.env.GOOGLE_VERTEX_BASE_URL = baseUrl;
    try {
      const { embedder } = vertex({ baseUrl: undefined });
      await embedder.embed(["via env"], "query");
      expect(seen).toHaveLength(1);
    } finally {
      delete process.env.GOOGLE_VERTEX_BASE_URL;
    }
  });

  test("chunks imported with gemini-embedding-001 are not searched with another model's vectors: the error says to re-import", async () => {
    const user = await createUser();
    const { embedder } = vertex();
    const corpus = await writeCorpus();
    const report = await importFiles([corpus.files.readwise], { db: adminDb(), uid: user.uid, embedder });
    expect(report.documents.imported).toBe(2);
    const stored = await adminDb().collection("kb_items").where("owner_uid", "==", user.uid).get();
    expect(stored.size).toBe(6);
    expect(stored.docs.every((d) => d.get("embedding_model") === "gemini-embedding-001")).toBe(true);
    // The function in the emulator embeds queries with the local model.
    const client = await connect("knowledge", { token: user.token });
    try {
      const r = await callTool(client, "search_semantic", { query: "soil" });
      expect(r.isError).toBe(true);
      expect(textOf(r)).toContain("Your knowledge base was embedded with gemini-embedding-001");
      expect(textOf(r)).toContain("Re-import your files");
    } finally {
      await client.close();
    }
  });

  test("hybrid search over gemini-embedding-001 vectors: the words found and the similarity from the Vertex query vector; lexical mode needs no embedding", async () => {
    const user = await createUser();
    const { embedder } = vertex();
    const corpus = await writeCorpus();
    await importFiles([corpus.files.readwise, corpus.files.clippings], { db: adminDb(), uid: user.uid, embedder });
    const log = { debug() {}, info() {}, warn() {}, error() {}, child: () => log };
    const ctx = { log, requestId: "vertex-hybrid" } as unknown as RequestContext;
    seen = [];
    const out = await search(new KnowledgeStore(adminDb(), user.uid), { query: "phytoplankton oxygen", limit: 20, mode: "hybrid", filters: {} }, ctx, Promise.resolve(13), embedder);
    expect(seen.map((s) => s.body.instances.map((i) => i.task_type))).toEqual([["RETRIEVAL_QUERY"]]);
    // The fake's vectors carry no meaning (they depend on the text's length), so the fused order is
    // not asserted beyond being by fused score; the word side and the similarities are.
    const top = out.hits.find((h) => h.match.lexical_rank === 1)!;
    expect(top.chunk.content).toContain("Phytoplankton");
    expect(top.match.terms).toEqual(["phytoplankton", "oxygen"]);
    const fused = out.hits.map((h) => h.match.fused_score!);
    expect([...fused].sort((a, b) => b - a)).toEqual(fused);
    expect(out.hits).toHaveLength(13); // every chunk: both sides' candidates
    expect(out.hits.map((h) => h.match.fused_rank)).toEqual(out.hits.map((_, i) => i + 1));
    const q = expected("phytoplankton oxygen");
    const d = expected(top.chunk.content);
    expect(top.similarity).toBeCloseTo(q.reduce((sum, x, i) => sum + x * d[i]!, 0), 3);
    // The served function embeds with the local model, so semantic search refuses this base (above),
    // but its words are searchable.
    const client = await connect("knowledge", { token: user.token });
    try {
      const r = await callTool(client, "search_semantic", { query: "Phytoplankton", mode: "lexical" });
      expect(r.isError, textOf(r)).toBeFalsy();
      const found = r.structuredContent as { results: { title: string; similarity?: number }[] };
      expect(found.results.map((x) => x.title)).toEqual(["Ocean Notes"]);
      expect(found.results[0]!.similarity).toBeUndefined();
    } finally {
      await client.close();
    }
  });
});

describe("provider selection", () => {
  test("EMBEDDINGS_PROVIDER wins; unset means vertex when deployed and local otherwise", () => {
    expect(configuredProvider({})).toBe("local");
    expect(configuredProvider({ K_SERVICE: "knowledge" })).toBe("vertex");
    expect(configuredProvider({ K_SERVICE: "knowledge", FUNCTIONS_EMULATOR: "true" })).toBe("local");
    expect(configuredProvider({ MCP_TARGET: "production" })).toBe("vertex");
    expect(configuredProvider({ K_SERVICE: "knowledge", EMBEDDINGS_PROVIDER: "local" })).toBe("local");
    expect(() => configuredProvider({ EMBEDDINGS_PROVIDER: "openai" })).toThrow('EMBEDDINGS_PROVIDER must be "vertex" or "local", not "openai"');
  });
});
