// OpenAI through the openai SDK (Chat Completions with an image_url data URL). OPENAI_API_KEY;
// OPENAI_BASE_URL (read by the SDK) points it elsewhere; OPENAI_VISION_MODEL picks the model.
import OpenAI from "openai";
import { declined, fitForProvider, missingKey, providerError, type VisionAdapter, type VisionAnswer, type VisionRequest } from "./vision-adapter.js";

export const OPENAI_DEFAULT_MODEL = "gpt-4.1";

export class OpenAiVision implements VisionAdapter {
  private readonly client: OpenAI;
  private readonly model: string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    const apiKey = env.OPENAI_API_KEY?.trim();
    if (!apiKey) throw missingKey("openai", "OPENAI_API_KEY");
    this.client = new OpenAI({ apiKey, baseURL: env.OPENAI_BASE_URL || undefined, maxRetries: 1, timeout: 120_000 });
    this.model = env.OPENAI_VISION_MODEL || OPENAI_DEFAULT_MODEL;
  }

  async analyze(req: VisionRequest): Promise<VisionAnswer> {
    const image = await fitForProvider(req.png, "openai");
    const model = req.settings?.model || this.model;
    try {
      const completion = await this.client.chat.completions.create(
        {
          model,
          messages: [
            {
              role: "user",
              content: [
                { type: "text", text: req.prompt },
                { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data.toString("base64")}`, detail: "high" } },
              ],
            },
          ],
        },
        { signal: req.signal },
      );
      const choice = completion.choices[0];
      if (choice?.message.refusal) throw declined("openai", "refusal");
      if (choice?.finish_reason === "content_filter" && !choice.message.content) throw declined("openai", "content_filter");
      return {
        text: choice?.message.content ?? "",
        provider: "openai",
        model: completion.model,
        usage: { input_tokens: completion.usage?.prompt_tokens ?? 0, output_tokens: completion.usage?.completion_tokens ?? 0 },
      };
    } catch (err) {
      if (err instanceof OpenAI.APIConnectionError) throw providerError("openai", undefined, err.message);
      if (err instanceof OpenAI.APIError) throw providerError("openai", err.status ?? undefined, err.message);
      throw err;
    }
  }
}
