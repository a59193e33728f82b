// What the user chose for analysis in settings://current (the stored settings' `ai` section):
// the default provider, a model per provider, the Ollama URL and the OCR language. Only values the user actually
// stored count here, so the operator's environment (OLLAMA_URL, *_VISION_MODEL) stays the default.
import { VISION_PROVIDERS, type VisionProvider } from "../../platform/vision-llm.js";

export interface AiChoice {
  defaultProvider?: VisionProvider;
  /** OCR language code as stored (checked where it is used). */
  ocrLanguage?: string;
  models: Partial<Record<VisionProvider, string>>;
  ollamaUrl?: string;
}

const isProvider = (v: unknown): v is VisionProvider => (VISION_PROVIDERS as readonly unknown[]).includes(v);

/** The choices in a stored `ai` section (anything else: none). */
export function aiChoiceFrom(stored: unknown): AiChoice {
  const ai = stored && typeof stored === "object" ? (stored as Record<string, unknown>) : undefined;
  const models: AiChoice["models"] = {};
  const storedModels = ai?.models && typeof ai.models === "object" ? (ai.models as Record<string, unknown>) : {};
  for (const p of VISION_PROVIDERS) if (typeof storedModels[p] === "string" && storedModels[p]) models[p] = storedModels[p] as string;
  const url = typeof ai?.ollamaUrl === "string" && /^https?:\/\//.test(ai.ollamaUrl) ? ai.ollamaUrl : undefined;
  return {
    ...(isProvider(ai?.defaultProvider) ? { defaultProvider: ai.defaultProvider } : {}),
    ...(typeof ai?.ocrLanguage === "string" && ai.ocrLanguage ? { ocrLanguage: ai.ocrLanguage } : {}),
    models,
    ...(url ? { ollamaUrl: url } : {}),
  };
}
