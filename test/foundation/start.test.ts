// What `npm start` does once the emulators are up (scripts/dev-session.ts): serves each function
// from one process behind the front (scripts/emulator/local.ts), loads the demo data, prints each
// domain's URL on one screen and writes a token and client configs that work as written: the
// clients below go through the front. (beside.test.ts runs the whole of `npm start`.)
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { functionUrl } from "../support/emulators.js";
import { callTool, connect } from "../support/mcp.js";
import { MCP_FUNCTIONS } from "../../functions/src/core/manifest.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let output = "";
let exitCode: number | null = null;
const clients: Client[] = [];
let child: ChildProcess;
const FRONT = process.env.MCP_FRONT_HOST ?? "127.0.0.1:5001";
const printedUrl = (domain: string) => functionUrl(domain).replace(/^http:\/\/[^/]+/, `http://${FRONT}`);
const LOCAL = mkdtempSync(join(tmpdir(), "npm-start-"));

beforeAll(async () => {
  child = spawn("tsx", ["scripts/dev-session.ts"], { cwd: ROOT, env: { ...process.env, MCP_LOCAL_DIR: LOCAL }, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes("Demo data loaded")) {
        clearInterval(check);
        resolve();
      }
    }, 100);
    child.on("exit", (code) => {
      clearInterval(check);
      reject(new Error(`dev-session exited early (${code}):\n${output}`));
    });
  });
  child.removeAllListeners("exit");
}, 180_000);
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  if (exitCode === null) await stop();
});

async function stop(): Promise<void> {
  const exited = new Promise<void>((resolve) => child.on("exit", (code) => ((exitCode = code), resolve())));
  child.kill("SIGINT"); // what Ctrl-C does
  await exited;
}

const ansi = /\x1b\[[0-9;]*m/g;

const connectGuide = () => readFileSync(join(LOCAL, "connect.md"), "utf8");

test("it prints every served domain's URL, at the front, on one screen; the configs are in the file it names", () => {
  const text = output.replace(ansi, "");
  for (const domain of MCP_FUNCTIONS) expect(text).toContain(printedUrl(domain));
  expect(text).not.toContain(functionUrl("dermal"));
  expect(text.trim().split("\n").length).toBeLessThanOrEqual(24);
  // Paths are shown relative to where `npm start` runs (the checkout).
  expect(text).toContain(relative(ROOT, join(LOCAL, "connect.md")));
  expect(text).toContain("alice@example.com");
  // The token is in a file, not on the screen; the functions' and demo data's lines are in the log.
  expect(text).not.toMatch(/eyJ[\w-]{20,}\./);
  expect(text).not.toMatch(/"severity"|demo data\]/);
  expect(connectGuide()).toContain(`claude mcp add --transport http mermaid ${printedUrl("mermaid")}`);
});

test("the configs file has each served function's one-click install links, for the URLs it printed", () => {
  const guide = connectGuide();
  for (const domain of ["dermal", "knowledge", "mermaid", "figma", "fotos"]) {
    const cursor = new URL(new RegExp(`\\[Add to Cursor\\]\\((cursor://[^)]*name=${domain}&[^)]*)\\)`).exec(guide)![1]!);
    expect(JSON.parse(Buffer.from(cursor.searchParams.get("config")!, "base64").toString())).toEqual({ url: printedUrl(domain) });
    const vscode = new RegExp(`\\[Add to VS Code\\]\\(vscode:mcp/install\\?([^)]*${domain}[^)]*)\\)`).exec(guide)![1]!;
    expect(JSON.parse(decodeURIComponent(vscode))).toEqual({ name: domain, type: "http", url: printedUrl(domain) });
  }
  expect(guide).toMatch(/Claude Desktop extension: file:\/\/\S+\/dist\/fotos-mcp\.mcpb/);
  expect(guide).toContain(`enter ${printedUrl("fotos")} as "Fotos function URL"`);
});

test("8 concurrent tools/list calls to every printed MCP URL all answer 200 with the domain's tools", async () => {
  const token = readFileSync(join(LOCAL, "token"), "utf8").trim();
  for (const domain of MCP_FUNCTIONS) {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(printedUrl(domain), {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` },
          body: JSON.stringify({ jsonrpc: "2.0", id: i, method: "tools/list" }),
        }).then(async (r) => ({ status: r.status, text: await r.text() })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
    for (const a of answers) expect(a.text).toMatch(/"tools":\s*\[\s*\{/);
  }
});

test("the written Cursor config and token connect as alice, who has demo data in every domain", async () => {
  const json = /## Cursor[^\n]*\n```json\n([\s\S]*?)\n```/.exec(connectGuide())?.[1];
  const config = JSON.parse(json!) as { mcpServers: Record<string, { url: string; headers?: { Authorization: string } }> };
  const dermal = config.mcpServers.dermal!;
  const token = dermal.headers!.Authorization.replace(/^Bearer /, "");

  expect(dermal.url).toBe(printedUrl("dermal"));
  const d = await connect("dermal", { token, url: dermal.url });
  clients.push(d);
  const sessions = await callTool(d, "list_sessions", { uid: "demo-alice", limit: 20 });
  expect((sessions.structuredContent as { count: number }).count).toBe(20);

  const k = await connect("knowledge", { token, url: config.mcpServers.knowledge!.url });
  clients.push(k);
  const stats = await callTool(k, "get_stats");
  expect(JSON.stringify(stats.structuredContent)).toMatch(/"total_chunks":\s*\d{3,}/);
  expect(config.mcpServers.mermaid).toEqual({ url: printedUrl("mermaid") });

  // Screenshots to work with before any desktop agent is paired: OCR reads the demo checkout form.
  const f = await connect("fotos", { token, url: config.mcpServers.fotos!.url });
  clients.push(f);
  const list = (await callTool(f, "list_screenshots", {})).structuredContent as { count: number; screenshots: { id: string; windowTitle?: string }[] };
  expect(list.count).toBe(2);
  const checkout = list.screenshots.find((s) => s.windowTitle?.startsWith("Acme Store"))!;
  const ocr = await callTool(f, "ocr_screenshot", { screenshot_id: checkout.id });
  expect((ocr.structuredContent as { text: string }).text).toContain("alice.example@example.com");
}, 120_000);

test("Ctrl-C stops it cleanly, the front with it", async () => {
  await stop();
  expect(exitCode).toBe(0);
  await expect(fetch(`${printedUrl("mermaid")}/healthz`)).rejects.toThrow();
});
