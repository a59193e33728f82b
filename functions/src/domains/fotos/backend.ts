// What the fotos tools, resources and prompts run against: a store of screenshots, a capture
// source, the settings, OCR and the vision LLMs. The definitions never touch Firestore or a screen
// themselves, so the same definitions serve two places:
//   - the `fotos` function: the cloud backend (cloud.ts): Firestore + Cloud Storage per user, the
//     paired desktop agent captures, OCR cached beside the screenshot, provider keys from secrets;
//   - `fotos-agent mcp` standalone (desktop-agent/src/mcp): a temporary folder, this computer's
//     screen, tesseract.js, provider keys from the environment.
// Whoever serves the domain passes its backend in, as the definition's `backend`.
import type { RequestContext } from "../../mcp/define.js";
import type { OcrEngine, OcrLanguage, OcrResult } from "../../platform/ocr.js";
import type { VisionAdapter, VisionProvider } from "../../platform/vision-llm.js";
import type { AiChoice } from "./ai-settings.js";
import type { CaptureArgs, NewScreenshot, ScreenshotMeta } from "./screenshots.js";
import type { Settings } from "./settings.js";

export interface CapturedScreenshot {
  meta: ScreenshotMeta;
  png: Buffer;
  /** The computer that took it, and the user's other computers that could have (named in the tool's text). */
  agent: { name: string };
  otherAgents: string[];
}

export interface FotosBackend {
  /** Takes a screenshot and stores it (the seed's capture errors: no display, no matching window…). */
  capture(args: CaptureArgs, ctx: RequestContext): Promise<CapturedScreenshot>;
  save(png: Buffer, meta: NewScreenshot): Promise<ScreenshotMeta>;
  /** Metadata and original PNG; an unknown or expired id is screenshotNotFound. */
  load(id: string): Promise<{ meta: ScreenshotMeta; png: Buffer }>;
  meta(id: string): Promise<ScreenshotMeta>;
  /** The newest `limit`, newest first. */
  list(limit: number): Promise<ScreenshotMeta[]>;
  settings(): Promise<Settings>;
  aiChoice(): Promise<AiChoice>;
  /** OCR in one language: a cached result, or a new one (then cached). */
  ocr(meta: ScreenshotMeta, png: Buffer, language: OcrLanguage): Promise<{ result: OcrResult; cached: boolean }>;
  /** A cached OCR result (in `language`, else the newest), if any. */
  cachedOcr(id: string, language?: OcrLanguage): Promise<OcrResult | undefined>;
  /** The engine a redaction's re-check reads with (the function's counts Cloud Vision calls against its budget). */
  ocrEngine(): Promise<OcrEngine>;
  /** Counts an annotation or a redaction against the person's daily quota (the function; nothing on this computer). */
  useQuota(action: "annotation" | "redaction"): Promise<void>;
  /** The provider's adapter; a missing key is the seed's missing-key error. */
  vision(provider: VisionProvider): Promise<VisionAdapter>;
}

export type BackendFactory = (ctx: RequestContext) => FotosBackend;

/** The backend for this request (the caller's screenshots), from the factory the host passed in (the domain's `backend`). */
export function backendOf(ctx: RequestContext): FotosBackend {
  const factory = ctx.backend as BackendFactory | undefined;
  if (typeof factory !== "function") throw new Error("the fotos domain was served without a backend");
  return factory(ctx);
}
