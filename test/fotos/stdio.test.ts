// `fotos-agent mcp` standalone, started as Claude Desktop starts it (a child process, the SDK's
// stdio client) on an Xvfb desktop with a titled xterm: identity; the same tools, resources and
// prompts as the fotos function (compared with the function's own lists); window capture by
// title; OCR and redaction of the window's text; annotation; analysis through a local Ollama and
// the missing-key error; the temporary folder and its size cap; malformed JSON; no display.
import { createServer, type Server } from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import sharp from "sharp";
import { createUser } from "../support/emulators.js";
import { connect } from "../support/mcp.js";
import { ensureX11Packages, openWindow, startXvfb, type TestWindow, type XDisplay } from "./agent-harness.js";
import { call, FOTOS_AGENT_BIN, FOTOS_MCP_BIN, hostEnv, imageOf, startRawServer, startStdioServer, tempDir, textOf, type StdioServer } from "./stdio-harness.js";

const WINDOW_TITLE = "Fotos Stdio Window - Report 9182";
// OCR of a small window misreads its first word now and then: the assertions use the rest.
const WINDOW_TEXT = "Note: HELLO FOTOS write to alice@example.com";
const AGENT_VERSION: string = JSON.parse(readFileSync(new URL("../../desktop-agent/package.json", import.meta.url), "utf8")).version;

let x: XDisplay;
let win: TestWindow;
let server: StdioServer;
let folder: string;
let ollama: Server;
let ollamaUrl: string;
const ollamaRequests: { model: string; prompt: string; images: number }[] = [];
const cleanups: (() => Promise<unknown> | unknown)[] = [];

beforeAll(async () => {
  await ensureX11Packages();
  x = await startXvfb(1920, 1080);
  cleanups.push(() => x.stop());
  win = await openWindow(x.display, WINDOW_TITLE, WINDOW_TEXT, "70x6+200+200");
  cleanups.push(() => win.close());
  // A local Ollama speaking /api/chat (what the ollama client sends).
  ollama = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const parsed = JSON.parse(body);
      ollamaRequests.push({ model: parsed.model, prompt: parsed.messages[0].content, images: parsed.messages[0].images.length });
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify({ model: parsed.model, created_at: new Date().toISOString(), message: { role: "assistant", content: "A terminal window with a greeting." }, done: true, prompt_eval_count: 321, eval_count: 7 }));
    });
  });
  await new Promise<void>((r) => ollama.listen(0, "127.0.0.1", r));
  ollamaUrl = `http://127.0.0.1:${(ollama.address() as { port: number }).port}`;
  cleanups.push(() => new Promise((r) => ollama.close(r)));
  folder = tempDir("fotos-mcp-store-");
  server = await startStdioServer(FOTOS_MCP_BIN, [], hostEnv({ DISPLAY: x.display, FOTOS_AGENT_HOME: tempDir("fotos-mcp-home-"), FOTOS_MCP_DIR: folder, OLLAMA_URL: ollamaUrl }));
  cleanups.push(() => server.close());
}, 300_000);

afterAll(async () => {
  for (const fn of cleanups.reverse()) await Promise.resolve(fn()).catch(() => undefined);
});

describe("standalone fotos-mcp over stdio", () => {
  test("announces the seed's identity and says where it keeps screenshots", () => {
    expect(server.client.getServerVersion()).toMatchObject({ name: "fotos", version: AGENT_VERSION, description: "AI-powered screenshot capture, annotation, and analysis" });
    expect(server.client.getInstructions()).toContain(`Standalone: screenshots are kept on this computer only (${folder})`);
    // Logs went to stderr (the transport would have failed on a non-JSON stdout line).
    expect(server.stderr()).toMatch(/"message":"standalone"/);
  });

  test("offers exactly the fotos function's tools, resources and prompts: same names, schemas and descriptions", async () => {
    const user = await createUser();
    const remote = await connect("fotos", { token: user.token });
    try {
      const [localTools, remoteTools] = await Promise.all([server.client.listTools(), remote.listTools()]);
      expect(localTools.tools.map((t) => t.name)).toEqual(["take_screenshot", "list_screenshots", "ocr_screenshot", "annotate_screenshot", "analyze_screenshot", "auto_redact_pii"]);
      expect(localTools.tools).toEqual(remoteTools.tools);
      const [localPrompts, remotePrompts] = await Promise.all([server.client.listPrompts(), remote.listPrompts()]);
      expect(localPrompts.prompts.map((p) => p.name)).toEqual(["describe_ui", "extract_code", "generate_bug_report", "accessibility_audit"]);
      expect(localPrompts.prompts).toEqual(remotePrompts.prompts);
      const [localTemplates, remoteTemplates] = await Promise.all([server.client.listResourceTemplates(), remote.listResourceTemplates()]);
      expect(localTemplates.resourceTemplates).toEqual(remoteTemplates.resourceTemplates);
      expect(localTemplates.resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual(["screenshots://{id}", "screenshots://{id}/ocr"]);
      const statics = (await server.client.listResources()).resources.filter((r) => !r.uri.startsWith("screenshots://") || r.uri === "screenshots://recent");
      expect(statics.map((r) => r.uri).sort()).toEqual(["screenshots://recent", "settings://current"]);
    } finally {
      await remote.close();
    }
  });

  let windowShot: string;
  let fullShot: string;

  test("take_screenshot captures a window by part of its title, case-insensitive, and stores it in the temporary folder", async () => {
    const result = await call(server.client, "take_screenshot", { mode: "window", window_title: "stdio window - report" });
    expect(result.isError).toBeFalsy();
    const meta = result.structuredContent as Record<string, unknown>;
    expect(meta).toMatchObject({ mode: "window", windowTitle: "stdio window - report", width: win.width, height: win.height, agent: `this computer (${hostname()})`, otherAgents: [] });
    expect(await imageOf(result)).toMatchObject({ width: win.width, height: win.height });
    windowShot = meta.id as string;
    expect(readdirSync(folder)).toEqual(expect.arrayContaining([`${windowShot}.png`, `${windowShot}.json`]));
    expect(textOf(result)).toContain(`Screenshot ${windowShot}: ${win.width}×${win.height} px, window matching "stdio window - report"`);
  });

  test("fullscreen and monitor captures; list_screenshots and screenshots://recent list them newest first; screenshots://{id} is the full PNG", async () => {
    const full = await call(server.client, "take_screenshot", {});
    expect(full.structuredContent).toMatchObject({ mode: "fullscreen", width: 1920, height: 1080 });
    fullShot = (full.structuredContent as { id: string }).id;
    const monitor = await call(server.client, "take_screenshot", { mode: "monitor", monitor_index: 0 });
    expect(monitor.structuredContent).toMatchObject({ mode: "monitor", monitorIndex: 0, width: 1920, height: 1080 });
    const list = await call(server.client, "list_screenshots", { limit: 3 });
    const ids = (list.structuredContent as { screenshots: { id: string }[] }).screenshots.map((s) => s.id);
    expect(ids).toEqual([(monitor.structuredContent as { id: string }).id, fullShot, windowShot]);
    const recent = JSON.parse(((await server.client.readResource({ uri: "screenshots://recent" })).contents[0] as { text: string }).text);
    expect(recent.screenshots.slice(0, 3).map((s: { id: string }) => s.id)).toEqual(ids);
    const one = await server.client.readResource({ uri: `screenshots://${windowShot}` });
    const blob = one.contents.find((c) => "blob" in c) as { blob: string; mimeType: string };
    expect(blob.mimeType).toBe("image/png");
    expect(await sharp(Buffer.from(blob.blob, "base64")).metadata()).toMatchObject({ format: "png", width: win.width, height: win.height });
  });

  test("a window title that matches nothing: the seed's error, and nothing stored", async () => {
    const before = readdirSync(folder).length;
    const result = await call(server.client, "take_screenshot", { mode: "window", window_title: "no such window 5521" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Error: No window found whose title contains "no such window 5521" (case-insensitive): check the title or capture the fullscreen instead (404)');
    expect(readdirSync(folder).length).toBe(before);
  });

  test("ocr_screenshot reads the window's text with word boxes; screenshots://{id}/ocr returns it from the cache", async () => {
    const result = await call(server.client, "ocr_screenshot", { screenshot_id: windowShot });
    expect(result.isError).toBeFalsy();
    const ocr = result.structuredContent as { text: string; engine: string; cached: boolean; regions: { text: string; x: number; y: number; w: number; h: number }[] };
    expect(ocr).toMatchObject({ screenshot_id: windowShot, language: "eng", engine: "tesseract", cached: false });
    expect(ocr.text).toContain("FOTOS write to alice@example.com");
    const word = ocr.regions.find((r) => r.text === "FOTOS")!;
    expect(word.x).toBeGreaterThan(0);
    expect(word.x + word.w).toBeLessThanOrEqual(win.width);
    expect(word.y + word.h).toBeLessThanOrEqual(win.height);
    const resource = JSON.parse(((await server.client.readResource({ uri: `screenshots://${windowShot}/ocr` })).contents[0] as { text: string }).text);
    expect(resource).toMatchObject({ screenshot_id: windowShot, text: ocr.text, cached: true });
  });

  test("ocr_screenshot without screenshot_id captures the screen first", async () => {
    const result = await call(server.client, "ocr_screenshot", {});
    const ocr = result.structuredContent as { screenshot_id: string; text: string };
    expect(ocr.screenshot_id).not.toBe(fullShot);
    expect(ocr.text).toContain("FOTOS write to");
    expect(((await call(server.client, "list_screenshots", { limit: 1 })).structuredContent as { screenshots: { id: string; mode: string }[] }).screenshots[0]).toMatchObject({
      id: ocr.screenshot_id,
      mode: "fullscreen",
    });
  });

  test("auto_redact_pii covers the email on the window; the redacted copy no longer reads it", async () => {
    const result = await call(server.client, "auto_redact_pii", { screenshot_id: windowShot });
    expect(result.isError).toBeFalsy();
    const redacted = result.structuredContent as { screenshot_id: string; source_id: string; redacted: boolean; detections: { type: string }[] };
    expect(redacted).toMatchObject({ source_id: windowShot, redacted: true });
    expect(redacted.detections.map((d) => d.type)).toContain("email");
    expect(redacted.screenshot_id).not.toBe(windowShot);
    const again = (await call(server.client, "ocr_screenshot", { screenshot_id: redacted.screenshot_id })).structuredContent as { text: string };
    expect(again.text).toContain("FOTOS write to");
    expect(again.text).not.toContain("alice@example.com");
    expect(again.text).not.toContain("example.com");
    const listed = ((await call(server.client, "list_screenshots", { limit: 1 })).structuredContent as { screenshots: unknown[] }).screenshots[0];
    expect(listed).toMatchObject({ id: redacted.screenshot_id, mode: "redacted", sourceId: windowShot });
  });

  test("annotate_screenshot draws in memory and stores the result as a new screenshot", async () => {
    const result = await call(server.client, "annotate_screenshot", {
      screenshot_id: windowShot,
      annotations: [
        { type: "rect", x: 2, y: 2, width: 40, height: 20, color: "#00FF00", stroke_width: 4 },
        { type: "text", x: 10, y: 30, text: "look" },
      ],
    });
    expect(result.isError).toBeFalsy();
    const data = result.structuredContent as { screenshot_id: string; source_id: string; annotations: number };
    expect(data).toMatchObject({ source_id: windowShot, annotations: 2, width: win.width, height: win.height });
    const { png } = await readPng(data.screenshot_id);
    const { data: raw, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const at = (px: number, py: number) => [...raw.subarray((py * info.width + px) * info.channels, (py * info.width + px) * info.channels + 3)];
    expect(at(3, 10)).toEqual([0, 255, 0]); // the rectangle's left edge
  });

  test("analyze_screenshot: a local Ollama answers; a cloud provider without a key is the seed's missing-key error", async () => {
    const result = await call(server.client, "analyze_screenshot", { screenshot_id: windowShot, provider: "ollama", prompt: "What is on screen?" });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({ screenshot_id: windowShot, provider: "ollama", model: "llava", text: "A terminal window with a greeting.", usage: { input_tokens: 321, output_tokens: 7 } });
    expect(ollamaRequests.at(-1)).toEqual({ model: "llava", prompt: "What is on screen?", images: 1 });
    const before = readdirSync(folder).length;
    const missing = await call(server.client, "analyze_screenshot", {});
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe(
      `Error: API key for claude is missing: set ANTHROPIC_API_KEY in the environment of fotos-agent mcp (the "env" of its entry in your AI app's MCP configuration), or choose another provider (503)`,
    );
    expect(readdirSync(folder).length).toBe(before); // the key is checked before any capture
  });

  test("the four prompts carry the screenshot and their instruction; an unknown id is not found", async () => {
    for (const name of ["describe_ui", "extract_code", "generate_bug_report", "accessibility_audit"]) {
      const prompt = await server.client.getPrompt({ name, arguments: { screenshot_id: windowShot, ...(name === "generate_bug_report" ? { context: "after clicking submit" } : {}) } });
      expect(prompt.messages[0]!.content.type).toBe("image");
      const text = (prompt.messages[1]!.content as { text: string }).text;
      expect(text).toContain(`Screenshot ${windowShot}`);
      if (name === "generate_bug_report") expect(text).toContain("Additional context from the user: after clicking submit");
    }
    await expect(server.client.getPrompt({ name: "describe_ui", arguments: { screenshot_id: "nope" } })).rejects.toThrow(/Screenshot not found: "nope"/);
    const tool = await call(server.client, "annotate_screenshot", { screenshot_id: "nope", annotations: [{ type: "rect", x: 1, y: 1, width: 2, height: 2 }] });
    expect(textOf(tool)).toBe('Error: Screenshot not found: "nope". list_screenshots shows the ids of your screenshots (404)');
    await expect(server.client.readResource({ uri: "screenshots://nope" })).rejects.toThrow(/Screenshot not found/);
  });

  test("settings://current is the default settings", async () => {
    const settings = JSON.parse(((await server.client.readResource({ uri: "settings://current" })).contents[0] as { text: string }).text);
    expect(Object.keys(settings)).toEqual(["capture", "annotation", "ai", "ui"]);
    expect(settings.ai).toMatchObject({ defaultProvider: "claude", ocrLanguage: "eng" });
    expect(settings.annotation).toMatchObject({ color: "#FF0000", strokeWidth: 2 });
  });
});

async function readPng(id: string) {
  const res = await server.client.readResource({ uri: `screenshots://${id}` });
  return { png: Buffer.from((res.contents.find((c) => "blob" in c) as { blob: string }).blob, "base64") };
}

describe("the temporary folder's cap", () => {
  test("with a cap of two and a half window captures, the oldest are deleted to make room; the newest two stay", async () => {
    // The same window captures to the same bytes: measure one, then cap the folder at 2.5 of them.
    const bytes = ((await call(server.client, "take_screenshot", { mode: "window", window_title: WINDOW_TITLE })).structuredContent as { bytes: number }).bytes;
    const capped = tempDir("fotos-mcp-capped-");
    const capMb = String((bytes * 2.5) / (1024 * 1024));
    const small = await startStdioServer(FOTOS_AGENT_BIN, ["mcp", "--standalone"], hostEnv({ DISPLAY: x.display, FOTOS_MCP_DIR: capped, FOTOS_MCP_MAX_MB: capMb, FOTOS_AGENT_HOME: tempDir("fotos-mcp-home-") }));
    try {
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(((await call(small.client, "take_screenshot", { mode: "window", window_title: WINDOW_TITLE })).structuredContent as { id: string }).id);
      const kept = ((await call(small.client, "list_screenshots", { limit: 100 })).structuredContent as { screenshots: { id: string }[] }).screenshots.map((s) => s.id);
      expect(kept).toEqual([ids[3], ids[2]]);
      expect(readdirSync(capped).filter((f) => f.endsWith(".png")).sort()).toEqual([`${ids[2]}.png`, `${ids[3]}.png`].sort());
      expect(textOf(await call(small.client, "ocr_screenshot", { screenshot_id: ids[0] }))).toMatch(/^Error: Screenshot not found/);
    } finally {
      await small.close();
    }
  });
});

describe("errors the host sees", () => {
  test("invalid JSON on stdin: -32700 Parse error, and the server keeps serving; stdout carries only JSON-RPC", async () => {
    const raw = await startRawServer(FOTOS_MCP_BIN, ["--standalone"], hostEnv({ FOTOS_MCP_DIR: tempDir("fotos-mcp-raw-"), FOTOS_AGENT_HOME: tempDir("fotos-mcp-home-") }));
    try {
      raw.send('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}');
      await raw.waitForId(1);
      raw.send('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      raw.send("{this is not json");
      raw.send('["a", "batch"]');
      raw.send('{"jsonrpc":"2.0","id":2,"method":"tools/list"}');
      const listed = await raw.waitForId(2);
      expect((listed.result as { tools: unknown[] }).tools).toHaveLength(6);
      const errors = raw.messages().filter((m) => (m as { error?: unknown }).error) as { id: unknown; error: { code: number; message: string } }[];
      expect(errors).toEqual([
        { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the message is not valid JSON" } },
        { jsonrpc: "2.0", id: null, error: { code: -32600, message: "Invalid Request: expected one JSON-RPC 2.0 message object per line" } },
      ]);
      for (const line of raw.stdoutLines()) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
      expect(raw.proc.exitCode).toBeNull();
    } finally {
      await raw.stop();
    }
  });

  test("no display server (none set, or one that is gone): the seed's error at once, no hang", async () => {
    for (const display of [undefined, ":987"]) {
      const headless = await startStdioServer(FOTOS_MCP_BIN, ["--standalone"], hostEnv({ DISPLAY: display, FOTOS_MCP_DIR: tempDir("fotos-mcp-headless-"), FOTOS_AGENT_HOME: tempDir("fotos-mcp-home-") }));
      try {
        for (const [tool, args] of [["take_screenshot", {}], ["ocr_screenshot", {}]] as const) {
          const result = await call(headless.client, tool, args);
          expect(result.isError).toBe(true);
          expect(textOf(result)).toBe(
            "Error: No display server is available for screenshot capture: the Fotos agent runs without a graphical session (no DISPLAY or WAYLAND_DISPLAY). Start the agent inside your desktop session (503)",
          );
        }
        expect(((await call(headless.client, "list_screenshots")).structuredContent as { count: number }).count).toBe(0);
      } finally {
        await headless.close();
      }
    }
  });
});
