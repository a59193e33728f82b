// The MCP conformance suite (@modelcontextprotocol/conformance) against every served MCP function:
// its server requirement set for protocol 2026-07-28, one function after another, each check's
// outcome compared with test/conformance/baseline.json. A failure the baseline does not list, or a
// listed failure that now passes (the entry is stale), fails the run.
//
// `npm run conformance` (with `npm start` running) prints the table; test/conformance runs it in
// `npm test`. Signed-in functions are reached through a loopback proxy that adds a Firebase ID
// token to every request without one: the suite's server runner has no option for credentials,
// and it sends some requests itself with a raw HTTP client (DNS-rebinding probes with a foreign
// Host header), so the proxy forwards every header as it came.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { DOMAINS } from "./domains.js";
import { localFunctionPath } from "../functions/src/core/where.js";

export const REQUIREMENTS = "2026-07-28";
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
export const BASELINE_PATH = join(ROOT, "test/conformance/baseline.json");
/** A scenario's own deadline inside the suite; a warm function answers each in well under a second. */
const SCENARIO_TIMEOUT_MS = 60_000;

export type Status = "SUCCESS" | "FAILURE" | "WARNING" | "SKIPPED" | "INFO";

export interface Check {
  domain: string;
  scenario: string;
  id: string;
  status: Status;
  message?: string;
}

export interface BaselineEntry {
  /** Why this is expected to fail, in one line. */
  reason: string;
  /** The domains it applies to; every served MCP domain when absent. */
  domains?: string[];
  /** `scenario:check-id` as the suite prints them. */
  checks: string[];
}

export interface Baseline {
  requirements: string;
  expectedFailures: BaselineEntry[];
}

export interface DomainSummary {
  domain: string;
  access: string;
  passed: number;
  expected: number;
  failed: number;
  warnings: number;
  seconds: number;
}

export interface Verdict {
  summaries: DomainSummary[];
  /** Failures the baseline does not list. */
  unexpected: Check[];
  /** Baseline entries (domain + check) that passed: the entry should go. */
  stale: { domain: string; check: string; reason: string }[];
}

interface Target {
  domain: string;
  access: string;
  url: string;
}

const run = promisify(execFile);

/** The served functions that speak MCP, with their access ("public" or "signed-in"), from /healthz. */
export async function servedMcpDomains(functionsHost: string, project: string): Promise<Target[]> {
  const targets: Target[] = [];
  for (const domain of DOMAINS) {
    const url = `http://${functionsHost}${localFunctionPath(project, domain)}`;
    const health = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(120_000) });
    const body = (await health.json()) as { mcp?: boolean; access?: string };
    if (body.mcp) targets.push({ domain, access: body.access ?? "public", url });
  }
  return targets;
}

/** An ID token for a conformance user in the Auth emulator (created on first use). */
export async function conformanceIdToken(authHost: string): Promise<string> {
  const account = { email: "conformance@example.test", password: "conformance-password", returnSecureToken: true };
  const call = async (action: string) => {
    const res = await fetch(`http://${authHost}/identitytoolkit.googleapis.com/v1/accounts:${action}?key=demo`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(account),
    });
    return (await res.json()) as { idToken?: string; error?: { message?: string } };
  };
  const signedUp = await call("signUp");
  const body = signedUp.idToken ? signedUp : await call("signInWithPassword");
  if (!body.idToken) throw new Error(`The Auth emulator refused the conformance user: ${body.error?.message ?? "no token"}`);
  return body.idToken;
}

/** A loopback proxy to `upstream` (host:port) that adds `Authorization: Bearer <token>` when absent. */
export async function bearerProxy(upstream: string, token: string): Promise<{ host: string; close: () => Promise<void> }> {
  const [hostname, port] = upstream.split(":");
  const server: Server = createServer((req, res) => {
    const headers = { ...req.headers };
    headers.authorization ??= `Bearer ${token}`;
    const forward = request({ hostname, port: Number(port), method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on("error", (err) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`conformance proxy: ${err.message}`);
    });
    res.on("close", () => forward.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port: own } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${own}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A first MCP call before the suite starts, so a cold function (the emulator starts a worker per
 * function on first use, mermaid loads its renderer) does not eat a scenario's deadline.
 */
async function warm(url: string): Promise<void> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": REQUIREMENTS,
    "io.modelcontextprotocol/clientInfo": { name: "conformance-warmup", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": REQUIREMENTS, "mcp-method": "tools/list" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: meta } }),
    signal: AbortSignal.timeout(180_000),
  });
  await res.text();
  if (res.status !== 200) throw new Error(`${url} answered tools/list with HTTP ${res.status}: is the emulator suite serving it?`);
}

/** Runs the requirement set against one URL and returns every check of every scenario. */
export async function runSuite(domain: string, url: string): Promise<Check[]> {
  const out = await mkdtemp(join(tmpdir(), `conformance-${domain}-`));
  try {
    const args = [CLI, "server", "--url", url, "--requirements", REQUIREMENTS, "--timeout", String(SCENARIO_TIMEOUT_MS), "-o", out];
    // The CLI exits 1 whenever a required scenario fails (baselined or not); the checks decide here.
    await run(process.execPath, args, { cwd: out, maxBuffer: 64 * 1024 * 1024 }).catch((err: { code?: unknown; stderr?: string }) => {
      if (typeof err.code !== "number") throw err;
    });
    const checks: Check[] = [];
    for (const dir of (await readdir(out)).sort()) {
      const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir)?.[1];
      if (!scenario) continue;
      const raw = JSON.parse(await readFile(join(out, dir, "checks.json"), "utf8")) as { id: string; status: Status; errorMessage?: string }[];
      for (const c of raw) checks.push({ domain, scenario, id: c.id, status: c.status, ...(c.errorMessage ? { message: c.errorMessage } : {}) });
    }
    if (checks.length === 0) throw new Error(`The conformance suite produced no results for ${domain} (${url})`);
    return checks;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

export async function readBaseline(path = BASELINE_PATH): Promise<Baseline> {
  return JSON.parse(await readFile(path, "utf8")) as Baseline;
}

/** The baseline's reason for `scenario:check` failing on `domain`, if it lists one. */
function expectedReason(baseline: Baseline, domain: string, key: string): string | undefined {
  return baseline.expectedFailures.find((e) => (!e.domains || e.domains.includes(domain)) && e.checks.includes(key))?.reason;
}

/**
 * Judges each domain's checks against the baseline. A check id can occur several times in a
 * scenario (one per probe): it fails when any occurrence fails.
 */
export function judge(results: { target: Target; checks: Check[]; seconds: number }[], baseline: Baseline): Verdict {
  const summaries: DomainSummary[] = [];
  const unexpected: Check[] = [];
  const stale: Verdict["stale"] = [];
  for (const { target, checks, seconds } of results) {
    const byKey = new Map<string, Check[]>();
    for (const c of checks) byKey.set(`${c.scenario}:${c.id}`, [...(byKey.get(`${c.scenario}:${c.id}`) ?? []), c]);
    const summary: DomainSummary = { domain: target.domain, access: target.access, passed: 0, expected: 0, failed: 0, warnings: 0, seconds };
    for (const [key, occurrences] of byKey) {
      const failure = occurrences.find((c) => c.status === "FAILURE");
      const reason = expectedReason(baseline, target.domain, key);
      if (failure) {
        if (reason) summary.expected++;
        else {
          summary.failed++;
          unexpected.push(failure);
        }
      } else if (occurrences.some((c) => c.status === "SUCCESS" || c.status === "WARNING")) {
        summary.passed++;
        if (occurrences.some((c) => c.status === "WARNING")) summary.warnings++;
        if (reason) stale.push({ domain: target.domain, check: key, reason });
      }
    }
    summaries.push(summary);
  }
  return { summaries, unexpected, stale };
}

export function formatVerdict(verdict: Verdict, baseline: Baseline): string {
  const rows = verdict.summaries.map((s) => [s.domain, s.access, String(s.passed), String(s.failed), String(s.expected), String(s.warnings), `${s.seconds.toFixed(1)} s`]);
  // "passed with warning": passed checks the suite flags as a SHOULD not met; they do not fail.
  const head = ["domain", "access", "passed", "failed", "expected failure", "passed with warning", "time"];
  const total = verdict.summaries.reduce((t, s) => ({ p: t.p + s.passed, f: t.f + s.failed, e: t.e + s.expected }), { p: 0, f: 0, e: 0 });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
  const out = [
    `MCP conformance, requirement set ${REQUIREMENTS} (checks, per served function):`,
    line(head),
    ...rows.map(line),
    `total: ${total.p} passed, ${total.f} failed, ${total.e} expected failures`,
    "",
    `Expected failures (${BASELINE_PATH.slice(ROOT.length)}):`,
  ];
  for (const entry of baseline.expectedFailures) {
    out.push(`  - ${entry.checks.length} check${entry.checks.length === 1 ? "" : "s"} on ${entry.domains?.join(", ") ?? "every domain"}: ${entry.reason}`);
  }
  if (verdict.unexpected.length) {
    out.push("", "NEW FAILURES (not in the baseline):");
    for (const c of verdict.unexpected) out.push(`  ✗ ${c.domain} ${c.scenario}:${c.id} — ${c.message ?? "failed"}`);
  }
  if (verdict.stale.length) {
    out.push("", "STALE BASELINE ENTRIES (these pass now; remove them from the baseline):");
    for (const s of verdict.stale) out.push(`  ✓ ${s.domain} ${s.check} (${s.reason})`);
  }
  return out.join("\n");
}

export interface Environment {
  functionsHost: string;
  authHost: string;
  project: string;
}

export function environment(): Environment {
  const functionsHost = process.env.FUNCTIONS_EMULATOR_HOST;
  const authHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
  if (!functionsHost || !authHost) throw new Error("The emulator suite is not running: start it with `npm start` (or run this inside `npm test`).");
  return { functionsHost, authHost, project: process.env.GCLOUD_PROJECT ?? "demo-mcp-suite" };
}

/**
 * Runs the suite against every served MCP function, one after another: the functions share one
 * emulator and this machine's cores, and a function under parallel load may answer "busy".
 */
export async function conformance(env: Environment = environment(), baseline?: Baseline): Promise<Verdict> {
  const expected = baseline ?? (await readBaseline());
  if (expected.requirements !== REQUIREMENTS) throw new Error(`The baseline is for ${expected.requirements}, the run for ${REQUIREMENTS}.`);
  const targets = await servedMcpDomains(env.functionsHost, env.project);
  const needsToken = targets.some((t) => t.access !== "public");
  const proxy = needsToken ? await bearerProxy(env.functionsHost, await conformanceIdToken(env.authHost)) : undefined;
  try {
    const results = [];
    for (const target of targets) {
      const url = target.access === "public" || !proxy ? target.url : target.url.replace(env.functionsHost, proxy.host);
      await warm(url);
      const started = performance.now();
      const checks = await runSuite(target.domain, url);
      results.push({ target, checks, seconds: (performance.now() - started) / 1000 });
    }
    return judge(results, expected);
  } finally {
    await proxy?.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const baseline = await readBaseline();
  const verdict = await conformance(environment(), baseline);
  console.log(formatVerdict(verdict, baseline));
  process.exit(verdict.unexpected.length || verdict.stale.length ? 1 : 0);
}
