// What `npm start` does once the emulators are up (scripts/dev-session.ts): loads the demo data and
// prints each domain's URL, a token and client configs that work as printed.
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { functionUrl } from "../support/emulators.js";
import { callTool, connect } from "../support/mcp.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
let output = "";
let exitCode: number | null = null;
const clients: Client[] = [];

beforeAll(async () => {
  const child = spawn("tsx", ["scripts/dev-session.ts"], { cwd: ROOT, env: process.env, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr.on("data", (d: Buffer) => (output += d.toString()));
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
  const exited = new Promise<void>((resolve) => child.on("exit", (code) => ((exitCode = code), resolve())));
  child.kill("SIGINT"); // what Ctrl-C does
  await exited;
}, 180_000);
afterAll(async () => Promise.all(clients.map((c) => c.close())));

const ansi = /\x1b\[[0-9;]*m/g;

test("it prints every served domain's URL and stops cleanly on Ctrl-C", () => {
  const text = output.replace(ansi, "");
  for (const domain of ["dermal", "knowledge", "mermaid"]) expect(text).toContain(functionUrl(domain));
  expect(text).toContain("claude mcp add --transport http mermaid");
  expect(exitCode).toBe(0);
});

test("the printed Cursor config and token connect as alice, who has demo data in every domain", async () => {
  const text = output.replace(ansi, "");
  const json = /Cursor[^\n]*\n(\s*\{[\s\S]*?\n  \})\n/.exec(text)?.[1];
  const config = JSON.parse(json!) as { mcpServers: Record<string, { url: string; headers?: { Authorization: string } }> };
  const dermal = config.mcpServers.dermal!;
  const token = dermal.headers!.Authorization.replace(/^Bearer /, "");

  const d = await connect("dermal", { token });
  clients.push(d);
  const sessions = await callTool(d, "list_sessions", { uid: "demo-alice", limit: 20 });
  expect((sessions.structuredContent as { count: number }).count).toBe(20);

  const k = await connect("knowledge", { token });
  clients.push(k);
  const stats = await callTool(k, "get_stats");
  expect(JSON.stringify(stats.structuredContent)).toMatch(/"total_chunks":\s*\d{3,}/);
  expect(config.mcpServers.mermaid).toEqual({ url: functionUrl("mermaid") });

  // Screenshots to work with before any desktop agent is paired: OCR reads the demo checkout form.
  const f = await connect("fotos", { token });
  clients.push(f);
  const list = (await callTool(f, "list_screenshots", {})).structuredContent as { count: number; screenshots: { id: string; windowTitle?: string }[] };
  expect(list.count).toBe(2);
  const checkout = list.screenshots.find((s) => s.windowTitle?.startsWith("Acme Store"))!;
  const ocr = await callTool(f, "ocr_screenshot", { screenshot_id: checkout.id });
  expect((ocr.structuredContent as { text: string }).text).toContain("alice.example@example.com");
}, 120_000);
