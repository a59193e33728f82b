// Starting `fotos-agent mcp` the way Claude Desktop does: a child process spoken to over stdio by
// the MCP SDK's client (StdioClientTransport), from the built package (desktop-agent/dist, what
// `npm pack` ships). Also a raw child for what no SDK client would send (malformed lines).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, type CallToolResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import sharp from "sharp";
import { buildAgent, waitFor } from "./agent-harness.js";

const ROOT = new URL("../../", import.meta.url).pathname;
export const FOTOS_AGENT_BIN = join(ROOT, "desktop-agent/bin/fotos-agent.js");
export const FOTOS_MCP_BIN = join(ROOT, "desktop-agent/bin/fotos-mcp.js");

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

/** The environment an MCP host passes: its own few variables plus the config's "env". */
export function hostEnv(extra: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/root" };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

export interface StdioServer {
  client: Client;
  stderr(): string;
  close(): Promise<void>;
}

/** `node <bin> <args>` as a host's child process, connected with the SDK's stdio client. */
export async function startStdioServer(bin: string, args: string[], env: Record<string, string>): Promise<StdioServer> {
  await buildAgent();
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, ...args], env, stderr: "pipe" });
  let err = "";
  transport.stderr?.on("data", (d) => (err += d));
  const client = new Client({ name: "stdio-test-host", version: "1.0.0" });
  await client.connect(transport).catch((e: Error) => {
    throw new Error(`${e.message}; the server wrote on stderr:\n${err}`);
  });
  return { client, stderr: () => err, close: () => client.close() };
}

export interface RawServer {
  proc: ChildProcessWithoutNullStreams;
  /** Every line written to stdout so far, parsed (a line that is not JSON fails the test). */
  messages(): unknown[];
  stdoutLines(): string[];
  send(line: string): void;
  waitForId(id: number): Promise<Record<string, unknown>>;
  stop(): Promise<void>;
}

export async function startRawServer(bin: string, args: string[], env: Record<string, string>): Promise<RawServer> {
  await buildAgent();
  const proc = spawn(process.execPath, [bin, ...args], { env, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  proc.stderr.on("data", () => undefined);
  const lines = () => out.split("\n").filter(Boolean);
  const messages = () => lines().map((l) => JSON.parse(l) as unknown);
  return {
    proc,
    messages,
    stdoutLines: lines,
    send: (line) => proc.stdin.write(line + "\n"),
    waitForId: (id) => waitFor(`response ${id}`, () => messages().find((m) => (m as { id?: unknown }).id === id) as Record<string, unknown> | undefined, 60_000),
    stop: async () => {
      if (proc.exitCode !== null) return;
      proc.stdin.end();
      await new Promise((r) => proc.once("exit", r));
    },
  };
}

export const textOf = (result: CallToolResult) => {
  const block = result.content.find((c) => c.type === "text");
  return block?.type === "text" ? block.text : "";
};

export async function imageOf(result: CallToolResult) {
  const block = result.content.find((c) => c.type === "image");
  if (!block || block.type !== "image") throw new Error(`no image in ${JSON.stringify(result).slice(0, 300)}`);
  return sharp(Buffer.from(block.data, "base64")).metadata();
}

export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}
