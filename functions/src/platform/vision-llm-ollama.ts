// A local Ollama through the ollama client (/api/chat with base64 images, streamed: each part
// tells the caller the model is still answering). The URL and model come from the user's
// settings when set, else OLLAMA_URL / OLLAMA_VISION_MODEL. No key.
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { Ollama } from "ollama";
import { invalidInput, timedOut } from "../core/errors.js";
import { isDeployed } from "../core/where.js";
import { fitForProvider, providerError, type VisionAdapter, type VisionAnswer, type VisionRequest } from "./vision-adapter.js";

export const OLLAMA_DEFAULT_URL = "http://127.0.0.1:11434";
export const OLLAMA_DEFAULT_MODEL = "llava";

export class OllamaVision implements VisionAdapter {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  async analyze(req: VisionRequest): Promise<VisionAnswer> {
    const fromSettings = req.settings?.ollamaUrl;
    const host = fromSettings || this.env.OLLAMA_URL || OLLAMA_DEFAULT_URL;
    if (fromSettings && deployed(this.env)) await checkPublicUrl(fromSettings);
    const model = req.settings?.model || this.env.OLLAMA_VISION_MODEL || OLLAMA_DEFAULT_MODEL;
    // Cancelled (the caller went away, a missed deadline) or given up (OLLAMA_TIMEOUT_MS, like the
    // other providers' 120 s) through the fetch of this one request.
    const timeoutMs = Number(this.env.OLLAMA_TIMEOUT_MS) || 120_000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    // No redirects: a public URL must not bounce the request to a private address after the check.
    const client = new Ollama({ host, fetch: (input, init) => fetch(input, { ...init, signal, redirect: "error" }) });
    const image = await fitForProvider(req.png, "ollama");
    try {
      const parts = await client.chat({ model, stream: true, messages: [{ role: "user", content: req.prompt, images: [image.data.toString("base64")] }] });
      let text = "";
      let answeredModel = model;
      let usage = { input_tokens: 0, output_tokens: 0 };
      for await (const part of parts) {
        req.answering?.();
        text += part.message?.content ?? "";
        answeredModel = part.model || answeredModel;
        if (part.done) usage = { input_tokens: part.prompt_eval_count ?? 0, output_tokens: part.eval_count ?? 0 };
      }
      return { text, provider: "ollama", model: answeredModel, usage };
    } catch (err) {
      if (timeout.aborted) throw timedOut(`ollama did not answer within ${timeoutMs / 1000} s: try a smaller model, or another provider`);
      const status = (err as { status_code?: number }).status_code;
      // The URL is named only when it is the user's own (from settings): the operator's OLLAMA_URL
      // may be an internal address the caller has no business seeing.
      throw providerError("ollama", status, (err as Error).message, fromSettings || undefined);
    }
  }
}

const deployed = (env: NodeJS.ProcessEnv) => isDeployed(env);

/**
 * A URL a user typed must not make the deployed function call its own network (metadata server,
 * loopback, private ranges): in the cloud, the user's Ollama has to be reachable on the internet.
 * A name is resolved too (127.0.0.1.nip.io is loopback); a name that changes its answer between
 * this check and the request (DNS rebinding) is not caught here.
 */
export async function checkPublicUrl(url: string, resolve: (host: string) => Promise<string[]> = resolveAll): Promise<void> {
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  } catch {
    throw invalidInput(`The Ollama URL in your settings is not a URL: ${JSON.stringify(url)}`);
  }
  const refuse = () =>
    invalidInput(
      `The Ollama URL in your settings (${url}) points at a private address the cloud function cannot reach: expose your Ollama on a public HTTPS URL (e.g. through a tunnel) and set that in settings, or use another provider`,
    );
  if (isPrivate(host) || host === "localhost" || host.endsWith(".localhost") || host.endsWith(".internal")) throw refuse();
  if (isIP(host)) return;
  const addresses = await resolve(host).catch(() => []); // unresolvable: the request itself says "not reachable"
  if (addresses.some(isPrivate)) throw refuse();
}

function isPrivate(host: string): boolean {
  return (
    (isIP(host) === 4 && /^(10\.|127\.|0\.|169\.254\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.)/.test(host)) ||
    (isIP(host) === 6 && /^(::1?$|f[cd]|fe[89ab]|::ffff:)/.test(host))
  );
}

async function resolveAll(host: string): Promise<string[]> {
  return (await lookup(host, { all: true })).map((a) => a.address.toLowerCase());
}
