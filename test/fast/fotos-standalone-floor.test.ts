// Standalone `fotos-agent mcp` with FOTOS_REDACT_BEFORE_UPLOAD=1 (its privacy floor, set in the AI
// app's "env"): the fotos definitions on the agent's own local backend, a real MCP client, a local
// Ollama stand-in. A screenshot that was never redacted reaches the provider redacted.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { OPEN, type DomainDefinition } from "../../functions/src/mcp/define.js";
import { fotosServer } from "../../functions/src/domains/fotos/definition.js";
import { TesseractOcr } from "../../functions/src/platform/ocr-tesseract.js";
import { localBackend, standaloneSettings } from "../../desktop-agent/src/mcp/local-backend.js";
import { LocalStore } from "../../desktop-agent/src/mcp/local-store.js";
import { connectInProcess } from "../support/in-process.js";
import { ensureTestFonts, piiScreen, PLANTED } from "../fotos/vision-fixtures.js";

let ollama: Server;
let client: Client;
let ocr: TesseractOcr;
let store: LocalStore;
const sent: Buffer[] = [];

beforeAll(async () => {
  ensureTestFonts();
  ollama = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString());
    sent.push(Buffer.from(body.messages[0].images[0], "base64"));
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ model: body.model, created_at: new Date().toISOString(), message: { role: "assistant", content: "A customer record." }, done: true, prompt_eval_count: 10, eval_count: 3 }));
  });
  await new Promise<void>((resolve) => ollama.listen(0, "127.0.0.1", resolve));
  process.env.OLLAMA_URL = `http://127.0.0.1:${(ollama.address() as AddressInfo).port}`;
  process.env.FOTOS_REDACT_BEFORE_UPLOAD = "1";
  store = new LocalStore(mkdtempSync(join(tmpdir(), "fotos-floor-")));
  ocr = new TesseractOcr();
  const domain: DomainDefinition = { ...fotosServer, name: "fotos", version: "test", instructions: "", access: OPEN, backend: localBackend(store, ocr) };
  client = await connectInProcess(domain);
}, 120_000);
afterAll(async () => {
  await client?.close();
  await ocr?.close();
  await new Promise<void>((resolve) => ollama.close(() => resolve()));
  delete process.env.FOTOS_REDACT_BEFORE_UPLOAD;
});

test("the floor comes from the environment, and only a clear yes turns it on", () => {
  expect(standaloneSettings({ FOTOS_REDACT_BEFORE_UPLOAD: "1" }).capture.redactBeforeUpload).toBe(true);
  expect(standaloneSettings({ FOTOS_REDACT_BEFORE_UPLOAD: "true" }).capture.redactBeforeUpload).toBe(true);
  expect(standaloneSettings({}).capture.redactBeforeUpload).toBe(false);
  expect(standaloneSettings({ FOTOS_REDACT_BEFORE_UPLOAD: "0" }).capture.redactBeforeUpload).toBe(false);
});

test("analyze_screenshot of an unredacted screenshot: the provider receives it redacted, no email or phone readable", async () => {
  const original = await piiScreen();
  const meta = await store.save(original, { mode: "annotated" });
  const result = (await client.callTool({ name: "analyze_screenshot", arguments: { screenshot_id: meta.id, provider: "ollama" } })) as CallToolResult;
  expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
  expect(sent).toHaveLength(1);
  expect(sent[0]!.equals(original)).toBe(false);
  const secrets = PLANTED.filter((p) => p.type === "email" || p.type === "phone").map((p) => p.value);
  const read = async (png: Buffer) => (await ocr.recognize(png, "eng")).text.replace(/\s+/g, " ");
  const before = await read(original);
  expect(secrets.some((v) => before.includes(v))).toBe(true); // control: readable on the original
  const after = await read(sent[0]!);
  for (const value of secrets) expect(after, value).not.toContain(value);
}, 300_000);
