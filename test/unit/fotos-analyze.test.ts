// analyze_screenshot's providers through their real client libraries (@anthropic-ai/sdk, openai,
// @google/genai in Vertex mode, ollama) against one local HTTP server speaking each API's wire
// format, the answer streamed as each API streams it: the request carries the image (downscaled
// to the provider's limit), the prompt and the model; the answer's text, model and token usage
// come back; failures are one clear sentence.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ClaudeVision } from "../../functions/src/platform/vision-llm-claude.js";
import { GeminiVision } from "../../functions/src/platform/vision-llm-gemini.js";
import { checkPublicUrl, OllamaVision } from "../../functions/src/platform/vision-llm-ollama.js";
import { OpenAiVision } from "../../functions/src/platform/vision-llm-openai.js";
import { PROVIDER_MAX_SIDE, type VisionAdapter, type VisionProvider } from "../../functions/src/platform/vision-llm.js";
import { ToolError } from "../../functions/src/core/errors.js";
import { streamedProvider, writeStreamed } from "../support/vision-stream.js";

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: any;
}

let server: Server;
let base: string;
let seen: Seen[] = [];
/** Status for the next requests (then 200). */
let script: number[] = [];
/** The next answer is the provider's refusal / safety block instead of text. */
let decline = false;

const GEMINI = /:(generateContent|streamGenerateContent)$/;

function refusal(path: string, body: any): unknown {
  if (path === "/v1/messages")
    return { id: "msg_2", type: "message", role: "assistant", model: body.model, content: [], stop_reason: "refusal", stop_sequence: null, usage: { input_tokens: 1234, output_tokens: 0 } };
  if (path === "/v1/chat/completions")
    return { id: "chatcmpl-2", object: "chat.completion", created: 1, model: body.model, choices: [{ index: 0, message: { role: "assistant", content: null, refusal: "I can't help with that." }, finish_reason: "stop" }], usage: { prompt_tokens: 800, completion_tokens: 5, total_tokens: 805 } };
  if (GEMINI.test(path))
    return { candidates: [{ content: { role: "model", parts: [] }, finishReason: "SAFETY" }], usageMetadata: { promptTokenCount: 300, totalTokenCount: 300 }, modelVersion: "gemini-2.5-flash-001" };
  return undefined;
}

function reply(path: string, body: any): unknown {
  if (path === "/v1/messages")
    return { id: "msg_1", type: "message", role: "assistant", model: body.model, content: [{ type: "text", text: "A login form with two fields." }], stop_reason: "end_turn", stop_sequence: null, usage: { input_tokens: 1234, output_tokens: 56 } };
  if (path === "/v1/chat/completions")
    return { id: "chatcmpl-1", object: "chat.completion", created: 1, model: `${body.model}-2025-04-14`, choices: [{ index: 0, message: { role: "assistant", content: "A settings page." }, finish_reason: "stop" }], usage: { prompt_tokens: 800, completion_tokens: 20, total_tokens: 820 } };
  if (GEMINI.test(path))
    return { candidates: [{ content: { role: "model", parts: [{ text: "A dashboard with charts." }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 300, candidatesTokenCount: 12, totalTokenCount: 312 }, modelVersion: "gemini-2.5-flash-001" };
  if (path === "/api/chat")
    return { model: body.model, created_at: new Date().toISOString(), message: { role: "assistant", content: "A terminal window." }, done: true, done_reason: "stop", prompt_eval_count: 600, eval_count: 9, total_duration: 1, load_duration: 1, prompt_eval_duration: 1, eval_duration: 1 };
  return undefined;
}

const ERRORS: Record<number, unknown> = {
  401: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
  429: { type: "error", error: { type: "rate_limit_error", message: "Number of requests has exceeded your rate limit" } },
  413: { type: "error", error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes" } },
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : undefined;
    seen.push({ method: req.method ?? "", path, headers: req.headers, body });
    res.setHeader("content-type", "application/json");
    const status = script.shift() ?? 200;
    if (status !== 200) {
      res.statusCode = status;
      res.setHeader("retry-after", "0");
      return res.end(JSON.stringify(path === "/api/chat" ? { error: "model overloaded" } : (ERRORS[status] ?? { error: { message: "boom" } })));
    }
    const answer = (decline && refusal(path, body)) || reply(path, body);
    if (!answer) {
      res.statusCode = 404;
      return res.end(JSON.stringify({ error: { message: `no route ${path}` } }));
    }
    const streamed = streamedProvider(path, body);
    if (streamed) return writeStreamed(res, streamed, answer);
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  script = [];
  decline = false;
});

const adapters: Record<VisionProvider, () => VisionAdapter> = {
  claude: () => new ClaudeVision({ ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: base }),
  openai: () => new OpenAiVision({ OPENAI_API_KEY: "sk-test", OPENAI_BASE_URL: `${base}/v1` }),
  gemini: () => new GeminiVision({ deployed: false, env: { GOOGLE_VERTEX_BASE_URL: base, GOOGLE_CLOUD_PROJECT: "demo-project", VERTEX_LOCATION: "europe-west4" } }),
  ollama: () => new OllamaVision({ OLLAMA_URL: base }),
};

/** The image a request carried, decoded, whatever the provider's wire format. */
function imageOf(provider: VisionProvider, body: any): { data: Buffer; prompt: string; model: string } {
  switch (provider) {
    case "claude": {
      const [image, text] = body.messages[0].content;
      expect(image.source.type).toBe("base64");
      return { data: Buffer.from(image.source.data, "base64"), prompt: text.text, model: body.model };
    }
    case "openai": {
      const [text, image] = body.messages[0].content;
      const url = image.image_url.url as string;
      expect(url).toMatch(/^data:image\/(png|jpeg);base64,/);
      return { data: Buffer.from(url.split(",")[1]!, "base64"), prompt: text.text, model: body.model };
    }
    case "gemini": {
      const [image, text] = body.contents[0].parts;
      return { data: Buffer.from(image.inlineData.data, "base64"), prompt: text.text, model: "" };
    }
    case "ollama":
      return { data: Buffer.from(body.messages[0].images[0], "base64"), prompt: body.messages[0].content, model: body.model };
  }
}

const screenshot = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#336699" } })
    .composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect x="10" y="10" width="${width / 2}" height="${height / 2}" fill="#fff"/></svg>`) }])
    .png()
    .toBuffer();

describe.each(["claude", "openai", "gemini", "ollama"] as const)("%s", (provider) => {
  test("sends the image, the prompt and the model; returns text, model and token usage", async () => {
    const png = await screenshot(800, 600);
    const answer = await adapters[provider]().analyze({ png, prompt: "What is wrong on this screen?" });
    expect(seen).toHaveLength(1);
    const request = seen[0]!;
    expect(request.method).toBe("POST");
    expect(streamedProvider(request.path, request.body), "the answer is asked for as a stream").toBe(provider);
    const sent = imageOf(provider, request.body);
    expect(sent.data.equals(png)).toBe(true); // small enough: sent as it is
    expect(sent.prompt).toBe("What is wrong on this screen?");
    const expected = {
      claude: { path: "/v1/messages", model: "claude-sonnet-4-5", text: "A login form with two fields.", usage: { input_tokens: 1234, output_tokens: 56 } },
      openai: { path: "/v1/chat/completions", model: "gpt-4.1-2025-04-14", text: "A settings page.", usage: { input_tokens: 800, output_tokens: 20 } },
      gemini: { path: "/v1beta1/projects/demo-project/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent", model: "gemini-2.5-flash-001", text: "A dashboard with charts.", usage: { input_tokens: 300, output_tokens: 12 } },
      ollama: { path: "/api/chat", model: "llava", text: "A terminal window.", usage: { input_tokens: 600, output_tokens: 9 } },
    }[provider];
    expect(request.path).toBe(expected.path);
    if (provider !== "gemini") expect(sent.model).toBe(provider === "openai" ? "gpt-4.1" : expected.model);
    expect(answer).toEqual({ text: expected.text, provider, model: expected.model, usage: expected.usage });
    // Credentials: each provider's own header.
    if (provider === "claude") expect(request.headers["x-api-key"] ?? request.headers.authorization).toMatch(/^(Bearer )?sk-ant-test$/); // SDK 1.x sends the key as a bearer
    if (provider === "openai") expect(request.headers.authorization).toBe("Bearer sk-test");
    if (provider === "gemini") expect(request.headers.authorization).toBe("Bearer local");
  });

  test("a large screenshot is downscaled to what the provider accepts", async () => {
    const png = await screenshot(4000, 3000);
    await adapters[provider]().analyze({ png, prompt: "Describe" });
    const { data } = imageOf(provider, seen[0]!.body);
    const meta = await sharp(data).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(PROVIDER_MAX_SIDE[provider]);
    expect(meta.width! / meta.height!).toBeCloseTo(4 / 3, 2);
  });

  test("the model chosen in the user's settings is used", async () => {
    await adapters[provider]().analyze({ png: await screenshot(100, 100), prompt: "x", settings: { model: "custom-vision-model" } });
    if (provider === "gemini") expect(seen[0]!.path).toContain("/models/custom-vision-model:streamGenerateContent");
    else expect(seen[0]!.body.model).toBe("custom-vision-model");
  });

  test("provider errors become one sentence: rate limit, bad key", async () => {
    const png = await screenshot(100, 100);
    script = [429, 429, 429];
    const rate = await adapters[provider]().analyze({ png, prompt: "x" }).catch((e) => e);
    expect(rate).toBeInstanceOf(ToolError);
    expect(rate.message).toBe(`${provider} is rate limiting requests: wait a minute and try again, or choose another provider`);
    script = [401, 401];
    const key = await adapters[provider]().analyze({ png, prompt: "x" }).catch((e) => e);
    expect(key.message).toBe(`${provider} rejected the API key: check the key configured for ${provider}`);
  });

  test.skipIf(provider === "ollama")("a refusal or safety block is an error, not an empty answer", async () => {
    decline = true;
    const err = await adapters[provider]().analyze({ png: await screenshot(100, 100), prompt: "x" }).catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    const reason = { claude: "refusal", openai: "refusal", gemini: "SAFETY", ollama: "" }[provider];
    expect(err.message).toBe(`${provider} declined to analyze this screenshot (${reason}): rephrase the prompt, redact the screenshot, or choose another provider`);
  });

  test("an image the provider refuses as too large is one sentence", async () => {
    script = [413, 413];
    const err = await adapters[provider]().analyze({ png: await screenshot(100, 100), prompt: "x" }).catch((e) => e);
    expect(err.kind).toBe("too_large");
    expect(err.message).toBe(`${provider} refused the image as too large: crop the screenshot (e.g. capture one window) and try again`);
  });
});

describe("configuration", () => {
  test("a missing key names the provider and how to set it (Firebase secrets in production)", () => {
    expect(() => new ClaudeVision({})).toThrow(
      "API key for claude is missing: set ANTHROPIC_API_KEY (in production: firebase functions:secrets:set ANTHROPIC_API_KEY, then redeploy fotos), or choose another provider",
    );
    expect(() => new OpenAiVision({ OPENAI_API_KEY: "  " })).toThrow("API key for openai is missing: set OPENAI_API_KEY");
    expect(() => new GeminiVision({ deployed: false, env: {} })).toThrow("API key for gemini is missing: set GEMINI_API_KEY (or run on Google Cloud, where Vertex AI needs no key)");
  });

  test("Gemini needs no key when deployed (Vertex AI with the service account)", () => {
    expect(() => new GeminiVision({ deployed: true, env: { GOOGLE_CLOUD_PROJECT: "p" } })).not.toThrow();
  });

  test("an Ollama that is not running is named with its URL", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const err = await new OllamaVision({}).analyze({ png: await screenshot(50, 50), prompt: "x", settings: { ollamaUrl: url } }).catch((e) => e);
    expect(err.message).toBe(`ollama is not reachable at ${url}: check that it is running and the URL is right`);
    // An Ollama that accepts the request but never answers is given up after OLLAMA_TIMEOUT_MS.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const hanging = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const late = await new OllamaVision({ OLLAMA_TIMEOUT_MS: "500" }).analyze({ png: await screenshot(50, 50), prompt: "x", settings: { ollamaUrl: hanging } }).catch((e) => e);
      expect(late.message).toBe("ollama did not answer within 0.5 s: try a smaller model, or another provider");
      // The caller going away cancels the request too (no wait for the timeout).
      const gone = new AbortController();
      const pending = new OllamaVision({}).analyze({ png: await screenshot(50, 50), prompt: "x", settings: { ollamaUrl: hanging }, signal: gone.signal }).catch((e) => e);
      gone.abort();
      expect((await pending).message).toMatch(/^ollama /);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
    // A redirect is not followed (it could lead past the public-URL check to a private address).
    // (The target answers like Ollama, as a private service could: following the redirect would succeed.)
    const redirecting = createServer((req, res) => {
      if (req.url === "/private/api/chat") {
        res.setHeader("content-type", "application/json");
        return res.end(JSON.stringify({ model: "llava", message: { role: "assistant", content: "private data" }, done: true }));
      }
      res.writeHead(307, { location: "/private/api/chat" });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
    try {
      const bounced = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
      const err = await new OllamaVision({}).analyze({ png: await screenshot(50, 50), prompt: "x", settings: { ollamaUrl: bounced } }).catch((e) => e);
      expect(err.message).toBe(`ollama is not reachable at ${bounced}: check that it is running and the URL is right`);
    } finally {
      await new Promise<void>((resolve) => redirecting.close(() => resolve()));
    }
    // The operator's OLLAMA_URL (possibly an internal address) is not shown to the caller.
    const fromEnv = await new OllamaVision({ OLLAMA_URL: url }).analyze({ png: await screenshot(50, 50), prompt: "x" }).catch((e) => e);
    expect(fromEnv.message).toBe("ollama is not reachable: check that it is running and the URL is right");
  });
});

describe("the Ollama URL from settings, once deployed", () => {
  test("must be public: loopback, private ranges, link-local (metadata server) and .internal are refused", async () => {
    const deployed = new OllamaVision({ K_SERVICE: "fotos" });
    for (const url of ["http://localhost:11434", "http://127.0.0.1:11434", "http://10.1.2.3", "http://169.254.169.254", "http://[::1]:11434", "http://metadata.google.internal", "http://192.168.1.5:11434"]) {
      const err = await deployed.analyze({ png: await screenshot(20, 20), prompt: "x", settings: { ollamaUrl: url } }).catch((e) => e);
      expect(err.message, url).toContain("points at a private address the cloud function cannot reach");
    }
    // A name is resolved: one that answers with a private address is refused like the address.
    const rebound = await checkPublicUrl("http://127.0.0.1.nip.example:11434", async () => ["127.0.0.1"]).catch((e) => e);
    expect(rebound?.message).toContain("points at a private address the cloud function cannot reach");
    await expect(checkPublicUrl("https://ollama.example.com", async () => ["203.0.113.7"])).resolves.toBeUndefined();
    // A public URL is tried (and here, not reachable).
    const err = await deployed.analyze({ png: await screenshot(20, 20), prompt: "x", settings: { ollamaUrl: "http://ollama.invalid:11434" } }).catch((e) => e);
    expect(err.message).toBe("ollama is not reachable at http://ollama.invalid:11434: check that it is running and the URL is right");
  });
});
