// The fotos backend of standalone `fotos-agent mcp` (see functions/src/domains/fotos/backend.ts):
// captures with the agent's own code (screens.ts), screenshots and OCR results in the local
// store's temporary folder, OCR with the function's tesseract.js engine, the default settings
// (capture.redactBeforeUpload from FOTOS_REDACT_BEFORE_UPLOAD=1),
// and the function's vision adapters with provider keys from this process's environment
// (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY; Ollama at OLLAMA_URL or localhost).
import { hostname } from "node:os";
import { type RequestContext, TesseractOcr, visionAdapter, type FotosBackend, captureError, MAX_DELAY_MS, windowTitleRequired, type CaptureArgs, settingsFrom, type Settings, redactionInfo, redactScreenshot, type RedactionInfo } from "../../../functions/src/domains/fotos/published.js";
import { captureFullscreen, captureMonitor, captureWindow, CaptureError, hasDisplay, NO_DISPLAY } from "../screens.js";
import { LocalStore } from "./local-store.js";

export const thisComputer = () => `this computer (${hostname()})`;

/** Takes a screenshot on this computer's screen: the seed's errors as the agent words them. */
export async function captureHere(args: CaptureArgs, signal: AbortSignal): Promise<Buffer> {
  const mode = args.mode ?? "fullscreen";
  if (mode === "window" && !args.window_title?.trim()) throw windowTitleRequired();
  // Checked first: without a display screenshot-desktop never answers.
  if (!(await hasDisplay())) throw captureError(NO_DISPLAY);
  const delay = Math.min(Math.max(0, Math.floor(args.delay_ms ?? 0)), MAX_DELAY_MS);
  if (delay) await new Promise<void>((resolve) => setTimeout(resolve, delay));
  if (signal.aborted) throw captureError("The capture was cancelled by the client");
  try {
    if (mode === "window") return await captureWindow(args.window_title!.trim());
    if (mode === "monitor") return await captureMonitor(args.monitor_index ?? 0);
    return await captureFullscreen();
  } catch (err) {
    throw captureError(err instanceof CaptureError ? err.message : `The capture failed on ${thisComputer()}: ${(err as Error).message}`);
  }
}

/**
 * Standalone keeps no settings: the defaults, with the privacy floor set where the AI app starts
 * this server (FOTOS_REDACT_BEFORE_UPLOAD=1 in its "env"): captures are redacted here, and nothing
 * unredacted is sent to a vision provider.
 */
export const standaloneSettings = (env: NodeJS.ProcessEnv = process.env): Settings =>
  settingsFrom({ capture: { redactBeforeUpload: /^(1|true|yes|on)$/i.test(env.FOTOS_REDACT_BEFORE_UPLOAD?.trim() ?? "") } });

let redactionOcr: TesseractOcr | undefined;

/**
 * captureHere, then, when asked (take_screenshot's redact_before_upload), redacted here with the
 * function's own OCR, detection and redaction, before it is stored or uploaded.
 */
export async function captureHereRedacted(args: CaptureArgs, signal: AbortSignal, ocr?: TesseractOcr): Promise<{ png: Buffer; redaction?: RedactionInfo }> {
  const png = await captureHere(args, signal);
  if (!args.redact) return { png };
  const out = await redactScreenshot(ocr ?? (redactionOcr ??= new TesseractOcr()), png, { region: args.redact.region });
  return { png: out.png, redaction: redactionInfo("device", out) };
}

export function localBackend(store: LocalStore, ocr: TesseractOcr): (ctx: RequestContext) => FotosBackend {
  return () => ({
    async capture(args, ctx) {
      const mode = args.mode ?? "fullscreen";
      const { png, redaction } = await captureHereRedacted(args, ctx.signal, ocr);
      const meta = await store.save(png, {
        ...(redaction ? { redaction } : {}),
        mode,
        ...(mode === "monitor" ? { monitorIndex: args.monitor_index ?? 0 } : {}),
        ...(mode === "window" ? { windowTitle: args.window_title!.trim() } : {}),
      });
      return { meta, png, agent: { name: thisComputer() }, otherAgents: [] };
    },
    save: (png, meta) => store.save(png, meta),
    load: (id) => store.load(id),
    meta: (id) => store.meta(id),
    list: (limit) => store.list(limit),
    settings: async () => standaloneSettings(),
    aiChoice: async () => ({ models: {} }),
    async ocr(meta, png, language) {
      const cached = await store.cachedOcr(meta.id, language);
      if (cached) return { result: cached, cached: true };
      const result = await ocr.recognize(png, language);
      await store.saveOcr(meta.id, result);
      return { result, cached: false };
    },
    cachedOcr: (id, language) => store.cachedOcr(id, language),
    ocrEngine: async () => ocr,
    useQuota: async () => undefined, // this computer's own resources: no quota
    vision: visionAdapter,
  });
}
