// What `npm start` does once the emulators are up (scripts/dev-session.ts): serves the functions
// through the front (scripts/emulator/front.ts), loads the demo data and prints each domain's URL,
// a token and client configs that work as printed: the clients below go through the front.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { functionUrl } from "../support/emulators.js";
import { callTool, connect } from "../support/mcp.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let output = "";
let exitCode: number | null = null;
const clients: Client[] = [];
let child: ChildProcess;
const FRONT = process.env.MCP_FRONT_HOST ?? "127.0.0.1:5001";
const printedUrl = (domain: string) => functionUrl(domain).replace(/^http:\/\/[^/]+/, `http://${FRONT}`);

beforeAll(async () => {
  child = spawn("tsx", ["scripts/dev-session.ts"], { cwd: ROOT, env: process.env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const check = setInterval(() => {
      if (output.includes("Ready.")) {
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

test("it prints every served domain's URL, at the front", () => {
  const text = output.replace(ansi, "");
  for (const domain of ["dermal", "knowledge", "mermaid"]) expect(text).toContain(printedUrl(domain));
  expect(text).not.toContain(functionUrl("dermal"));
  expect(text).toContain(`claude mcp add --transport http mermaid ${printedUrl("mermaid")}`);
});

test("the printed Cursor config and token connect as alice, who has demo data in every domain", async () => {
  const text = output.replace(ansi, "");
  const json = /Cursor[^\n]*\n(\s*\{[\s\S]*?\n  \})\n/.exec(text)?.[1];
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
