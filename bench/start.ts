// `npm start` as a user meets it:   npm run bench -- start
// Starts `npm start` (scripts/start.sh) on free ports beside whatever runs on this machine, then:
// - how long until it prints its URLs (installed and built already: the build is skipped when
//   nothing changed, as on a second start);
// - the resident memory of the whole stack (every process under npm start, by kind), right after
//   the URLs, after the bursts, and after BENCH_START_IDLE_SECONDS (60) idle;
// - 8 concurrent tools/list calls to each MCP URL right after the URLs and again after the idle
//   time: statuses and the slowest answer (target: all 200 within 1 s);
// and, as the baseline in the same run, the same burst and memory for the Functions emulator
// serving the same build (what `npm start` served through before: one worker process per request
// in flight), unless BENCH_START_BASELINE=0. Prints figures; asserts nothing.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { localFunctionPath } from "../functions/src/core/where.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const IDLE_SECONDS = Number(process.env.BENCH_START_IDLE_SECONDS ?? 60);
const CONCURRENT = 8;
const BASELINE = process.env.BENCH_START_BASELINE !== "0";
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- the process tree and its memory ------------------------------------------------------------
function children(): Map<number, number[]> {
  const kids = new Map<number, number[]>();
  for (const p of readdirSync("/proc").filter((x) => /^\d+$/.test(x))) {
    try {
      const ppid = Number(readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1]!.split(" ")[1]);
      kids.set(ppid, [...(kids.get(ppid) ?? []), Number(p)]);
    } catch {
      // gone meanwhile
    }
  }
  return kids;
}

function tree(root: number): number[] {
  const kids = children();
  const all: number[] = [];
  for (const stack = [root]; stack.length; ) {
    const p = stack.pop()!;
    all.push(p);
    stack.push(...(kids.get(p) ?? []));
  }
  return all;
}

/** What a process of the stack is, from its command line. */
function kind(pid: number): string {
  const cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  if (/cloud-firestore|firestore-launcher/.test(cmd)) return "Firestore emulator (Java)";
  if (/functionsEmulatorRuntime/.test(cmd)) return "Functions emulator workers";
  if (/functions-framework/.test(cmd)) return "function instances";
  if (/firebase(-tools)?\b.*emulators:|bin\/firebase /.test(cmd)) return "firebase CLI (Auth, Storage, hub)";
  if (/dev-session|seed\.ts/.test(cmd)) return "npm start's session (front)";
  return "other (shell, tsx, esbuild, rules stand-in)";
}

interface Memory {
  totalMb: number;
  processes: number;
  byKind: Map<string, { mb: number; n: number }>;
}
function memory(root: number): Memory {
  const byKind = new Map<string, { mb: number; n: number }>();
  let total = 0;
  let processes = 0;
  for (const pid of tree(root)) {
    try {
      const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      if (!kb) continue;
      const k = kind(pid);
      const e = byKind.get(k) ?? { mb: 0, n: 0 };
      byKind.set(k, { mb: e.mb + kb / 1024, n: e.n + 1 });
      total += kb / 1024;
      processes++;
    } catch {
      // gone meanwhile
    }
  }
  return { totalMb: Math.round(total), processes, byKind };
}
const showMemory = (label: string, m: Memory) => {
  console.log(`  ${label}: ${m.totalMb} MB resident in ${m.processes} processes`);
  for (const [k, v] of [...m.byKind].sort((a, b) => b[1].mb - a[1].mb)) console.log(`      ${k.padEnd(44)} ${String(Math.round(v.mb)).padStart(5)} MB  (${v.n})`);
};

// ---- the burst ------------------------------------------------------------------------------------
interface Server {
  name: string;
  url: string;
  signedIn: boolean;
}
interface Burst {
  name: string;
  statuses: (number | string)[];
  slowestMs: number;
}
/** One URL after another, each with CONCURRENT calls at once. */
async function burst(servers: Server[], token: string): Promise<Burst[]> {
  const results: Burst[] = [];
  for (const s of servers) {
    results.push(
      await (async () => {
      const answers = await Promise.all(
        Array.from({ length: CONCURRENT }, async (_, i) => {
          const started = performance.now();
          try {
            const res = await fetch(s.url, {
              method: "POST",
              headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(s.signedIn ? { authorization: `Bearer ${token}` } : {}) },
              body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/list" }),
              signal: AbortSignal.timeout(60_000),
            });
            await res.text();
            return { status: res.status as number | string, ms: performance.now() - started };
          } catch (err) {
            return { status: (err as Error).name, ms: performance.now() - started };
          }
        }),
      );
        return { name: s.name, statuses: answers.map((a) => a.status), slowestMs: Math.max(...answers.map((a) => a.ms)) };
      })(),
    );
  }
  return results;
}
function showBurst(label: string, results: Burst[]): void {
  console.log(`  ${label}: ${CONCURRENT} concurrent tools/list per MCP URL (target: all 200 within 1 s)`);
  for (const r of results) {
    const ok = r.statuses.every((s) => s === 200);
    console.log(`      ${r.name.padEnd(10)} ${ok ? "all 200" : r.statuses.join(",")}   slowest ${String(Math.round(r.slowestMs)).padStart(6)} ms   ${ok && r.slowestMs <= 1000 ? "✓" : "✗"}`);
  }
}

// ---- running a stack ----------------------------------------------------------------------------
function launch(cmd: string, args: string[], env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string } {
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  return { child, output: () => out.replace(/\x1b\[[0-9;]*m/g, "") };
}

async function until(check: () => boolean, child: ChildProcess, output: () => string, what: string, limitMs = 600_000): Promise<void> {
  for (const end = Date.now() + limitMs; !check(); await sleep(100)) {
    if (child.exitCode !== null) throw new Error(`${what}: exited (${child.exitCode}):\n${output().slice(-3000)}`);
    if (Date.now() > end) throw new Error(`${what}: not within ${limitMs / 1000} s`);
  }
}

/** Ctrl-C, as a user stops it; whatever is left of the tree after 20 s is killed. */
async function stop(child: ChildProcess): Promise<void> {
  const pids = tree(child.pid!);
  child.kill("SIGINT");
  for (const end = Date.now() + 20_000; child.exitCode === null && child.signalCode === null && Date.now() < end; ) await sleep(200);
  for (const p of pids) {
    try {
      process.kill(p, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

// Free ports for both stacks (scripts/emulator/ports.mjs): a taken offset falls back to them.
const env = { ...process.env };
for (const k of Object.keys(env)) if (/^(FIRESTORE_EMULATOR_HOST|FIREBASE_|FUNCTIONS_EMULATOR_HOST|MCP_FRONT_HOST|GCLOUD_PROJECT)/.test(k)) delete env[k];

console.log(`\n== npm start (one instance per function behind the front)`);
const local = mkdtempSync(join(tmpdir(), "bench-start-"));
const started = performance.now();
const start = launch("bash", ["scripts/start.sh"], { ...env, MCP_LOCAL_DIR: local });
let after: { ready: number; memory: Memory; first: Burst[]; second: Burst[]; idle: Memory };
try {
  await until(() => /Ready/.test(start.output()), start.child, start.output, "npm start");
  const ready = (performance.now() - started) / 1000;
  const session = JSON.parse(readFileSync(join(local, "session.json"), "utf8")) as { servers: Server[] };
  const token = readFileSync(join(local, "token"), "utf8").trim();
  console.log(`  URLs printed after ${ready.toFixed(1)} s (target ≤ 30 s) ${ready <= 30 ? "✓" : "✗"}`);
  // The session's own phases, from its start (the emulators and the functions start side by side).
  const phases = [...readFileSync(join(local, "functions.log"), "utf8").matchAll(/^\[npm start\] (.*)$/gm)].map((m) => m[1]);
  console.log(`  session: ${phases.join("; ")}`);
  const atStart = memory(start.child.pid!);
  showMemory("resident after start", atStart);
  const first = await burst(session.servers, token);
  showBurst("right after the URLs", first);
  await sleep(IDLE_SECONDS * 1000);
  const second = await burst(session.servers, token);
  showBurst(`after ${IDLE_SECONDS} s idle`, second);
  const idle = memory(start.child.pid!);
  showMemory(`resident after the bursts and ${IDLE_SECONDS} s idle`, idle);
  after = { ready, memory: atStart, first, second, idle };
} finally {
  await stop(start.child);
  rmSync(local, { recursive: true, force: true });
}

if (BASELINE) {
  // The same build on the Functions emulator, as `npm start` served it before (and `npm test` still does).
  console.log(`\n== Baseline: the Functions emulator serving the same build`);
  const t0 = performance.now();
  const fb = launch("bash", ["-c", 'source scripts/toolchain.sh && source scripts/emulator/ports.sh && echo "functions at $FUNCTIONS_EMULATOR_HOST" && exec firebase emulators:start "${FIREBASE_CONFIG_ARGS[@]}" --project "$GCLOUD_PROJECT" --only auth,firestore,storage,functions'], env);
  try {
    await until(() => /All emulators ready/.test(fb.output()), fb.child, fb.output, "the Functions emulator");
    const host = /functions at (\S+)/.exec(fb.output())![1]!;
    const project = process.env.GCLOUD_PROJECT ?? "demo-mcp-suite";
    const servers = after.first.map((b) => ({ name: b.name, url: `http://${host}${localFunctionPath(project, b.name)}`, signedIn: false }));
    // Each function answers once (a worker loaded), as npm start's health checks did before its URLs.
    await Promise.all(servers.map((s) => fetch(`${s.url}/healthz`).then((r) => r.text())));
    console.log(`  emulators up and every function answered once after ${((performance.now() - t0) / 1000).toFixed(1)} s (no demo data)`);
    const base = memory(fb.child.pid!);
    showMemory("resident then", base);
    // Unauthenticated: a 401 costs the emulator the same worker a 200 does.
    const b = await burst(servers, "");
    console.log(`  ${CONCURRENT} concurrent tools/list per function (answered 401: no token here; the worker per request is the cost)`);
    for (const r of b) console.log(`      ${r.name.padEnd(10)} slowest ${String(Math.round(r.slowestMs)).padStart(6)} ms`);
    const afterBurst = memory(fb.child.pid!);
    showMemory("resident after the burst", afterBurst);
    console.log(`\n  npm start vs the Functions emulator: resident after start ${after.memory.totalMb} vs ${base.totalMb} MB (${(after.memory.totalMb / base.totalMb).toFixed(2)}×), after a burst ${after.idle.totalMb} vs ${afterBurst.totalMb} MB (${(after.idle.totalMb / afterBurst.totalMb).toFixed(2)}×); slowest list ${Math.round(Math.max(...after.first.map((r) => r.slowestMs)))} vs ${Math.round(Math.max(...b.map((r) => r.slowestMs)))} ms`);
  } finally {
    await stop(fb.child);
  }
}
process.exit(0);
