// What a person gets from `npx fotos-agent`: the packed agent (npm pack, as npm publish would send
// it), installed into an empty folder from the tarball alone, starts: --help, status, and the stdio
// MCP server. Catches a file missing from the package before anyone downloads it. The release
// workflow runs this file on the tarball it publishes (AGENT_TARBALL); otherwise it packs one.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, expect, test } from "vitest";

const REPO = join(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "agent-package-"));
const prefix = join(work, "install");
const home = join(work, "home");
let tarball = process.env.AGENT_TARBALL ?? "";
let bin = "";

const run = (cmd: string, args: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}) => {
  const r = spawnSync(cmd, args, { cwd: opts.cwd ?? REPO, encoding: "utf8", timeout: 300_000, env: { ...process.env, ...opts.env } });
  return { status: r.status, out: `${r.stdout}${r.stderr}`, stdout: r.stdout };
};

beforeAll(() => {
  if (!tarball) {
    const packed = run("bash", ["scripts/release/pack-agent.sh", join(work, "pack")]);
    expect(packed.status, packed.out).toBe(0);
    tarball = packed.stdout.trim().split("\n").pop()!;
  }
  const installed = run("npm", ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", tarball], { cwd: work });
  expect(installed.status, installed.out).toBe(0);
  bin = join(prefix, "node_modules/.bin/fotos-agent");
}, 600_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

test("the package holds only what it needs to run: the bin, built files, fonts (annotations), README", () => {
  const listed = run("tar", ["-tzf", tarball]);
  expect(listed.status).toBe(0);
  const files = listed.stdout.trim().split("\n").map((f) => f.replace(/^package\//, ""));
  expect(files).toContain("package.json");
  expect(files).toContain("bin/fotos-agent.js");
  expect(files).toContain("dist/fonts/LiberationSans-Regular.ttf"); // text annotations render with it
  const unexpected = files.filter((f) => !/^(package\.json|README\.md|LICENSE[\w.]*|bin\/[^/]+\.js|dist\/.+\.(js|mjs|cjs|json|wasm)|dist\/fonts\/[\w.-]+\.(ttf|txt)|assets\/.+)$/.test(f));
  expect(unexpected).toEqual([]);
  expect(files.some((f) => f.endsWith(".ts") || f.endsWith(".map"))).toBe(false);
});

test("fotos-agent --help starts from the installed package and lists its commands", () => {
  const help = run(bin, ["--help"], { env: { FOTOS_AGENT_HOME: home } });
  expect(help.status, help.out).toBe(0);
  expect(help.out).toContain("fotos-agent pair --server <fotos URL>");
  expect(help.out).toContain("fotos-agent status");
});

test("fotos-agent status on a computer that was never paired says so (exit 1)", () => {
  const status = run(bin, ["status"], { env: { FOTOS_AGENT_HOME: home } });
  expect(status.out).toMatch(/^not paired \(no .+\)$/m);
  expect(status.status).toBe(1);
});

test("fotos-agent mcp serves the fotos tools over stdio from the installed package", async () => {
  // The help names the stdio server (an AI app's configuration is copied from it), and it starts.
  const help = run(bin, ["--help"], { env: { FOTOS_AGENT_HOME: home } });
  expect(help.out).toMatch(/fotos-agent mcp/);
  const client = new Client({ name: "package-check", version: "1.0.0" });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && k !== "DISPLAY") env[k] = v;
  await client.connect(new StdioClientTransport({ command: bin, args: ["mcp", "--standalone"], env: { ...env, FOTOS_AGENT_HOME: home }, stderr: "pipe" }));
  try {
    expect(client.getServerVersion()?.name).toBe("fotos");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["analyze_screenshot", "annotate_screenshot", "auto_redact_pii", "list_screenshots", "ocr_screenshot", "take_screenshot"]);
  } finally {
    await client.close();
  }
}, 120_000);
