// Claude through @anthropic-ai/sdk (Messages API, streamed: each event tells the caller the model
// is still answering). ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL (read by the SDK) points it
// elsewhere; ANTHROPIC_VISION_MODEL picks the model.
import Anthropic from "@anthropic-ai/sdk";
import { declined, fitForProvider, missingKey, providerError, type VisionAdapter, type VisionAnswer, type VisionRequest } from "./vision-adapter.js";

export const CLAUDE_DEFAULT_MODEL = "claude-sonnet-4-5";

export class ClaudeVision implements VisionAdapter {
  private readonly client: Anthropic;
  private readonly model: string;

  constructor(env: NodeJS.ProcessEnv = process.env) {
    const apiKey = env.ANTHROPIC_API_KEY?.trim();
    if (!apiKey) throw missingKey("claude", "ANTHROPIC_API_KEY");
    this.client = new Anthropic({ apiKey, baseURL: env.ANTHROPIC_BASE_URL || undefined, maxRetries: 1, timeout: 120_000 });
    this.model = env.ANTHROPIC_VISION_MODEL || CLAUDE_DEFAULT_MODEL;
  }

  async analyze(req: VisionRequest): Promise<VisionAnswer> {
    const image = await fitForProvider(req.png, "claude");
    const model = req.settings?.model || this.model;
    try {
      const stream = this.client.messages.stream(
        {
          model,
          max_tokens: 4096,
          messages: [
            {
              role: "user",
              content: [
                { type: "image", source: { type: "base64", media_type: image.mimeType, data: image.data.toString("base64") } },
                { type: "text", text: req.prompt },
              ],
            },
          ],
        },
        { signal: req.signal },
      );
      stream.on("streamEvent", () => req.answering?.());
      const message = await stream.finalMessage();
      const text = message.content.map((block) => (block.type === "text" ? block.text : "")).join("");
      if (message.stop_reason === "refusal") throw declined("claude", "refusal");
      return { text, provider: "claude", model: message.model, usage: { input_tokens: message.usage.input_tokens, output_tokens: message.usage.output_tokens } };
    } catch (err) {
      if (err instanceof Anthropic.APIConnectionError) throw providerError("claude", undefined, err.message);
      if (err instanceof Anthropic.APIError) throw providerError("claude", err.status ?? undefined, err.message);
      throw err;
    }
  }
}
