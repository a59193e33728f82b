// Benchmark of the shared MCP layer (issue 2): cold start (process start → first tools/list
// answered) and warm tools/list latency and throughput of a served domain, against a bare MCP SDK
// server measured in the same run. Prints ratios (ours / bare).
//   npm run bench -- foundation            (runs under the emulator suite: Auth for tokens)
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createUser } from "../test/support/emulators.js";

const SERVER = fileURLToPath(new URL("./foundation-server.mjs", import.meta.url));
const DOMAINS = (process.env.BENCH_DOMAINS ?? "dermal,mermaid").split(",");
const WARM_CALLS = Number(process.env.BENCH_WARM_CALLS ?? 300);
const CONCURRENCY = 8;
const THROUGHPUT_MS = 3000;

interface Figures {
  coldMs: number;
  p50: number;
  p95: number;
  rps: number;
}

async function measure(kind: "suite" | "bare", domain: string, port: number, token?: string): Promise<Figures> {
  const started = performance.now();
  const child = spawn(process.execPath, [SERVER, kind, domain, String(port)], { stdio: ["ignore", "pipe", "inherit"] });
  let exited = false;
  child.on("exit", () => (exited = true));
  try {
    const url = `http://127.0.0.1:${port}/`;
    const connectClient = async () => {
      const client = new Client({ name: "bench", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } });
      const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
      return client;
    };
    let client: Client | undefined;
    while (!client) {
      try {
        client = await connectClient();
        await client.listTools();
      } catch (err) {
        if (exited) throw new Error(`the ${kind} server exited before answering`, { cause: err });
        client = undefined;
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    const coldMs = performance.now() - started;

    for (let i = 0; i < 20; i++) await client.listTools(); // warm-up
    const times: number[] = [];
    for (let i = 0; i < WARM_CALLS; i++) {
      const t = performance.now();
      await client.listTools();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);

    const clients = await Promise.all(Array.from({ length: CONCURRENCY }, connectClient));
    let done = 0;
    const until = performance.now() + THROUGHPUT_MS;
    await Promise.all(clients.map(async (c) => { while (performance.now() < until) { await c.listTools(); done++; } }));
    await Promise.all([...clients, client].map((c) => c.close()));
    return { coldMs, p50: times[Math.floor(times.length / 2)]!, p95: times[Math.floor(times.length * 0.95)]!, rps: done / (THROUGHPUT_MS / 1000) };
  } finally {
    stop(child);
  }
}

function stop(child: ChildProcess): void {
  child.kill("SIGKILL");
}

const fmt = (n: number) => n.toFixed(n < 10 ? 2 : 0);
const bare = await measure("bare", "-", 18_700);
console.log(`bare SDK server        cold ${fmt(bare.coldMs)} ms   tools/list p50 ${fmt(bare.p50)} ms  p95 ${fmt(bare.p95)} ms   ${fmt(bare.rps)} req/s (${CONCURRENCY} clients)`);
let port = 18_701;
for (const domain of DOMAINS) {
  const token = domain === "mermaid" ? undefined : (await createUser()).token;
  const ours = await measure("suite", domain, port++, token);
  console.log(
    `${(domain + " (ours)").padEnd(22)} cold ${fmt(ours.coldMs)} ms   tools/list p50 ${fmt(ours.p50)} ms  p95 ${fmt(ours.p95)} ms   ${fmt(ours.rps)} req/s` +
      `   → ratio cold ×${(ours.coldMs / bare.coldMs).toFixed(2)}, p50 ×${(ours.p50 / bare.p50).toFixed(2)}, throughput ×${(ours.rps / bare.rps).toFixed(2)}`,
  );
}
console.log("(cold = process start → first tools/list answered; mermaid's includes its one-time renderer warm-up)");
