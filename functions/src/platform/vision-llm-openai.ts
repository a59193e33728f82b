// OpenAI through the openai SDK (Chat Completions with an image_url data URL, streamed: each
// chunk tells the caller the model is still answering). OPENAI_API_KEY;
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
      const stream = await this.client.chat.completions.create(
        {
          model,
          stream: true,
          stream_options: { include_usage: true },
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
      let text = "";
      let refusal = "";
      let finish: string | null | undefined;
      let answeredModel = model;
      let usage: { prompt_tokens?: number; completion_tokens?: number } | null | undefined;
      for await (const chunk of stream) {
        req.answering?.();
        answeredModel = chunk.model || answeredModel;
        usage = chunk.usage ?? usage;
        const choice = chunk.choices[0];
        text += choice?.delta.content ?? "";
        refusal += choice?.delta.refusal ?? "";
        finish = choice?.finish_reason ?? finish;
      }
      if (refusal) throw declined("openai", "refusal");
      if (finish === "content_filter" && !text) throw declined("openai", "content_filter");
      return { text, provider: "openai", model: answeredModel, usage: { input_tokens: usage?.prompt_tokens ?? 0, output_tokens: usage?.completion_tokens ?? 0 } };
    } catch (err) {
      if (err instanceof OpenAI.APIConnectionError) throw providerError("openai", undefined, err.message);
      if (err instanceof OpenAI.APIError) throw providerError("openai", err.status ?? undefined, err.message);
      throw err;
    }
  }
}
