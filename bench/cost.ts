// What a tool call costs, counted as the bill counts it: per call, CPU seconds and instance seconds
// (the wall time of one call served alone: an upper bound, since Cloud Run bills an instance's time
// once for the calls it serves together), Firestore document reads and writes, and the paid API
// calls it would make in production (Cloud Vision OCR calls, vision-LLM calls, texts embedded on
// Vertex; locally tesseract.js, an Ollama stand-in and the bundled model stand in and are counted).
// Each domain's server is built by the functions' own factory and called by a real MCP client
// in-process, against the emulators, on the demo data (dermal, knowledge) or data made here.
// Firestore is counted at the client's RPC layer: documents fetched by lookups, documents returned
// by queries (at least one read per query, as billed), writes in every commit. Listeners (a capture
// or a figma command waiting) are not counted. docs/cost.md turns these into money.
// `npm run bench -- cost`
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getAuth } from "firebase-admin/auth";
import { Firestore, Query } from "@google-cloud/firestore";
import type { Client } from "@modelcontextprotocol/client";
import { adminApp, firestore } from "../functions/src/platform/firebase.js";
import { TesseractOcr } from "../functions/src/platform/ocr-tesseract.js";
import { LocalEmbedder } from "../functions/src/platform/embeddings-local.js";
import { saveScreenshot } from "../functions/src/domains/fotos/store.js";
import { connectInProcess, idTokenCaller, loadDomain } from "../test/support/in-process.js";
import { ensureTestFonts, piiScreen } from "../test/fotos/vision-fixtures.js";
import { DEMO_USERS } from "../scripts/demo/users.js";
import { ensureDemoUsers } from "../scripts/demo/auth.js";
import type { DemoContext } from "../scripts/demo/context.js";

// The tools' own log lines (JSON on stdout) are not figures: left out of what is recorded.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = ((chunk: string | Uint8Array, ...rest: never[]) => (String(chunk).startsWith('{"severity"') ? true : write(chunk, ...rest))) as typeof process.stdout.write;

const N = Number(process.env.COST_CALLS ?? 8);
const count = { reads: 0, writes: 0, ocr: 0, llm: 0, embedded: 0 };

// Firestore: lookups and commits at the RPC layer, query results where the snapshot is made.
const proto = Firestore.prototype as unknown as { request: (m: string, r: any, ...rest: unknown[]) => Promise<unknown>; requestStream: (m: string, b: boolean, r: any, ...rest: unknown[]) => Promise<unknown> };
const request = proto.request;
proto.request = function (method, req, ...rest) {
  if (method === "commit") count.writes += req?.writes?.length ?? 0;
  return request.call(this, method, req, ...rest);
};
const requestStream = proto.requestStream;
proto.requestStream = function (method, bidi, req, ...rest) {
  if (method === "batchGetDocuments") count.reads += req?.documents?.length ?? 0;
  return requestStream.call(this, method, bidi, req, ...rest);
};
const queryGet = Query.prototype.get;
Query.prototype.get = async function (this: Query) {
  const snap = await queryGet.call(this);
  count.reads += Math.max(1, snap.size);
  return snap;
} as typeof queryGet;
// Paid calls in production, counted where the local stand-ins run.
const recognize = TesseractOcr.prototype.recognize;
TesseractOcr.prototype.recognize = function (...args) {
  count.ocr++;
  return recognize.apply(this, args);
};
const embed = LocalEmbedder.prototype.embed;
LocalEmbedder.prototype.embed = function (texts, task) {
  count.embedded += texts.length;
  return embed.call(this, texts, task);
};

const ollama = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    count.llm++;
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ model: "llava", created_at: new Date().toISOString(), message: { role: "assistant", content: "A form." }, done: true, prompt_eval_count: 1200, eval_count: 80 }));
  });
});
await new Promise<void>((resolve) => ollama.listen(0, "127.0.0.1", resolve));
const ollamaUrl = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;

// Demo data for dermal and knowledge, as `npm start` loads it.
const db = firestore();
const ctx: DemoContext = { db, auth: getAuth(adminApp()), users: DEMO_USERS, log: () => undefined };
await ensureDemoUsers(ctx.auth);
for (const domain of ["dermal", "knowledge"]) await ((await import(`../scripts/demo/${domain}.ts`)) as { seed(c: DemoContext): Promise<void> }).seed(ctx);
ensureTestFonts();

interface Row {
  domain: string;
  tool: string;
  cpuMs: number;
  wallMs: number;
  reads: number;
  writes: number;
  ocr: number;
  llm: number;
  embedded: number;
}
const rows: Row[] = [];

/** Runs `call(i)` N times after two warm-up calls; the per-call means. */
async function measure(domain: string, tool: string, call: (i: number) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < 2; i++) await call(N + i);
  const before = { ...count };
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < N; i++) await call(i);
  const wallMs = (performance.now() - started) / N;
  const used = process.cpuUsage(cpu);
  const per = (k: keyof typeof count) => (count[k] - before[k]) / N;
  rows.push({ domain, tool, cpuMs: (used.user + used.system) / 1000 / N, wallMs, reads: per("reads"), writes: per("writes"), ocr: per("ocr"), llm: per("llm"), embedded: per("embedded") });
}

const succeed = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 300)}`);
  return result;
};

// dermal: a person's own status and sessions (Alice's demo profile).
const dermal = await connectInProcess(await loadDomain("dermal"), { caller: idTokenCaller(DEMO_USERS.alice.uid) });
await measure("dermal", "get_user_status", () => succeed(dermal, "get_user_status", { uid: DEMO_USERS.alice.uid }));
await measure("dermal", "list_sessions", () => succeed(dermal, "list_sessions", { uid: DEMO_USERS.alice.uid, limit: 5 }));

// knowledge: hybrid search over Alice's demo notes (each query new: no query-vector cache hit).
const knowledge = await connectInProcess(await loadDomain("knowledge"), { caller: idTokenCaller(DEMO_USERS.alice.uid) });
const topics = ["onboarding checklist", "quarterly planning", "incident review", "design principles", "release process", "hiring loop", "customer feedback", "security review", "budget", "roadmap"];
await measure("knowledge", "search_semantic", (i) => succeed(knowledge, "search_semantic", { query: `${topics[i % topics.length]} notes ${i}` }));

// mermaid: a small flowchart, each call a little different (no cache).
const mermaid = await connectInProcess(await loadDomain("mermaid"));
const flow = (i: number) => `flowchart LR\n  A[Start ${i}] --> B{Check}\n  B -->|yes| C[Ship]\n  B -->|no| D[Fix]\n  D --> B`;
await measure("mermaid", "verify", (i) => succeed(mermaid, "verify", { code: flow(i) }));
await measure("mermaid", "svg", (i) => succeed(mermaid, "svg", { code: flow(i) }));
await measure("mermaid", "render", (i) => succeed(mermaid, "render", { code: flow(i) }));

// fotos: a 1500×1000 screen with personal data, stored fresh for every call (no OCR cache).
const uid = `cost-${Date.now().toString(36)}`;
await db.doc(`users/${uid}/fotos/settings`).set({ ai: { ollamaUrl } });
const fotos = await connectInProcess(await loadDomain("fotos"), { caller: idTokenCaller(uid) });
const screen = await piiScreen();
/** N + 2 newly stored screenshots, made before the calls are measured. */
const fresh = async () => Promise.all(Array.from({ length: N + 2 }, async () => (await saveScreenshot(uid, screen, { mode: "upload" })).id));
await measure("fotos", "list_screenshots", () => succeed(fotos, "list_screenshots", { limit: 20 }));
let ids = await fresh();
await measure("fotos", "ocr_screenshot", (i) => succeed(fotos, "ocr_screenshot", { screenshot_id: ids[i] }));
ids = await fresh();
await measure("fotos", "annotate_screenshot", (i) => succeed(fotos, "annotate_screenshot", { screenshot_id: ids[i], annotations: [{ type: "rect", x: 10, y: 10, width: 200, height: 80 }] }));
ids = await fresh();
await measure("fotos", "auto_redact_pii", (i) => succeed(fotos, "auto_redact_pii", { screenshot_id: ids[i] }));
ids = await fresh();
await measure("fotos", "analyze_screenshot", (i) => succeed(fotos, "analyze_screenshot", { screenshot_id: ids[i], provider: "ollama" }));

const f1 = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(1));
console.log(`per tool call, mean of ${N} calls after 2 warm-up calls, in one process (fotos: each call on a newly stored screenshot, stored before the calls are counted)`);
console.log("domain    | tool                | CPU ms | instance ms | Firestore reads | writes | Vision OCR calls | vision-LLM calls | texts embedded");
for (const r of rows) {
  console.log(
    `${r.domain.padEnd(9)} | ${r.tool.padEnd(19)} | ${f1(r.cpuMs).padStart(6)} | ${f1(r.wallMs).padStart(11)} | ${f1(r.reads).padStart(15)} | ${f1(r.writes).padStart(6)} | ${f1(r.ocr).padStart(16)} | ${f1(r.llm).padStart(16)} | ${f1(r.embedded).padStart(14)}`,
  );
}
await Promise.all([dermal, knowledge, mermaid, fotos].map((c) => c.close()));
ollama.close();
process.exit(0);
