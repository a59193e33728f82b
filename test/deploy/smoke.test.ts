// The post-deploy smoke check (scripts/deploy/smoke.ts through deploy.sh --smoke-only), against
// the functions the emulator serves, and against a copy of them with one fault planted in front
// (what a deploy with a missing secret or a broken header would answer).
import { spawn } from "node:child_process";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { PROJECT } from "../support/emulators.js";
import { SIGNED_IN_FUNCTIONS } from "../../functions/src/core/manifest.js";
import { REGION } from "../../functions/src/core/where.js";

const REPO = join(import.meta.dirname, "../..");
const EMULATOR = process.env.FUNCTIONS_EMULATOR_HOST ?? "127.0.0.1:5002";
const base = (host: string) => `http://${host}/${PROJECT}/${REGION}`;

// A planted 5xx is retried like a starting revision would be: 3 s keeps those tests short. Checks of
// the real functions keep the default budget (cold emulator workers on a busy machine).
function smoke(args: string[], waitSeconds = 3): Promise<{ status: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["scripts/deploy/deploy.sh", "--smoke-only", ...args], {
      cwd: REPO,
      env: { ...process.env, SMOKE_WAIT_SECONDS: String(waitSeconds) },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (status) => resolve({ status, out }));
  });
}

/** A front for the emulator's functions that plants `fault` on the requests it matches. */
function faultyFront(fault: (path: string, method: string) => { status: number; body: string; headers?: Record<string, string> } | "strip-challenge" | null): Promise<Server> {
  const [host, port] = EMULATOR.split(":");
  const server = createServer((req, res) => {
    const planted = fault(req.url ?? "", req.method ?? "GET");
    if (planted && planted !== "strip-challenge") {
      res.writeHead(planted.status, { "content-type": "text/plain", ...planted.headers }).end(planted.body);
      return;
    }
    const upstream = request({ host, port: Number(port), path: req.url, method: req.method, headers: req.headers }, (answer) => {
      const headers = { ...answer.headers };
      if (planted === "strip-challenge") delete headers["www-authenticate"];
      res.writeHead(answer.statusCode ?? 502, headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}
const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));
const hostOf = (s: Server) => `127.0.0.1:${(s.address() as AddressInfo).port}`;

test("every function the emulator serves passes: healthz, metadata documents, 401 with resource_metadata, tools/list", async () => {
  const run = await smoke(["--base-url", base(EMULATOR)], 240);
  expect(run.out, run.out).toMatch(/smoke: all \d+ functions answer as clients expect/);
  expect(run.status).toBe(0);
  expect(run.out).toMatch(/ok {3}mermaid: healthz ok \(version [^)]+\), tools\/list: \d+ tools/);
  expect(run.out).toContain("ok   oauth: healthz ok");
  expect(run.out).toMatch(/ok {3}oauth: .*authorization-server metadata ok/);
  for (const fn of SIGNED_IN_FUNCTIONS) {
    expect(run.out).toMatch(new RegExp(`ok {3}${fn}: healthz ok .*protected-resource metadata ok, unauthenticated MCP call 401 with resource_metadata`));
  }
}, 300_000);

test("--only checks just the functions a deploy touched", async () => {
  const run = await smoke(["--base-url", base(EMULATOR), "--only", "functions:mermaid,functions:dermal,firestore:rules"], 240);
  expect(run.out).toContain("smoke check of 2 functions");
  expect(run.out).toContain("smoke: all 2 functions answer as clients expect");
  expect(run.status).toBe(0);
  const none = await smoke(["--base-url", base(EMULATOR), "--only", "firestore"]);
  expect(none.out).toContain("no functions among firestore: nothing to smoke-check");
  expect(none.status).toBe(0);
}, 180_000);

test("a function that serves errors fails the check, named with what it answered", async () => {
  const front = await faultyFront((path) =>
    path.includes("/fotos/healthz") ? { status: 500, body: "Error: secret ANTHROPIC_API_KEY is not accessible" } : null,
  );
  servers.push(front);
  const run = await smoke(["--base-url", base(hostOf(front))]);
  expect(run.status).toBe(1);
  expect(run.out).toContain("FAIL fotos: GET /healthz answered 500 (expected 200): Error: secret ANTHROPIC_API_KEY is not accessible");
  expect(run.out).toContain("smoke: 1 of 6 functions failed: fotos");
  expect(run.out).toMatch(/ok {3}dermal:/);
}, 180_000);

test("a 401 without the resource_metadata challenge fails: clients could not find where to sign in", async () => {
  const front = await faultyFront((path, method) => (method === "POST" && /\/knowledge\/?$/.test(path) ? "strip-challenge" : null));
  servers.push(front);
  const run = await smoke(["--base-url", base(hostOf(front)), "--only", "functions:knowledge"]);
  expect(run.status).toBe(1);
  expect(run.out).toContain(`FAIL knowledge: the 401's WWW-Authenticate is "", expected it to carry resource_metadata="${base(hostOf(front))}/knowledge/.well-known/oauth-protected-resource"`);
}, 180_000);

test("an unreachable deployment fails with the address it could not reach", async () => {
  const closed = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
  const run = await smoke(["--base-url", `http://127.0.0.1:${closed}/nothing`, "--only", "functions:mermaid"]);
  expect(run.status).toBe(1);
  expect(run.out).toContain(`FAIL mermaid: http://127.0.0.1:${closed}/nothing/mermaid/healthz did not answer: connect ECONNREFUSED`);
}, 60_000);
