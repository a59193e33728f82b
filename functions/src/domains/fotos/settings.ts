// The user's Fotos settings (capture, annotation, ai, ui: the seed's sections), read over the
// defaults below: a user with no settings, or with only some, gets the defaults for the rest.
// Unknown keys are ignored, wrong types fall back. Where they are stored is the backend's business
// (the function: users/{uid}/fotos/settings; `fotos-agent mcp` standalone: nowhere, the defaults).

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

/** Stored values over the defaults. */
export const settingsFrom = (stored: unknown): Settings => overlay(DEFAULT_SETTINGS, stored);
