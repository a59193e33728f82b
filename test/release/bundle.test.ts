// What `npm run package` builds, used the way people install it (packed once for this file):
// - fotos-mcp.mcpb: its manifest passes `mcpb validate` and lists the fotos definitions' tools and
//   prompts; unpacked into an empty folder and started as Claude Desktop starts an extension (the
//   manifest's server.mcp_config with the bundle's folder for ${__dirname} and the form's values
//   for ${user_config.…}, a Node that is not the project's), it answers as `fotos` and captures a
//   window on an Xvfb display.
// - fotos-mcp-linux-x64 / fotos-agent-linux-x64: copied into an empty folder and started with no
//   `node` on PATH: initialize, a window capture on Xvfb, -32700 on a line that is not JSON.
// The release workflow runs this file on what it attaches (PACKAGE_DIR); otherwise it packs here.
import { spawn, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { fotosServer } from "../../functions/src/domains/fotos/definition.js";
import { ensureX11Packages, openWindow, startXvfb, waitFor, type TestWindow, type XDisplay } from "../fotos/agent-harness.js";
import { call, imageOf, textOf } from "../fotos/stdio-harness.js";
import { confirmUserCode } from "../support/devices.js";
import { createUser, functionUrl } from "../support/emulators.js";
import { connect } from "../support/mcp.js";

const REPO = join(import.meta.dirname, "../..");
const work = mkdtempSync(join(tmpdir(), "bundle-"));
const out = process.env.PACKAGE_DIR ?? join(work, "dist");
const WINDOW_TITLE = "Fotos Bundle Window 5521";
let x: XDisplay;
let win: TestWindow;

const run = (cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) => {
  const r = spawnSync(cmd, args, { cwd: opts.cwd ?? REPO, env: opts.env ?? process.env, encoding: "utf8", timeout: 900_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, out: `${r.stdout}${r.stderr}` };
};
const mcpb = (...args: string[]) => run(join(REPO, "node_modules/.bin/mcpb"), args);

beforeAll(async () => {
  if (!process.env.PACKAGE_DIR) {
    const packed = run("bash", ["scripts/run.sh", "scripts/release/package.ts", "--out", out]);
    expect(packed.status, packed.out).toBe(0);
  }
  await ensureX11Packages();
  x = await startXvfb(1280, 800);
  win = await openWindow(x.display, WINDOW_TITLE, "hello from the bundle test", "50x6+80+60");
}, 1_200_000);

afterAll(async () => {
  win?.close();
  await x?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** A PATH with every tool of /usr/bin except Node and npm: the computer of someone without Node. */
let withoutNode: string | undefined;
function pathWithoutNode(): string {
  if (withoutNode) return withoutNode;
  const bin = (withoutNode = join(work, "bin-without-node"));
  mkdirSync(bin);
  for (const name of readdirSync("/usr/bin")) if (!/^(node|nodejs|npm|npx|corepack)$/.test(name)) symlinkSync(join("/usr/bin", name), join(bin, name));
  return bin;
}

async function connectStdio(command: string, args: string[], env: Record<string, string>, cwd: string) {
  const transport = new StdioClientTransport({ command, args, env, cwd, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: "bundle-test-host", version: "1.0.0" });
  await client.connect(transport).catch((e: Error) => {
    throw new Error(`${e.message}; stderr:\n${stderr}`);
  });
  return { client, stderr: () => stderr };
}

async function capturesTheWindow(client: Client) {
  const result = await call(client, "take_screenshot", { mode: "window", window_title: WINDOW_TITLE });
  expect(result.isError, textOf(result)).toBeFalsy();
  expect(await imageOf(result)).toMatchObject({ width: win.width, height: win.height });
  const listed = await call(client, "list_screenshots", {});
  expect((listed.structuredContent as { count: number }).count).toBe(1);
}

describe("fotos-mcp.mcpb", () => {
  const unpacked = join(work, "extension");
  let manifest: {
    server: { entry_point: string; mcp_config: { command: string; args: string[]; env: Record<string, string> } };
    tools: { name: string; description: string }[];
    prompts: { name: string }[];
    user_config: Record<string, { sensitive?: boolean; required?: boolean }>;
    compatibility: { platforms: string[] };
  };

  beforeAll(() => {
    mkdirSync(unpacked);
    const unzipped = run("unzip", ["-q", join(out, "fotos-mcp.mcpb"), "-d", unpacked]);
    expect(unzipped.status, unzipped.out).toBe(0);
    manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8"));
  });

  test("mcpb validate accepts its manifest, and refuses one that breaks the schema", () => {
    const valid = mcpb("validate", join(unpacked, "manifest.json"));
    expect(valid.status, valid.out).toBe(0);
    const broken = join(work, "broken.json");
    writeFileSync(broken, JSON.stringify({ ...manifest, server: { ...manifest.server, type: "java" } }));
    expect(mcpb("validate", broken).status).not.toBe(0);
  });

  test("lists the fotos definitions' tools and prompts, the platforms whose native parts it carries, the keys as secrets", () => {
    expect(manifest.tools).toEqual(fotosServer.tools.map((t) => ({ name: t.name, description: t.description })));
    expect(manifest.tools.map((t) => t.name)).toEqual(["take_screenshot", "list_screenshots", "ocr_screenshot", "annotate_screenshot", "analyze_screenshot", "auto_redact_pii"]);
    expect(manifest.prompts.map((p) => p.name)).toEqual(fotosServer.prompts.map((p) => p.name));
    expect(manifest.compatibility.platforms.sort()).toEqual(["darwin", "linux", "win32"]);
    const natives = readdirSync(join(unpacked, "server/node_modules/@img")).filter((n) => /^sharp-(?!libvips)/.test(n)).sort();
    expect(natives).toEqual(["sharp-darwin-arm64", "sharp-darwin-x64", "sharp-linux-x64", "sharp-win32-x64"]);
    expect(readdirSync(join(unpacked, "server/node_modules/@tesseract.js-data")).sort()).toEqual(["deu", "eng", "jpn"]);
    expect(manifest.user_config.fotos_url).toMatchObject({ required: false, sensitive: false });
    for (const key of ["anthropic_api_key", "openai_api_key", "gemini_api_key"]) expect(manifest.user_config[key]).toMatchObject({ required: false, sensitive: true });
  });

  /**
   * The extension as Claude Desktop starts it: its own Node (a copy outside the project, nothing
   * beside it), the manifest's command and args with ${__dirname} the unpacked folder, and its env
   * with the form's values (a field left empty is an empty string).
   */
  function startExtension(form: Record<string, string>, home: string) {
    const runtime = join(work, "claude-runtime");
    mkdirSync(runtime, { recursive: true });
    copyFileSync(process.execPath, join(runtime, "node"));
    const cfg = manifest.server.mcp_config;
    expect(cfg.command).toBe("node");
    const fill = (v: string) => v.replaceAll("${__dirname}", unpacked).replace(/\$\{user_config\.(\w+)\}/g, (_, k: string) => form[k] ?? "");
    const env = { PATH: `${runtime}:${pathWithoutNode()}`, HOME: home, DISPLAY: x.display, FOTOS_MCP_DIR: join(home, "store"), ...Object.fromEntries(Object.entries(cfg.env).map(([k, v]) => [k, fill(v)])) };
    return connectStdio(join(runtime, "node"), cfg.args.map(fill), env, mkdtempSync(join(tmpdir(), "claude-cwd-")));
  }

  test("started as Claude Desktop starts it, with a Node from elsewhere: answers as fotos, captures a window on Xvfb", async () => {
    const { client, stderr } = await startExtension({ anthropic_api_key: "" }, join(work, "home-mcpb"));
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "fotos", description: fotosServer.description });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(manifest.tools.map((t) => t.name));
      expect(stderr()).toMatch(/"message":"standalone"/); // no fotos URL in the form
      await capturesTheWindow(client);
      // An empty key field is no key: the tool says where to set one instead of calling Claude.
      const analysed = await call(client, "analyze_screenshot", { prompt: "What is shown?", provider: "claude" });
      expect(analysed.isError).toBe(true);
      expect(textOf(analysed)).toMatch(/API key for claude is missing: set ANTHROPIC_API_KEY/);
    } finally {
      await client.close();
    }
  }, 180_000);

  test("with the fotos URL in its form: the first call gives the code to confirm; confirmed, captures go to the person's account, and the pairing is remembered", async () => {
    const user = await createUser();
    const fotos = functionUrl("fotos");
    const home = join(work, "home-paired");
    const first = await startExtension({ fotos_url: fotos }, home);
    try {
      const asked = await waitFor("the pairing code", async () => {
        const r = await call(first.client, "list_screenshots", {});
        return /confirm the code/.test(textOf(r)) ? r : undefined;
      }, 60_000);
      expect(asked.isError).toBe(true);
      const code = /confirm the code (\S+); then call the tool again/.exec(textOf(asked))?.[1];
      expect(textOf(asked)).toContain(`your fotos function at ${fotos}`);
      expect(first.stderr()).toContain(`confirm the code ${code}`);
      await confirmUserCode(user, code!);
      const taken = await waitFor("the bridged capture", async () => {
        const r = await call(first.client, "take_screenshot", { mode: "window", window_title: WINDOW_TITLE });
        return r.isError ? undefined : r;
      }, 60_000);
      expect(await imageOf(taken)).toMatchObject({ width: win.width, height: win.height });
    } finally {
      await first.client.close();
    }
    // The person's own history on the function's MCP URL has it.
    const remote = await connect("fotos", { token: user.token });
    try {
      const listed = await remote.callTool({ name: "list_screenshots", arguments: {} });
      expect((listed.structuredContent as { count: number }).count).toBe(1);
    } finally {
      await remote.close();
    }
    // Started again: bridged at once, no code asked.
    const again = await startExtension({ fotos_url: fotos }, home);
    try {
      expect(again.client.getInstructions()).toContain(`Bridged to your fotos function at ${fotos}:`);
      const listed = await call(again.client, "list_screenshots", {});
      expect(listed.isError, textOf(listed)).toBeFalsy();
      expect((listed.structuredContent as { count: number }).count).toBe(1);
    } finally {
      await again.client.close();
    }
  }, 240_000);
});

describe("the single executables", () => {
  const exe = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), "exe-"));
    copyFileSync(join(out, `${name}-linux-x64`), join(dir, name));
    spawnSync("chmod", ["+x", join(dir, name)]);
    return { dir, path: join(dir, name) };
  };
  const env = () => ({ PATH: pathWithoutNode(), HOME: join(work, "home-exe"), DISPLAY: x.display, FOTOS_MCP_DIR: join(work, "store-exe"), FOTOS_AGENT_HOME: join(work, "agent-home-exe") });

  test("there is no node on the PATH they are started with", () => {
    expect(spawnSync("sh", ["-c", "command -v node"], { env: env() }).status).not.toBe(0);
  });

  test("fotos-mcp from an empty folder: initialize as fotos, captures a window on Xvfb", async () => {
    const { dir, path } = exe("fotos-mcp");
    const { client } = await connectStdio(path, [], env(), dir);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: "fotos", description: fotosServer.description });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(fotosServer.tools.map((t) => t.name));
      await capturesTheWindow(client);
    } finally {
      await client.close();
    }
  }, 180_000);

  test("fotos-mcp answers a line that is not JSON with -32700 and keeps serving", async () => {
    const { dir, path } = exe("fotos-mcp");
    const proc = spawn(path, [], { cwd: dir, env: env(), stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    proc.stdout.on("data", (d) => (stdout += d));
    proc.stderr.on("data", () => undefined);
    const messages = () => stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as { id?: unknown; error?: { code: number }; result?: { serverInfo?: { name: string } } });
    try {
      proc.stdin.write("{not json\n");
      const parseError = await waitFor("the -32700 answer", () => messages().find((m) => m.error), 60_000);
      expect(parseError).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
      proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 7, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) + "\n");
      const init = await waitFor("the initialize answer", () => messages().find((m) => m.id === 7), 60_000);
      expect(init.result?.serverInfo?.name).toBe("fotos");
    } finally {
      proc.stdin.end();
      await new Promise((r) => proc.once("exit", r));
    }
  }, 120_000);

  test("fotos-agent from an empty folder: --help lists its commands, status says it is not paired", () => {
    const { dir, path } = exe("fotos-agent");
    const help = run(path, ["--help"], { cwd: dir, env: env() });
    expect(help.status, help.out).toBe(0);
    expect(help.out).toContain("fotos-agent pair --server <fotos URL>");
    const status = run(path, ["status"], { cwd: dir, env: env() });
    expect(status.out).toMatch(/^not paired \(no .+\)$/m);
    expect(status.status).toBe(1);
  });
});
