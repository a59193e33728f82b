// The user's Fotos settings (capture, annotation, ai, ui: the seed's sections), read over the
// defaults below: a user with no settings, or with only some, gets the defaults for the rest.
// Unknown keys are ignored, wrong types fall back. Where they are stored is the backend's business
// (the function: users/{uid}/fotos/settings; `fotos-agent mcp` standalone: nowhere, the defaults).
import { CAPTURE_MODES, type CaptureMode } from "../../contracts/fotos-agent.js";
import { OCR_LANGUAGES } from "../../platform/ocr-result.js";
import { VISION_PROVIDERS } from "../../platform/vision-adapter.js";

export const DEFAULT_SETTINGS = {
  capture: {
    defaultMode: "fullscreen",
    delayMs: 0,
    format: "png",
    /** The desktop agent redacts PII (OCR + detection + boxes) before the image leaves the computer. */
    redactBeforeUpload: false,
  },
  annotation: {
    color: "#FF0000",
    strokeWidth: 2,
    fontSize: 16,
    blurRadius: 12,
  },
  ai: {
    defaultProvider: "claude",
    ocrLanguage: "eng",
    models: { claude: "claude-sonnet-4-5", openai: "gpt-4o", gemini: "gemini-2.5-flash", ollama: "llava" },
    ollamaUrl: "http://localhost:11434",
  },
  ui: {
    theme: "system",
    language: "en",
    /** The person's country (ISO 3166 alpha-2): the national phone number forms redaction reads first. */
    region: "US",
    notifications: true,
  },
};

export type Settings = typeof DEFAULT_SETTINGS;

// Keeps the default's shape: a stored value replaces a default only when it has the same type.
function overlay<T>(defaults: T, stored: unknown): T {
  if (defaults === null || typeof defaults !== "object" || Array.isArray(defaults)) {
    return typeof stored === typeof defaults ? (stored as T) : defaults;
  }
  const source = stored && typeof stored === "object" && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(defaults as Record<string, unknown>)) out[key] = overlay(value, source[key]);
  return out as T;
}

/**
 * The redaction a capture gets before it leaves the computer; every capture path (take_screenshot,
 * and a vision tool capturing first) asks here. The person's setting is a floor: a call may ask for
 * redaction, never turn it off (a model can be talked into asking by text on the screen).
 */
export function captureRedaction(settings: Settings, asked?: boolean): { redact?: { region: string } } {
  return asked || settings.capture.redactBeforeUpload ? { redact: { region: settings.ui.region } } : {};
}

/** What a capture takes and waits when the call does not say: the person's capture settings. */
export function captureDefaults(settings: Settings, asked: { mode?: CaptureMode; delay_ms?: number }): { mode: CaptureMode; delay_ms: number } {
  const stored = settings.capture.defaultMode as CaptureMode;
  return { mode: asked.mode ?? (CAPTURE_MODES.includes(stored) ? stored : "fullscreen"), delay_ms: asked.delay_ms ?? Math.max(0, settings.capture.delayMs) };
}

/** Stored values over the defaults. */
export const settingsFrom = (stored: unknown): Settings => overlay(DEFAULT_SETTINGS, stored);

/**
 * What each setting does, in one sentence (the home page shows it beside the default), and the
 * values it takes where only some make sense. Keyed by the setting's path in DEFAULT_SETTINGS.
 */
export const SETTING_HELP: Record<string, { does: string; choices?: readonly string[] }> = {
  "capture.defaultMode": { does: "What a capture takes when the AI app does not say.", choices: CAPTURE_MODES },
  "capture.delayMs": { does: "Milliseconds the desktop agent waits before it captures." },
  "capture.format": { does: "The image format screenshots are stored in.", choices: ["png"] },
  "capture.redactBeforeUpload": { does: "The desktop agent finds personal data (emails, phone numbers, card numbers) and blacks it out before the image leaves your computer, unless a call asks otherwise." },
  "annotation.color": { does: "Colour of arrows, boxes and text added to screenshots (#RRGGBB)." },
  "annotation.strokeWidth": { does: "Line width of arrows and boxes, in pixels." },
  "annotation.fontSize": { does: "Size of text annotations, in pixels." },
  "annotation.blurRadius": { does: "How strongly blurred areas are blurred." },
  "ai.defaultProvider": { does: "Which vision AI analyses screenshots when a call names none.", choices: VISION_PROVIDERS },
  "ai.ocrLanguage": { does: "The language text recognition reads when a call names none.", choices: OCR_LANGUAGES },
  "ai.models.claude": { does: "The Claude model used for analysis." },
  "ai.models.openai": { does: "The OpenAI model used for analysis." },
  "ai.models.gemini": { does: "The Gemini model used for analysis." },
  "ai.models.ollama": { does: "The Ollama model used for analysis." },
  "ai.ollamaUrl": { does: "Where your Ollama server runs." },
  "ui.theme": { does: "The look of the desktop agent's windows.", choices: ["system", "light", "dark"] },
  "ui.language": { does: "The language of the desktop agent's windows (ISO 639-1)." },
  "ui.region": { does: "Your country (ISO 3166 alpha-2): the national phone number forms redaction looks for first." },
  "ui.notifications": { does: "Whether the desktop agent tells you when it captures." },
};
