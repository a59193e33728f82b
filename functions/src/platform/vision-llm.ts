// Vision LLMs behind one call: an image and a prompt in, text + model + token usage out.
// Providers (each in its own module, loaded on first use): claude (@anthropic-ai/sdk), openai
// (openai), gemini (@google/genai, Vertex AI in production: no key there), ollama (ollama, URL
// from settings). Keys come from the environment; in production they are Firebase secrets
// (see VISION_LLM_SECRETS), which Cloud Functions exposes as environment variables.
// Every failure is one sentence the agent can act on; upstream details go to the log only.
import { isDeployed } from "../core/where.js";
import { BUDGETS, callDependency } from "./deadline.js";
import type { VisionAdapter, VisionProvider } from "./vision-adapter.js";

export { declined, fitForProvider, missingKey, PROVIDER_MAX_SIDE, providerError, sayWhereKeysAreSet, VISION_PROVIDERS, type VisionAdapter, type VisionAnswer, type VisionProvider, type VisionRequest } from "./vision-adapter.js";

/** Firebase secret names the fotos function declares (firebase functions:secrets:set <name>). */
export const VISION_LLM_SECRETS = ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"] as const;

const deployed = () => isDeployed();

const adapters = new Map<VisionProvider, Promise<VisionAdapter>>();

async function adapterFor(provider: VisionProvider): Promise<VisionAdapter> {
  switch (provider) {
    case "claude":
      return new (await import("./vision-llm-claude.js")).ClaudeVision();
    case "openai":
      return new (await import("./vision-llm-openai.js")).OpenAiVision();
    case "gemini":
      return new (await import("./vision-llm-gemini.js")).GeminiVision({ deployed: deployed() });
    case "ollama":
      return new (await import("./vision-llm-ollama.js")).OllamaVision();
  }
}

/**
 * Every analysis within the vision model's budget (platform/deadline.ts): its streamed answer
 * must start and keep coming within it; the request's cancel still reaches it.
 */
const withinBudget = (adapter: VisionAdapter): VisionAdapter => ({
  analyze: (req) =>
    callDependency(BUDGETS.visionLlm, (signal, answering) =>
      adapter.analyze({ ...req, signal: req.signal ? AbortSignal.any([req.signal, signal]) : signal, answering: () => (answering(), req.answering?.()) }),
    ),
});

/** The provider's adapter (created once; a missing key throws the seed's error, and is not cached). */
export async function visionAdapter(provider: VisionProvider): Promise<VisionAdapter> {
  let adapter = adapters.get(provider);
  if (!adapter) {
    adapter = adapterFor(provider).then(withinBudget);
    adapters.set(provider, adapter);
    adapter.catch(() => adapters.delete(provider)); // a missing key is not cached
  }
  return adapter;
}
