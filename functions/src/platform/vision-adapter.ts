// What every vision-LLM adapter implements and the helpers they share (vision-llm.ts picks the
// adapter; the adapters import only this, so the front and its adapters form no import circle).
import { ToolError } from "../core/errors.js";
import { DECODE_LIMIT } from "../core/pixels.js";

export const VISION_PROVIDERS = ["claude", "openai", "gemini", "ollama"] as const;
export type VisionProvider = (typeof VISION_PROVIDERS)[number];

export interface VisionRequest {
  png: Buffer;
  prompt: string;
  signal?: AbortSignal;
  /**
   * Called at each part of the streamed answer (every provider streams): the caller bounds the
   * wait for the first part and every gap after it (platform/deadline.ts).
   */
  answering?: () => void;
  /** Overrides from the user's settings (Ollama URL, model names). */
  settings?: { ollamaUrl?: string; model?: string };
}

export interface VisionAnswer {
  text: string;
  provider: VisionProvider;
  model: string;
  usage: { input_tokens: number; output_tokens: number };
}

export interface VisionAdapter {
  analyze(req: VisionRequest): Promise<VisionAnswer>;
}

/** The seed's missing-key error, naming the provider and how to set the key. */
export function missingKey(provider: VisionProvider, variable: string): ToolError {
  return new ToolError("unavailable", `API key for ${provider} is missing: set ${variable}${whereKeysAreSet(variable)}, or choose another provider`);
}

/** Where a key is set, said after "set <VARIABLE>": the function's secrets, unless the process serving says otherwise. */
let whereKeysAreSet = (variable: string) => ` (in production: firebase functions:secrets:set ${variable}, then redeploy fotos)`;

/** For a process that reads the keys elsewhere (`fotos-agent mcp`: its own environment). */
export function sayWhereKeysAreSet(where: (variable: string) => string): void {
  whereKeysAreSet = where;
}

/** Upstream failures as one clear sentence; the details are logged. */
export function providerError(provider: VisionProvider, status: number | undefined, detail: string, where?: string): ToolError {
  console.error(`vision provider ${provider} failed (${status ?? "no status"}): ${detail}`);
  if (status === 429) return new ToolError("rate_limited", `${provider} is rate limiting requests: wait a minute and try again, or choose another provider`, { retryAfterSeconds: 60 });
  if (status === 401 || status === 403) return new ToolError("unavailable", `${provider} rejected the API key: check the key configured for ${provider}`);
  if (status === 413 || (status === 400 && /too (large|big|long)|exceeds|maximum/i.test(detail)))
    return new ToolError("too_large", `${provider} refused the image as too large: crop the screenshot (e.g. capture one window) and try again`);
  if (status === 404) return new ToolError("unavailable", `${provider} does not know the configured model: check the model name for ${provider}`);
  if (status === undefined) return new ToolError("unavailable", `${provider} is not reachable${where ? ` at ${where}` : ""}: check that it is running and the URL is right`);
  if (status >= 500) return new ToolError("unavailable", `${provider} failed on its side (${status}): try again in a moment`);
  return new ToolError("unavailable", `${provider} refused the request (${status}): try another prompt or provider`);
}

/**
 * The model answered but declined (a safety filter or a refusal): an empty text would look like
 * success, so it is an error the agent can act on. `reason` is the provider's own label.
 */
export function declined(provider: VisionProvider, reason: string): ToolError {
  console.warn(`vision provider ${provider} declined: ${reason}`);
  return new ToolError("invalid_input", `${provider} declined to analyze this screenshot (${reason}): rephrase the prompt, redact the screenshot, or choose another provider`);
}

/** Largest side each provider accepts without downscaling it itself (their documented limits). */
export const PROVIDER_MAX_SIDE: Record<VisionProvider, number> = { claude: 1568, openai: 2048, gemini: 3072, ollama: 1344 };
const MAX_IMAGE_BYTES = 3_750_000; // Claude: 5 MB base64 per image; the strictest

/** The image scaled to fit the provider's limits (PNG, or JPEG when PNG stays too big). */
export async function fitForProvider(png: Buffer, provider: VisionProvider): Promise<{ data: Buffer; mimeType: "image/png" | "image/jpeg" }> {
  const { default: sharp } = await import("sharp");
  const max = PROVIDER_MAX_SIDE[provider];
  const meta = await sharp(png, DECODE_LIMIT).metadata();
  if (Math.max(meta.width ?? 0, meta.height ?? 0) <= max && png.length <= MAX_IMAGE_BYTES) return { data: png, mimeType: "image/png" };
  const resized = sharp(png, DECODE_LIMIT).resize({ width: max, height: max, fit: "inside", withoutEnlargement: true });
  const asPng = await resized.clone().png().toBuffer();
  if (asPng.length <= MAX_IMAGE_BYTES) return { data: asPng, mimeType: "image/png" };
  return { data: await resized.jpeg({ quality: 85 }).toBuffer(), mimeType: "image/jpeg" };
}
