// What a tool call costs, counted as the bill counts it: per call, CPU seconds and instance seconds
// (the wall time of one call served alone: an upper bound, since Cloud Run bills an instance's time
// once for the calls it serves together), Firestore document reads and writes, and the paid API
// calls it would make in production (Cloud Vision OCR calls, vision-LLM calls, texts embedded on
// Vertex; locally tesseract.js, an Ollama stand-in and the bundled model stand in and are counted).
// Each domain's server is built by the functions' own factory and called by a real MCP client
// in-process, against the emulators, on the demo data (dermal, knowledge) or data made here.
// Firestore is counted at the client's RPC layer: documents fetched by lookups, documents returned
// by queries (at least one read per query, as billed), writes in every commit, and for listeners
// the documents their snapshots deliver (the desktop agent's listener, mirrored here on its query).
// What devices call goes through the functions served in this process over HTTP as the Functions
// framework serves them (oauth, fotos, figma behind one local front, so their CPU, Firestore use and
// request time are counted too): take_screenshot answered by the real desktop agent (its bundle, on
// an Xvfb display), the figma tools answered by the plugin's own relay client and command handlers
// (test/figma/plugin-process.ts, listening in Firestore; its listener and writes mirrored here), the
// oauth function's sign-in and token refresh; and what an agent and an open plugin cost per hour
// while nothing is asked of them (heartbeats, keep-alives, listeners). docs/cost.md turns these into money.
// `npm run bench -- cost`
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync, writeFileSync } from "node:fs";
import { getAuth } from "firebase-admin/auth";
import { Firestore, Query } from "@google-cloud/firestore";
import type { Client } from "@modelcontextprotocol/client";
import { FUNCTIONS } from "../functions/src/core/manifest.js";
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
const COST_PAGE = new URL("../docs/cost.md", import.meta.url);
const count = { reads: 0, writes: 0, ocr: 0, llm: 0, embedded: 0 };
/** Time requests to the functions served here were in flight, per function (ms). */
const served = { ms: 0, requests: 0 };

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
  /** Instance time of the requests devices made to answer the call (agent, plugin), ms per call. */
  deviceMs?: number;
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

// Devices: the functions they call, served in this process (the emulator's URLs on a local
// front, so tokens, discovery and pairing work as on the emulator), and the test harnesses' real
// device flows pointed at it.
process.env.FUNCTIONS_EMULATOR = "true";
const framework = await import("@google-cloud/functions-framework");
const { getTestServer } = await import("@google-cloud/functions-framework/testing");
const { serveDomain } = await import("../functions/src/http/endpoint.js");
const LOADERS = {
  oauth: () => import("../functions/src/domains/oauth/index.js"),
  fotos: () => import("../functions/src/domains/fotos/index.js"),
  figma: () => import("../functions/src/domains/figma/index.js"),
} as const;
const apps = new Map<string, (req: IncomingMessage, res: ServerResponse) => void>();
for (const [name, load] of Object.entries(LOADERS)) {
  framework.http(name, serveDomain(name, load as never) as never);
  apps.set(name, getTestServer(name).listeners("request")[0] as never);
}
const front = createServer((req, res) => {
  const m = /^\/[^/]+\/us-central1\/([a-z]+)(\/[^]*)?$/.exec(req.url ?? "");
  const app = m && apps.get(m[1]!);
  if (!app) {
    res.statusCode = 404;
    return res.end();
  }
  req.url = m[2] || "/";
  const started = performance.now();
  served.requests++;
  res.once("close", () => (served.ms += performance.now() - started));
  app(req, res);
});
await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
process.env.FUNCTIONS_EMULATOR_HOST = `127.0.0.1:${(front.address() as AddressInfo).port}`;
// Loaded now: they read the functions' address when loaded.
const { createUser } = await import("../test/support/emulators.js");
const { pairDevice, refreshDevice, signInCookie } = await import("../test/support/devices.js");
const agents = await import("../test/fotos/agent-harness.js");
const { confirmUserCode } = await import("../test/support/devices.js");
const { startPlugin } = await import("../test/figma/plugin.js");
const { oauthUrl } = await import("../test/support/devices.js");
const IDLE_SECONDS = Number(process.env.COST_IDLE_SECONDS ?? 60);

interface Idle {
  what: string;
  cpuMs: number;
  instanceMs: number;
  requests: number;
  reads: number;
  writes: number;
}
const idle: Idle[] = [];
/** What happens in this process over IDLE_SECONDS while a device is connected and nothing is asked, per hour. */
async function measureIdle(what: string): Promise<void> {
  const before = { ...count, ...served };
  const cpu = process.cpuUsage();
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const used = process.cpuUsage(cpu);
  const perHour = 3600 / IDLE_SECONDS;
  idle.push({
    what,
    cpuMs: ((used.user + used.system) / 1000) * perHour,
    instanceMs: (served.ms - before.ms) * perHour,
    requests: (served.requests - before.requests) * perHour,
    reads: (count.reads - before.reads) * perHour,
    writes: (count.writes - before.writes) * perHour,
  });
}
/**
 * measure() with the instance time of the requests devices made during the calls (ms per call);
 * `route`: the call is itself a request to a function served here (oauth), whose time is the instance's.
 */
async function measureWithDevices(domain: string, tool: string, call: (i: number) => Promise<unknown>, route = false): Promise<void> {
  const before = served.ms;
  await measure(domain, tool, call);
  const row = rows[rows.length - 1]!;
  const ms = (served.ms - before) / (N + 2);
  if (route) row.wallMs = ms;
  else row.deviceMs = ms;
}

// fotos take_screenshot, answered by the desktop agent on an Xvfb display (production heartbeat).
await agents.ensureX11Packages();
const display = await agents.startXvfb(1920, 1080);
const window = await agents.openWindow(display.display, "Cost bench", "Quarterly numbers: revenue 1,204,000; churn 2.1 %", "90x20+200+150");
const person = await createUser();
const home = agents.newAgentHome();
await agents.pairAgent(home, "cost-agent", (code) => confirmUserCode(person, code));
// The agent's listener, mirrored: the documents its query delivers are reads billed to the deployment.
const mirror = db.collection("fotosCaptureRequests").where("owner", "==", person.uid).where("status", "==", "pending").orderBy("createdAt")
  .onSnapshot((snap) => void (count.reads += snap.docChanges().length));
const agent = await agents.runAgent(home, display.display, { FOTOS_AGENT_HEARTBEAT_MS: undefined });
const capturer = await connectInProcess(await loadDomain("fotos"), { caller: idTokenCaller(person.uid) });
await measureWithDevices("fotos", "take_screenshot", () => succeed(capturer, "take_screenshot", { mode: "fullscreen" }));
await measureIdle("desktop agent running (heartbeats, listener)");
await agent.stop();
mirror();
await capturer.close();
window.close();
await display.stop();

// figma: the plugin's relay and command handlers in their own process, paired with the person.
const device = await pairDevice(person, "figma-plugin", "Figma (cost bench)");
const plugin = await startPlugin({ credential: { deviceId: device.deviceId, refreshToken: device.credential }, accessToken: device.accessToken, tokenUrl: oauthUrl("/token"), fileName: "Landing page" });
// The plugin listens in Firestore (its room's pending commands) and writes from its own process
// (a command marked delivered, its keep-alive on the session): mirrored here, counted as billed.
const { RELAY_COLLECTIONS, LAST_SEEN_FIELD } = await import("../functions/src/contracts/figma-plugin.js");
const session = db.collection(RELAY_COLLECTIONS.sessions).doc(plugin.roomId);
const commandStates = new Map<string, unknown>();
let lastSeen: unknown;
const pluginMirrors = [
  session.collection(RELAY_COLLECTIONS.commands).where("state", "==", "pending").onSnapshot((snap) => void (count.reads += snap.docChanges().length)),
  session.collection(RELAY_COLLECTIONS.commands).onSnapshot((snap) => {
    for (const c of snap.docChanges()) {
      const state = c.doc.get("state");
      if (state === "delivered" && commandStates.get(c.doc.id) === "pending") count.writes++;
      commandStates.set(c.doc.id, state);
    }
  }),
  session.onSnapshot((snap) => {
    const seen = snap.get(LAST_SEEN_FIELD)?.toMillis?.();
    if (lastSeen !== undefined && seen !== undefined && seen !== lastSeen) count.writes++;
    lastSeen = seen;
  }),
];
const designer = await connectInProcess(await loadDomain("figma"), { caller: idTokenCaller(person.uid) });
await measureWithDevices("figma", "get_document_info", () => succeed(designer, "get_document_info", {}));
await measureWithDevices("figma", "create_rectangle", (i) => succeed(designer, "create_rectangle", { x: 10 * i, y: 10, width: 40, height: 40, name: `Box ${i}` }));
await measureIdle("Figma plugin open (listening in Firestore)");
await plugin.close();
for (const stop of pluginMirrors) stop();
await designer.close();

// oauth: a browser sign-in (the page, then the form) and a device's token refresh (its credential
// rotated each time, as an app's refresh token is).
await measureWithDevices("oauth", "sign-in", () => signInCookie(person), true);
const refresher = await pairDevice(person, "figma-plugin", "Figma (refresh)");
let credential = refresher.credential;
await measureWithDevices("oauth", "token refresh", async () => {
  const res = await refreshDevice("figma-plugin", credential);
  const body = (await res.json()) as { refresh_token?: string };
  if (res.status !== 200) throw new Error(`refresh: ${res.status} ${JSON.stringify(body)}`);
  credential = body.refresh_token ?? credential;
}, true);
front.close();

const f1 = (n: number) => (n >= 10 ? n.toFixed(0) : n.toFixed(1));
console.log(`per tool call, mean of ${N} calls after 2 warm-up calls, in one process (fotos: each call on a newly stored screenshot, stored before the calls are counted)`);
console.log("domain    | tool                | CPU ms | instance ms | devices' requests ms | Firestore reads | writes | Vision OCR calls | vision-LLM calls | texts embedded");
for (const r of rows) {
  console.log(
    `${r.domain.padEnd(9)} | ${r.tool.padEnd(19)} | ${f1(r.cpuMs).padStart(6)} | ${f1(r.wallMs).padStart(11)} | ${(r.deviceMs === undefined ? "-" : f1(r.deviceMs)).padStart(20)} | ${f1(r.reads).padStart(15)} | ${f1(r.writes).padStart(6)} | ${f1(r.ocr).padStart(16)} | ${f1(r.llm).padStart(16)} | ${f1(r.embedded).padStart(14)}`,
  );
}
console.log(`\nwhile a device is connected and nothing is asked, per hour (measured over ${IDLE_SECONDS} s; the Figma plugin listens in Firestore, as it does wherever it can sign in to Firebase)`);
console.log("device                                         | CPU s | instance s (requests in flight) | requests | Firestore reads | writes");
for (const r of idle) {
  console.log(`${r.what.padEnd(46)} | ${f1(r.cpuMs / 1000).padStart(5)} | ${f1(r.instanceMs / 1000).padStart(31)} | ${f1(r.requests).padStart(8)} | ${f1(r.reads).padStart(15)} | ${f1(r.writes).padStart(6)}`);
}
writeCostPage();

await Promise.all([dermal, knowledge, mermaid, fotos].map((c) => c.close()));
ollama.close();
process.exit(0);

// Money: the list prices, written once (with the date they were noted), applied to the figures
// above; the result replaces the figures' part of docs/cost.md.
function writeCostPage(): void {
  const PRICES = {
    noted: "2026-11-28 (list prices for us-central1 / nam5 as published in 2025)",
    vcpuSecond: 0.000024,
    gibSecond: 0.0000025,
    perMillionRequests: 0.4,
    firestoreRead: 0.06 / 100_000,
    firestoreWrite: 0.18 / 100_000,
    visionCall: 1.5 / 1000,
    geminiFlashAnalysis: 0.0012,
    claudeSonnetAnalysis: 0.011,
    embeddedText: 0.000002,
  };
  const GIB: Record<string, number> = { "256MiB": 0.25, "512MiB": 0.5, "1GiB": 1, "2GiB": 2, "4GiB": 4 };
  const perSecond = (domain: string) => {
    const serving = (FUNCTIONS as Record<string, { serving: { memory: string; cpu?: number } }>)[domain]!.serving;
    return PRICES.vcpuSecond * (serving.cpu ?? 1) + PRICES.gibSecond * GIB[serving.memory]!;
  };
  /** $ per 1,000 calls: Cloud Run [low, high], Firestore, paid APIs. */
  const money = (r: Row) => {
    const rate = perSecond(r.domain) * 1000;
    const requests = (PRICES.perMillionRequests / 1000) * (r.deviceMs === undefined ? 1 : 2);
    const [low, high] = [r.cpuMs, r.wallMs + (r.deviceMs ?? 0)].sort((x, y) => x - y);
    const run = [(low! / 1000) * rate + requests, (high! / 1000) * rate + requests] as const;
    const store = 1000 * (r.reads * PRICES.firestoreRead + r.writes * PRICES.firestoreWrite);
    const paid = 1000 * (r.ocr * PRICES.visionCall + r.llm * PRICES.geminiFlashAnalysis + r.embedded * PRICES.embeddedText);
    return { run, store, paid, total: [run[0] + store + paid, run[1] + store + paid] as const };
  };
  const $ = (n: number) => (n === 0 ? "0" : n >= 1 ? n.toFixed(2) : n >= 0.01 ? n.toFixed(3) : n.toFixed(4));
  const range = ([a, b]: readonly [number, number]) => ($(a) === $(b) ? $(a) : `${$(a)}–${$(b)}`);
  const paidWhat = (r: Row) =>
    [r.ocr ? `${f1(r.ocr)} Vision call${r.ocr === 1 ? "" : "s"}` : "", r.llm ? `${f1(r.llm)} analysis` : "", r.embedded ? `${f1(r.embedded)} text embedded` : ""].filter(Boolean).join(", ");
  const row = (domain: string, tool: string) => rows.find((r) => r.domain === domain && r.tool === tool)!;

  // Per hour while a device is connected: Cloud Run [CPU only, whole time in flight] + Firestore.
  const hourly = (i: Idle, domain: string) => {
    const rate = perSecond(domain);
    const requests = (i.requests * PRICES.perMillionRequests) / 1e6;
    const store = i.reads * PRICES.firestoreRead + i.writes * PRICES.firestoreWrite;
    const [low, high] = [i.cpuMs, i.instanceMs].sort((x, y) => x - y);
    return [(low! / 1000) * rate + requests + store, (high! / 1000) * rate + requests + store] as const;
  };
  const [agentIdle, pluginIdle] = [idle[0]!, idle[1]!];

  // A person who uses every domain every day (30 days).
  const DAY: [domain: string, tool: string, calls: number][] = [
    ["dermal", "get_user_status", 5], ["dermal", "list_sessions", 5],
    ["knowledge", "search_semantic", 20],
    ["mermaid", "verify", 4], ["mermaid", "render", 6],
    ["fotos", "list_screenshots", 5], ["fotos", "take_screenshot", 5], ["fotos", "ocr_screenshot", 5], ["fotos", "auto_redact_pii", 2], ["fotos", "annotate_screenshot", 2], ["fotos", "analyze_screenshot", 5],
    ["figma", "get_document_info", 5], ["figma", "create_rectangle", 5],
    ["oauth", "token refresh", 7],
  ];
  const SIGN_INS_PER_MONTH = 5;
  const AGENT_HOURS = 8;
  const PLUGIN_HOURS = 1;
  let month: [number, number] = [0, 0];
  let paidMonth = 0;
  const add = (r: Row, callsPerMonth: number) => {
    const m = money(r);
    month = [month[0] + (m.total[0] * callsPerMonth) / 1000, month[1] + (m.total[1] * callsPerMonth) / 1000];
    paidMonth += (m.paid * callsPerMonth) / 1000;
  };
  for (const [d, t, n] of DAY) add(row(d, t), n * 30);
  add(row("oauth", "sign-in"), SIGN_INS_PER_MONTH);
  const a = hourly(agentIdle, "fotos");
  const p = hourly(pluginIdle, "figma");
  month = [month[0] + 30 * (AGENT_HOURS * a[0] + PLUGIN_HOURS * p[0]), month[1] + 30 * (AGENT_HOURS * a[1] + PLUGIN_HOURS * p[1])];
  const analyses = 5 * 30;
  const claudeMonth = [month[0] + analyses * (PRICES.claudeSonnetAnalysis - PRICES.geminiFlashAnalysis), month[1] + analyses * (PRICES.claudeSonnetAnalysis - PRICES.geminiFlashAnalysis)] as const;

  const lines: string[] = [];
  lines.push(`## Prices (written once, in \`bench/cost.ts\`: noted ${PRICES.noted})`, "");
  lines.push("| what | price |", "|---|---|");
  lines.push(`| Cloud Run (functions 2nd gen, request-based billing, tier 1) | $${PRICES.vcpuSecond} per vCPU-second, $${PRICES.gibSecond} per GiB-second, $${PRICES.perMillionRequests.toFixed(2)} per million requests; each function's vCPUs and memory from its manifest |`);
  lines.push(`| Firestore (nam5) | $${(PRICES.firestoreRead * 100_000).toFixed(2)} per 100,000 document reads, $${(PRICES.firestoreWrite * 100_000).toFixed(2)} per 100,000 writes |`);
  lines.push(`| Cloud Vision \`DOCUMENT_TEXT_DETECTION\` | $${(PRICES.visionCall * 1000).toFixed(2)} per 1,000 images |`);
  lines.push(`| Gemini 2.5 Flash on Vertex AI | $0.30 / $2.50 per million input / output tokens: a 1568 px screenshot (~1,550 tokens) and a 300-token answer ≈ $${PRICES.geminiFlashAnalysis} per analysis |`);
  lines.push(`| Claude Sonnet 4.5 | $3 / $15 per million input / output tokens: the same analysis (~2,200 image tokens) ≈ $${PRICES.claudeSonnetAnalysis} |`);
  lines.push(`| \`gemini-embedding-001\` on Vertex AI | $0.15 per million input tokens: a search query (~12 tokens) ≈ $${PRICES.embeddedText} |`, "");
  lines.push(`## Cost per 1,000 calls (bench run of ${new Date().toISOString().slice(0, 10)}, ${N} calls per tool after 2 warm-up calls)`, "");
  lines.push("| domain | call | Cloud Run $ | Firestore $ | paid APIs $ | total $ per 1,000 calls |", "|---|---|---|---|---|---|");
  for (const r of rows) {
    const m = money(r);
    lines.push(`| ${r.domain} | \`${r.tool}\` | ${range(m.run)} | ${$(m.store)} | ${$(m.paid)}${m.paid ? ` (${paidWhat(r)})` : ""} | ${range(m.total)}${r.llm ? ` (Claude Sonnet 4.5: ≈ ${$(m.total[1] + 1000 * r.llm * (PRICES.claudeSonnetAnalysis - PRICES.geminiFlashAnalysis))})` : ""} |`);
  }
  lines.push("", "## While a device is connected, per hour", "");
  lines.push("| device | Cloud Run $ | Firestore $ | total $ per hour |", "|---|---|---|---|");
  for (const [i, domain] of [[agentIdle, "fotos"], [pluginIdle, "figma"]] as const) {
    const h = hourly(i, domain);
    const store = i.reads * PRICES.firestoreRead + i.writes * PRICES.firestoreWrite;
    lines.push(`| ${i.what} | ${range([h[0] - store, h[1] - store])} | ${$(store)} | ${range(h)} |`);
  }
  lines.push("", "## Per person-month", "");
  lines.push(
    `Every day for 30 days: ${DAY.filter(([d]) => d !== "oauth").map(([d, t, n]) => `${n} ${d} \`${t}\``).join(", ")}; ` +
      `the desktop agent running ${AGENT_HOURS} h and the Figma plugin open ${PLUGIN_HOURS} h; ${DAY.find(([d]) => d === "oauth")![2]} token refreshes (five MCP apps, the agent and the plugin; access tokens last a day) and ${SIGN_INS_PER_MONTH} sign-ins a month (sessions last 7 days):`,
    "",
  );
  lines.push(`- with Gemini 2.5 Flash for analyses: **$${range(month)} per person-month**, of which $${$(paidMonth)} are Vision, LLM and embedding calls;`);
  lines.push(`- with Claude Sonnet 4.5: **$${range(claudeMonth)} per person-month**.`, "");
  lines.push("## What a budget of $N buys", "");
  const people = (usd: number, m: readonly [number, number]) => `${Math.floor(usd / m[1])}–${Math.floor(usd / m[0])}`;
  lines.push(`- **Per month, for people as above**: $N ÷ ${$(month[1])} … ÷ ${$(month[0])} people with Gemini Flash ($100 ≈ ${people(100, month)} people), $N ÷ ${$(claudeMonth[1])} … ÷ ${$(claudeMonth[0])} with Claude Sonnet ($100 ≈ ${people(100, claudeMonth)}).`);
  lines.push(`- **Per call kind**: $N buys N × ${Math.round(1 / PRICES.visionCall)} Cloud Vision OCR calls (a redaction is two), N × ${Math.round(1 / PRICES.geminiFlashAnalysis)} Gemini Flash analyses, N × ${Math.round(1 / PRICES.claudeSonnetAnalysis)} Claude analyses.`);
  const split = 300;
  lines.push(`- **As daily budgets**: for a monthly ceiling of $${split} on paid APIs split evenly between Vision and analyses, \`BUDGET_CLOUD_VISION_CALLS_PER_DAY\` ≈ ${Math.round(split / 2 / 30 / PRICES.visionCall)} and \`BUDGET_VISION_LLM_CALLS_PER_DAY\` ≈ ${Math.round(split / 2 / 30 / PRICES.geminiFlashAnalysis)} with Gemini Flash (${Math.round(split / 2 / 30 / PRICES.claudeSonnetAnalysis)} with Claude Sonnet).`);
  lines.push(`- **Devices**: of a person-month, the running agent (${AGENT_HOURS} h a day) is $${range([30 * AGENT_HOURS * a[0], 30 * AGENT_HOURS * a[1]])} and the open Figma plugin (${PLUGIN_HOURS} h a day) $${range([30 * PLUGIN_HOURS * p[0], 30 * PLUGIN_HOURS * p[1]])}.`);

  const page = readFileSync(COST_PAGE, "utf8");
  const [start, end] = ["<!-- cost:figures -->", "<!-- /cost:figures -->"];
  const i = page.indexOf(start);
  const j = page.indexOf(end);
  if (i < 0 || j < i) throw new Error(`docs/cost.md has no ${start} … ${end} section`);
  writeFileSync(COST_PAGE, `${page.slice(0, i + start.length)}\n${lines.join("\n")}\n${page.slice(j)}`);
  console.log("\ndocs/cost.md: prices applied to these figures");
}
