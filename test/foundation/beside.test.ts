// The whole of `npm start` (scripts/start.sh) beside another emulator suite: this test run's own,
// whose ports (MCP_PORT_OFFSET) it asks for and finds taken, as a second `npm start`, a test run or
// a benchmark would while a first one runs. It must come up on free ports, answer concurrent
// clients on every MCP URL at once, let `npm run deploy:check` pass beside it, and stop on Ctrl-C.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import { MCP_FUNCTIONS } from "../../functions/src/core/manifest.js";
import { localFunctionPath } from "../../functions/src/core/where.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const LOCAL = mkdtempSync(join(tmpdir(), "npm-start-beside-"));
// What a user's shell has: none of this test run's emulator hosts.
const shell = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(FIRESTORE_EMULATOR_HOST|FIREBASE_|FUNCTIONS_EMULATOR_HOST|MCP_FRONT_HOST|GCLOUD_PROJECT|GOOGLE_CLOUD_PROJECT)/.test(k)));
const ansi = /\x1b\[[0-9;]*m/g;

let start: ChildProcess;
let held: Server | undefined;
let output = "";
let exit: Promise<number | null>;
const session = () => JSON.parse(readFileSync(join(LOCAL, "session.json"), "utf8")) as { front: string; servers: { name: string; url: string; signedIn: boolean }[] };

beforeAll(async () => {
  // The port a first `npm start` with this offset serves on, held here (unless something already
  // does): the one started below must find it taken, as a second `npm start` would.
  const frontPort = 5001 + Number(process.env.MCP_PORT_OFFSET ?? 0);
  held = await new Promise<Server | undefined>((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(undefined));
    s.listen(frontPort, "127.0.0.1", () => resolve(s));
  });
  start = spawn("bash", ["scripts/start.sh"], { cwd: ROOT, env: { ...shell, MCP_LOCAL_DIR: LOCAL }, stdio: ["ignore", "pipe", "pipe"] });
  start.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  start.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  exit = new Promise((resolve) => start.on("exit", (code) => resolve(code)));
  await Promise.race([
    (async () => {
      while (!output.includes("Ctrl-C stops everything")) await new Promise((r) => setTimeout(r, 200));
    })(),
    exit.then((code) => {
      throw new Error(`npm start exited early (${code}):\n${output}`);
    }),
  ]);
}, 600_000);

afterAll(async () => {
  held?.close();
  if (start.exitCode === null) {
    start.kill("SIGINT");
    await exit;
  }
});

test("npm start comes up beside a running suite, on free ports, and says so", () => {
  const text = output.replace(ansi, "");
  expect(text).toMatch(/ports [\d, ]+ are taken \(another emulator suite runs on this machine\): this one uses free ports/);
  expect(session().front).not.toBe(`http://127.0.0.1:${5001 + Number(process.env.MCP_PORT_OFFSET ?? 0)}`);
  // No Secret Manager lookups or warnings, on the screen or in the logs.
  const logs = readFileSync(join(LOCAL, "emulators.log"), "utf8") + readFileSync(join(LOCAL, "functions.log"), "utf8");
  expect(text + logs).not.toMatch(/Secret Manager|Trying to access secret/);
});

test("every MCP URL answers 8 concurrent tools/list calls with 200 right after the URLs", async () => {
  const token = readFileSync(join(LOCAL, "token"), "utf8").trim();
  const servers = session().servers;
  expect(servers.map((s) => s.name).sort()).toEqual([...MCP_FUNCTIONS].sort());
  for (const s of servers) {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(s.url, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...(s.signedIn ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/list" }),
        }).then(async (r) => ({ status: r.status, text: await r.text() })),
      ),
    );
    expect(answers.map((a) => a.status), s.name).toEqual(Array(8).fill(200));
    for (const a of answers) expect(a.text).toMatch(/"tools":\s*\[\s*\{/);
  }
});

test("npm run deploy:check passes while the stack is up (its emulator on free ports), and the stack keeps serving", async () => {
  const run = await new Promise<{ status: number | null; out: string }>((resolve) => {
    const check = spawn("bash", ["scripts/deploy/check.sh", "--only", "imports,indexes,queries,rules"], { cwd: ROOT, env: shell, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    check.stdout!.on("data", (d: Buffer) => (out += d.toString()));
    check.stderr!.on("data", (d: Buffer) => (out += d.toString()));
    check.on("exit", (status) => resolve({ status, out }));
  });
  expect(run.out).toContain("deploy:check: nothing firebase deploy would refuse.");
  expect(run.status).toBe(0);
  expect((await fetch(`${session().servers.find((s) => s.name === "mermaid")!.url}/healthz`)).status).toBe(200);
}, 500_000);

test("Ctrl-C stops all of it", async () => {
  const { front } = session();
  start.kill("SIGINT");
  expect(await exit).toBe(0);
  await expect(fetch(`${front}${localFunctionPath("demo-mcp-suite", "mermaid")}/healthz`)).rejects.toThrow();
}, 60_000);
