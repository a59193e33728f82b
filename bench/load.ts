// Load benchmark (issue 9), under the emulator suite:   npm run bench -- load
// 1. Production-shaped: each function served the way Cloud Run serves it — one Node process per
//    function running @google-cloud/functions-framework on the built functions/lib (FUNCTION_TARGET
//    set, so it warms up before traffic), concurrent requests, against the emulators. Each process
//    gets the vCPUs its function declares (functions/src/index.ts), enforced as Cloud Run does, with
//    a cgroup CPU quota (needs root; otherwise it says the processes ran unlimited). On Cloud Run
//    each function runs on instances of its own: here the CPU-bound renderer is kept on the last
//    core (taskset), so renders do not run on the core dermal and knowledge mostly answer from;
//    nothing else is pinned. 50 clients for 60 s, mixed (mermaid render, knowledge search_semantic,
//    dermal reads), measured after 30 s of the same load (steady state; printed, not counted). Prints answers by kind
//    (busy = an explicit 503/429 + Retry-After or a "busy" tool error; every other failure is an
//    error), p50/p95 per domain as the clients see them, p95 of the time inside the tool (from the
//    function's own "tool call" log: the rest is queueing, HTTP and MCP), each process's RSS
//    before, every 10 s, right after, and after 10 s idle, its CPU per answer, and how busy the
//    machine was.
// 2. As `npm start` serves them (what its users get): the front, bounded by each function's serving
//    profile, before one instance per function (scripts/emulator/local.ts): a 50-client burst, then
//    how long until every domain serves a normal request again (target: within 30 s).
// Loopback only, every loop bounded. Nothing is asserted: the figures are the result.
// Knobs: BENCH_LOAD_CLIENTS (50), BENCH_LOAD_SECONDS (60), BENCH_LOAD_WARMUP_SECONDS (30: the same
// load first, printed but not counted), BENCH_LOAD_RAMP_SECONDS (5: clients join over it), BENCH_BURST_SECONDS (15),
// BENCH_RECOVERY_LIMIT_SECONDS (120), BENCH_LOAD_SCENARIOS ("serve,emulator").
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { initializeApp } from "firebase-admin/app";
import { getAuth } from "firebase-admin/auth";
import { getFirestore } from "firebase-admin/firestore";
import { demoIdToken, ensureDemoUsers } from "../scripts/demo/auth.js";
import { DEMO_USERS } from "../scripts/demo/users.js";
import { seed as seedDermal } from "../scripts/demo/dermal.js";
import { seed as seedKnowledge } from "../scripts/demo/knowledge.js";
import { PROJECT } from "../test/support/emulators.js";
import { declaredFunctions } from "../scripts/emulator/endpoints.js";
import { serveLocally } from "../scripts/emulator/local.js";
import { localFunctionPath } from "../functions/src/core/where.js";

const CLIENTS = Number(process.env.BENCH_LOAD_CLIENTS ?? 50);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const WARMUP_SECONDS = Number(process.env.BENCH_LOAD_WARMUP_SECONDS ?? 30);
const RAMP_SECONDS = Number(process.env.BENCH_LOAD_RAMP_SECONDS ?? 5);
const BURST_SECONDS = Number(process.env.BENCH_BURST_SECONDS ?? 15);
const RECOVERY_LIMIT_S = Number(process.env.BENCH_RECOVERY_LIMIT_SECONDS ?? 120);
const SCENARIOS = (process.env.BENCH_LOAD_SCENARIOS ?? "serve,emulator").split(",");
const REQUEST_TIMEOUT_MS = 60_000; // what a patient MCP client waits before giving up
const DOMAINS = ["dermal", "knowledge", "mermaid"] as const;
type Domain = (typeof DOMAINS)[number];
const TARGET_P95: Record<Domain, number> = { dermal: 500, knowledge: 500, mermaid: 2500 };
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const FRAMEWORK = fileURLToPath(new URL("../node_modules/@google-cloud/functions-framework/build/src/main.js", import.meta.url));

// ---- data and identity -------------------------------------------------------------------------
const app = initializeApp({ projectId: PROJECT }, "bench-load");
const ctx = { db: getFirestore(app), auth: getAuth(app), users: DEMO_USERS, log: (m: string) => console.log(`  ${m}`) };
console.log("Seeding the demo data (dermal, knowledge) …");
await ensureDemoUsers(ctx.auth);
await seedDermal(ctx);
await seedKnowledge(ctx);
const token = await demoIdToken(DEMO_USERS.alice);
const alice = DEMO_USERS.alice.uid;

// ---- the mixed workload ---------------------------------------------------------------------------
const QUERIES = ["how do small routines change who we become", "sleep and a consistent wake-up time", "why interest rates move share prices", "healthy soil", "spaced retrieval practice"];
let serial = 0;
function requestFor(domain: Domain): { body: string; auth: boolean } {
  const n = serial++;
  const call = (name: string, args: unknown) => JSON.stringify({ jsonrpc: "2.0", id: n, method: "tools/call", params: { name, arguments: args } });
  if (domain === "mermaid") {
    // A different diagram each time: no cache can answer for the renderer.
    const code = `flowchart TD\n  A[Request ${n}] --> B{Valid?}\n  B -->|yes| C[Render ${n % 97}]\n  B -->|no| D[Explain]\n  C --> E((Done))`;
    return { body: call("render", { code }), auth: false };
  }
  // A different query text each time (a numbered variation): no query-embedding cache can answer.
  if (domain === "knowledge") return { body: call("search_semantic", { query: `${QUERIES[n % QUERIES.length]} (${n})`, limit: 5 }), auth: true };
  return { body: n % 2 ? call("get_user_status", { uid: alice }) : call("list_sessions", { uid: alice, limit: 5 }), auth: true };
}

type Kind = "ok" | "busy" | "tool error" | "timeout" | "network" | `http ${number}`;
interface Outcome {
  kind: Kind;
  ms: number;
  /** When it was answered, ms since the run started (set by run()). */
  at?: number;
  retryAfter?: number;
  detail?: string;
}

/**
 * `client`: which of the simulated clients asks. Each has its own address, as Cloud Run's front
 * end reports it (X-Forwarded-For): 50 users, not one, as far as the per-client fair use goes.
 */
async function send(url: string, domain: Domain, client = 0): Promise<Outcome> {
  const { body, auth } = requestFor(domain);
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "x-forwarded-for": `198.18.${client >> 8}.${client & 255}`,
        ...(auth ? { authorization: `Bearer ${token}` } : {}),
      },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    const retryAfter = Number(res.headers.get("retry-after") ?? NaN);
    if ((res.status === 503 || res.status === 429) && Number.isFinite(retryAfter)) return { kind: "busy", ms, retryAfter };
    if (res.status !== 200) return { kind: `http ${res.status}`, ms, detail: text.slice(0, 160) };
    const data = text.trimStart().startsWith("{") ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? "null");
    const msg = JSON.parse(data) as { result?: { isError?: boolean; content?: { text?: string }[] }; error?: { message: string } };
    if (msg.error) return { kind: "tool error", ms, detail: msg.error.message.slice(0, 160) };
    if (msg.result?.isError) {
      const sentence = msg.result.content?.[0]?.text ?? "";
      const after = /retry after (\d+)/i.exec(sentence);
      if (/busy|\(429\)|\(503\)|retry after/i.test(sentence)) return { kind: "busy", ms, retryAfter: after ? Number(after[1]) : 2, detail: sentence.slice(0, 160) };
      return { kind: "tool error", ms, detail: sentence.slice(0, 160) };
    }
    return { kind: "ok", ms };
  } catch (err) {
    const ms = performance.now() - started;
    return (err as Error).name === "TimeoutError" ? { kind: "timeout", ms } : { kind: "network", ms, detail: String((err as Error).message).slice(0, 120) };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const load = () => `load average ${loadavg().map((n) => n.toFixed(1)).join(" / ")} (1/5/15 min) on ${availableParallelism()} cores`;
const fmt = (n: number) => (Number.isFinite(n) ? `${Math.round(n)} ms` : "—");

interface Tally {
  outcomes: Record<Domain, Outcome[]>;
  seconds: number;
  /** Milliseconds inside the tool, from each function's log (scenario 1 only). */
  toolMs?: Record<Domain, number[]>;
}

/** `clients` loops, each rotating through the domains, until `seconds` have passed; they join over `rampSeconds`. */
async function run(urls: Record<Domain, string>, clients: number, seconds: number, rampSeconds = RAMP_SECONDS): Promise<Tally> {
  const outcomes = { dermal: [], knowledge: [], mermaid: [] } as Record<Domain, Outcome[]>;
  const start = Date.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, i) => {
      // Clients join over the first RAMP_SECONDS, as a load tester's ramp-up does: 50 first calls
      // in the same millisecond would measure one synchronised wave rather than 50 clients.
      await sleep((i * rampSeconds * 1000) / clients);
      for (let n = 0; Date.now() < deadline; n++) {
        const domain = DOMAINS[(i + n) % DOMAINS.length]!;
        const outcome = await send(urls[domain], domain, i);
        outcome.at = Date.now() - start;
        outcomes[domain].push(outcome);
        // A well-behaved client honours Retry-After (bounded by the run's end).
        if (outcome.kind === "busy") await sleep(Math.min((outcome.retryAfter ?? 1) * 1000, Math.max(0, deadline - Date.now())));
      }
    }),
  );
  return { outcomes, seconds };
}

/** `targets`: whether the latency targets apply (scenario 1); a burst's target is its recovery. */
function report(title: string, tally: Tally, targets = true): void {
  console.log(`\n${title}`);
  console.log(`  domain      answers   ok     busy   errors (by kind)                       p50       p95${targets ? "      target p95" : ""}${tally.toolMs ? "   in the tool p95" : ""}`);
  for (const d of DOMAINS) {
    const all = tally.outcomes[d];
    const ok = all.filter((o) => o.kind === "ok");
    const busy = all.filter((o) => o.kind === "busy").length;
    const errors = new Map<string, number>();
    for (const o of all) if (o.kind !== "ok" && o.kind !== "busy") errors.set(o.kind, (errors.get(o.kind) ?? 0) + 1);
    const errorText = errors.size ? [...errors].map(([k, n]) => `${k}: ${n}`).join(", ") : "0";
    const p95 = pct(ok.map((o) => o.ms), 95);
    console.log(
      `  ${d.padEnd(10)} ${String(all.length).padStart(7)} ${String(ok.length).padStart(6)} ${String(busy).padStart(6)}   ${errorText.padEnd(38)} ${fmt(pct(ok.map((o) => o.ms), 50)).padStart(8)} ${fmt(p95).padStart(9)}${targets ? `   < ${TARGET_P95[d]} ms ${p95 < TARGET_P95[d] ? "✓" : "✗"}` : ""}` +
        (tally.toolMs ? fmt(pct(tally.toolMs[d], 95)).padStart(12) : ""),
    );
    const windows: string[] = [];
    for (let t = 0; t < tally.seconds * 1000; t += 10_000) windows.push(fmt(pct(ok.filter((o) => o.at! >= t && o.at! < t + 10_000).map((o) => o.ms), 95)));
    if (windows.length > 1) console.log(`      p95 per 10 s: ${windows.join(" · ")}`);
    const samples = [...new Set(all.filter((o) => o.detail).map((o) => `${o.kind}: ${o.detail}`))].slice(0, 3);
    for (const s of samples) console.log(`      e.g. ${s}`);
  }
}

// ---- 1. production-shaped ------------------------------------------------------------------------
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

function rssMb(pid: number): number {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return NaN;
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ). */
const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout?.trim()) || 100;

/** CPU seconds a process (all its threads) has used so far: utime + stime. */
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** The machine's CPU time so far (all cores), from /proc/stat: busy, stolen by the hypervisor, and in all. */
function machineCpu(): { busy: number; steal: number; total: number } {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/).slice(1).map(Number);
    const busy = user! + nice! + system! + irq! + softirq!;
    return { busy, steal: steal!, total: busy + steal! + idle! + iowait! };
  } catch {
    return { busy: NaN, steal: NaN, total: NaN };
  }
}

/** The vCPUs each function's instance gets: its `cpu` option, else firebase-tools' default for gen 2 (1 up to 2 GiB). */
async function declaredCpus(): Promise<Record<Domain, number>> {
  const declared = await declaredFunctions();
  return Object.fromEntries(DOMAINS.map((d) => [d, declared[d]!.cpu ?? ((declared[d]!.availableMemoryMb ?? 256) >= 4096 ? 2 : 1)])) as Record<Domain, number>;
}

/**
 * Puts a process (all its threads, present and future) under a CPU quota of `cpus`, as Cloud Run
 * limits an instance: cgroup v1 `cpu` (cfs quota) or v2 (`cpu.max`). Returns how it went, and an undo.
 */
function limitCpu(pid: number, name: string, cpus: number): { note: string; release: () => void } {
  const period = 100_000;
  const v1 = "/sys/fs/cgroup/cpu";
  const v2 = "/sys/fs/cgroup";
  try {
    let dir: string;
    if (existsSync(`${v1}/cpu.cfs_quota_us`)) {
      dir = `${v1}/${name}`;
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/cpu.cfs_period_us`, String(period));
      writeFileSync(`${dir}/cpu.cfs_quota_us`, String(Math.round(cpus * period)));
    } else if (readFileSync(`${v2}/cgroup.controllers`, "utf8").split(/\s+/).includes("cpu")) {
      dir = `${v2}/${name}`;
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/cpu.max`, `${Math.round(cpus * period)} ${period}`);
    } else {
      return { note: "unlimited (no cgroup cpu controller)", release: () => {} };
    }
    writeFileSync(`${dir}/cgroup.procs`, String(pid));
    const release = () => {
      try {
        rmdirSync(dir);
      } catch {
        // the process has not exited yet: the empty group is harmless
      }
    };
    return { note: `${cpus} vCPU (cgroup quota)`, release };
  } catch (err) {
    return { note: `unlimited (cgroup not writable: ${(err as Error).message.split(",")[0]})`, release: () => {} };
  }
}

/**
 * The CPU-bound renderer alone on the last core (all its threads, present and future: they inherit
 * the affinity); the others may run anywhere. Needs 2+ cores and taskset.
 */
function placeOnCores(pid: number, domain: Domain): string {
  const cores = availableParallelism();
  if (cores < 2 || domain !== "mermaid") return "";
  const done = spawnSync("taskset", ["-a", "-p", "-c", String(cores - 1), String(pid)], { stdio: "ignore" });
  return done.status === 0 ? `, core ${cores - 1}` : "";
}

interface Served {
  child: ChildProcess;
  url: string;
  placement: string;
  release: () => void;
  /** Milliseconds of each tool call, as the function logs them. */
  toolMs: number[];
}

async function serveLikeCloudRun(domain: Domain, cpus: number): Promise<Served> {
  const port = await freePort();
  const child = spawn(process.execPath, [FRAMEWORK, `--target=${domain}`, "--source=functions", `--port=${port}`, "--signature-type=http"], {
    cwd: ROOT,
    // No Vertex here: queries embed with the local model, as on the emulator.
    // FUNCTION_TARGET (not K_SERVICE, which with emulator hosts set means "production with
    // emulators": refused at start) makes it warm up before traffic, as a Cloud Run instance does.
    env: { ...process.env, FUNCTION_TARGET: domain, NODE_ENV: "production", PORT: String(port), EMBEDDINGS_PROVIDER: process.env.EMBEDDINGS_PROVIDER ?? "local" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const cpu = limitCpu(child.pid!, `mcp-bench-${domain}-${child.pid}`, cpus);
  const placement = cpu.note + placeOnCores(child.pid!, domain);
  const toolMs: number[] = [];
  let stderr = "";
  let partial = "";
  child.stderr?.on("data", (b: Buffer) => {
    const text = b.toString();
    stderr = (stderr + text).slice(-2000);
    const lines = (partial + text).split("\n");
    partial = lines.pop()!;
    for (const line of lines) {
      const ms = line.includes('"message":"tool call"') ? /"ms":(\d+)/.exec(line)?.[1] : undefined;
      if (ms) toolMs.push(Number(ms));
    }
  });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`${domain} exited: ${stderr}`);
    const res = await fetch(`${url}healthz`).catch(() => undefined);
    if (res?.status === 200) return { child, url, placement, release: cpu.release, toolMs };
    await sleep(500);
  }
  child.kill();
  throw new Error(`${domain} did not become healthy within 120 s: ${stderr}`);
}

if (SCENARIOS.includes("serve")) {
  console.log(`\n== 1. One functions-framework process per function (as on Cloud Run), ${CLIENTS} clients × ${SECONDS} s, mixed`);
  const served = {} as Record<Domain, Served>;
  try {
    const cpus = await declaredCpus();
    for (const d of DOMAINS) served[d] = await serveLikeCloudRun(d, cpus[d]);
    for (const d of DOMAINS) console.log(`  ${d}: ${served[d].placement}`);
    const urls = Object.fromEntries(DOMAINS.map((d) => [d, served[d].url])) as Record<Domain, string>;
    // One warm request each (first query embeds with a cold model, first render loads the pool).
    for (const d of DOMAINS) await send(urls[d], d);
    // Then the same load, not counted: it warms the Firestore emulator's JVM (its JIT compiles
    // under load: 2-3× its steady CPU per request in the first 10-20 s), which a production
    // Firestore never needs. Its figures are printed too.
    if (WARMUP_SECONDS > 0) {
      console.log(`  warm-up: the same load for ${WARMUP_SECONDS} s (${load()})`);
      report(`Warm-up, not counted (${CLIENTS} clients, ${WARMUP_SECONDS} s)`, await run(urls, CLIENTS, WARMUP_SECONDS));
      // What may stay warm is what production has warm (Firestore): the functions start again,
      // cold, as new instances would (each warms up before traffic, as on Cloud Run).
      for (const d of DOMAINS) served[d].child.kill("SIGTERM");
      await sleep(1000);
      for (const d of DOMAINS) served[d].release();
      for (const d of DOMAINS) {
        served[d] = await serveLikeCloudRun(d, cpus[d]);
        urls[d] = served[d].url;
      }
      console.log("  functions restarted cold; the emulators stay warm");
      for (const d of DOMAINS) await send(urls[d], d);
    }
    const before = Object.fromEntries(DOMAINS.map((d) => [d, rssMb(served[d].child.pid!)]));
    console.log(`  before: ${load()}`);
    for (const d of DOMAINS) served[d].toolMs.length = 0;
    const rssSeries = Object.fromEntries(DOMAINS.map((d) => [d, [] as number[]])) as Record<Domain, number[]>;
    const sampler = setInterval(() => DOMAINS.forEach((d) => rssSeries[d].push(rssMb(served[d].child.pid!))), 10_000);
    const cpuBefore = Object.fromEntries(DOMAINS.map((d) => [d, cpuSeconds(served[d].child.pid!)]));
    const machineBefore = machineCpu();
    const tally: Tally = { ...(await run(urls, CLIENTS, SECONDS)), toolMs: Object.fromEntries(DOMAINS.map((d) => [d, [...served[d].toolMs]])) as Record<Domain, number[]> };
    const machineAfter = machineCpu();
    const cpuUsed = Object.fromEntries(DOMAINS.map((d) => [d, cpuSeconds(served[d].child.pid!) - cpuBefore[d]!]));
    clearInterval(sampler);
    console.log(`  after:  ${load()}`);
    const after = Object.fromEntries(DOMAINS.map((d) => [d, rssMb(served[d].child.pid!)]));
    await sleep(10_000);
    const idle = Object.fromEntries(DOMAINS.map((d) => [d, rssMb(served[d].child.pid!)]));
    report(`Scenario 1 results (${CLIENTS} clients, ${SECONDS} s)`, tally);
    console.log("\n  RSS per process   before    right after    after 10 s idle");
    for (const d of DOMAINS) console.log(`  ${d.padEnd(16)} ${String(before[d]).padStart(6)} MB ${String(after[d]).padStart(9)} MB ${String(idle[d]).padStart(12)} MB`);
    console.log("  RSS every 10 s of the run (MB)");
    for (const d of DOMAINS) console.log(`  ${d.padEnd(16)} ${rssSeries[d].join(" · ")}`);
    // What the latency figures are read against: how much CPU each call costs its function, and
    // how busy the whole machine (functions, emulators, clients) was.
    console.log("  CPU of each function in the run (its quota: 1 vCPU)");
    for (const d of DOMAINS) {
      const answered = tally.outcomes[d].length;
      const served = tally.outcomes[d].filter((o) => o.kind === "ok").length;
      // Busy answers are cheap: where there are many, the cost of a served call is the figure to compare.
      const perServed = served < answered ? `, ${((cpuUsed[d]! * 1000) / Math.max(1, served)).toFixed(1)} ms per served call` : "";
      console.log(`  ${d.padEnd(16)} ${cpuUsed[d]!.toFixed(1)} s, ${((cpuUsed[d]! * 1000) / Math.max(1, answered)).toFixed(1)} ms per answer${perServed}`);
    }
    const span = machineAfter.total - machineBefore.total;
    const stolen = (machineAfter.steal - machineBefore.steal) / span;
    console.log(
      `  machine: ${Math.round(((machineAfter.busy - machineBefore.busy) / span) * 100)} % of ${availableParallelism()} cores busy during the run` +
        (stolen >= 0.01 ? `, ${Math.round(stolen * 100)} % taken by the hypervisor (steal)` : ""),
    );
  } finally {
    for (const d of DOMAINS) served[d]?.child.kill("SIGTERM");
    await sleep(1000);
    for (const d of DOMAINS) served[d]?.release();
  }
}

// ---- 2. as npm start serves them ---------------------------------------------------------------
if (SCENARIOS.includes("emulator")) {
  console.log(`\n== 2. As npm start serves them (the front, one instance per function): ${CLIENTS}-client burst for ${BURST_SECONDS} s, then recovery`);
  const local = await serveLocally({ host: "127.0.0.1", port: 0, log: createWriteStream("/dev/null") });
  const urls = Object.fromEntries(DOMAINS.map((d) => [d, `${local.url}${localFunctionPath(PROJECT, d)}`])) as Record<Domain, string>;
  for (const d of DOMAINS) await send(urls[d], d); // warm
  console.log(`  before: ${load()}`);
  const tally = await run(urls, CLIENTS, BURST_SECONDS, 0); // a burst: every client at once
  console.log(`  after:  ${load()}`);
  report(`Scenario 2 burst (${CLIENTS} clients, ${BURST_SECONDS} s; the target is the recovery below)`, tally, false);
  // Recovery: from the end of the burst (its last answer), each domain is asked one normal
  // request at a time until one is answered ok, at most RECOVERY_LIMIT_S.
  const burstEnd = Date.now();
  const recovered = {} as Record<Domain, number | undefined>;
  await Promise.all(
    DOMAINS.map(async (d) => {
      while (Date.now() - burstEnd < RECOVERY_LIMIT_S * 1000) {
        const o = await send(urls[d], d);
        if (o.kind === "ok") {
          recovered[d] = (Date.now() - burstEnd) / 1000;
          return;
        }
        await sleep(1000);
      }
    }),
  );
  console.log("\n  domain      serves normally again after   (target ≤ 30 s)");
  for (const d of DOMAINS) {
    const s = recovered[d];
    console.log(`  ${d.padEnd(10)}  ${s === undefined ? `not within ${RECOVERY_LIMIT_S} s ✗` : `${s.toFixed(1)} s ${s <= 30 ? "✓" : "✗"}`}`);
  }
  await local.close();
}
process.exit(0);
