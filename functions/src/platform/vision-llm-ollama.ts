// A local Ollama through the ollama client (/api/chat with base64 images). The URL and model
// come from the user's settings when set, else OLLAMA_URL / OLLAMA_VISION_MODEL. No key.
import { Ollama } from "ollama";
import { fitForProvider, providerError, type VisionAdapter, type VisionAnswer, type VisionRequest } from "./vision-llm.js";

export const OLLAMA_DEFAULT_URL = "http://127.0.0.1:11434";
export const OLLAMA_DEFAULT_MODEL = "llava";

export class OllamaVision implements VisionAdapter {
  private readonly clients = new Map<string, Ollama>();

  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  async analyze(req: VisionRequest): Promise<VisionAnswer> {
    const host = req.settings?.ollamaUrl || this.env.OLLAMA_URL || OLLAMA_DEFAULT_URL;
    const model = req.settings?.model || this.env.OLLAMA_VISION_MODEL || OLLAMA_DEFAULT_MODEL;
    let client = this.clients.get(host);
    if (!client) this.clients.set(host, (client = new Ollama({ host })));
    const image = await fitForProvider(req.png, "ollama");
    const abort = () => client.abort();
    req.signal?.addEventListener("abort", abort, { once: true });
    try {
      const response = await client.chat({ model, stream: false, messages: [{ role: "user", content: req.prompt, images: [image.data.toString("base64")] }] });
      return {
        text: response.message.content,
        provider: "ollama",
        model: response.model,
        usage: { input_tokens: response.prompt_eval_count ?? 0, output_tokens: response.eval_count ?? 0 },
      };
    } catch (err) {
      const status = (err as { status_code?: number }).status_code;
      throw providerError("ollama", status, (err as Error).message, host);
    } finally {
      req.signal?.removeEventListener("abort", abort);
    }
  }
}
