// Gemini through @google/genai. Deployed: Vertex AI with the function's service account (no
// key). Elsewhere: Vertex when GOOGLE_VERTEX_BASE_URL or GOOGLE_APPLICATION_CREDENTIALS is set
// (a plain-http base URL is a local stand-in and gets a fixed token), else the Gemini API with
// GEMINI_API_KEY. GEMINI_VISION_MODEL picks the model. The answer is streamed: each chunk tells
// the caller the model is still answering.
import { ApiError, GoogleGenAI, type GenerateContentResponse, type GoogleGenAIOptions } from "@google/genai";
import { OAuth2Client } from "google-auth-library";
import { declined, fitForProvider, missingKey, providerError, type VisionAdapter, type VisionAnswer, type VisionRequest } from "./vision-adapter.js";

export const GEMINI_DEFAULT_MODEL = "gemini-2.5-flash";

export class GeminiVision implements VisionAdapter {
  private readonly client: GoogleGenAI;
  private readonly model: string;

  constructor(opts: { deployed: boolean; env?: NodeJS.ProcessEnv; googleAuthOptions?: GoogleGenAIOptions["googleAuthOptions"] }) {
    const env = opts.env ?? process.env;
    const baseUrl = env.GOOGLE_VERTEX_BASE_URL;
    const vertex = opts.deployed || !!baseUrl || !!env.GOOGLE_APPLICATION_CREDENTIALS;
    this.model = env.GEMINI_VISION_MODEL || GEMINI_DEFAULT_MODEL;
    if (vertex) {
      let googleAuthOptions = opts.googleAuthOptions;
      if (!googleAuthOptions && baseUrl?.startsWith("http:")) {
        const authClient = new OAuth2Client();
        authClient.setCredentials({ access_token: "local", expiry_date: Date.now() + 365 * 86_400_000 });
        googleAuthOptions = { authClient };
      }
      this.client = new GoogleGenAI({
        vertexai: true,
        project: env.GOOGLE_CLOUD_PROJECT ?? env.GCLOUD_PROJECT,
        location: env.VERTEX_LOCATION ?? env.GOOGLE_CLOUD_LOCATION ?? "us-central1",
        ...(googleAuthOptions ? { googleAuthOptions } : {}),
        httpOptions: { ...(baseUrl ? { baseUrl } : {}), timeout: 120_000 },
      });
    } else {
      const apiKey = env.GEMINI_API_KEY?.trim();
      if (!apiKey) throw missingKey("gemini", "GEMINI_API_KEY (or run on Google Cloud, where Vertex AI needs no key)");
      this.client = new GoogleGenAI({ apiKey, httpOptions: { timeout: 120_000 } });
    }
  }

  async analyze(req: VisionRequest): Promise<VisionAnswer> {
    const image = await fitForProvider(req.png, "gemini");
    const model = req.settings?.model || this.model;
    try {
      const stream = await this.client.models.generateContentStream({
        model,
        contents: [{ role: "user", parts: [{ inlineData: { mimeType: image.mimeType, data: image.data.toString("base64") } }, { text: req.prompt }] }],
        config: { abortSignal: req.signal },
      });
      let text = "";
      let last: GenerateContentResponse | undefined;
      let blockReason: string | undefined;
      let finishReason: string | undefined;
      for await (const chunk of stream) {
        req.answering?.();
        text += chunk.text ?? "";
        last = chunk;
        blockReason = chunk.promptFeedback?.blockReason ?? blockReason;
        finishReason = chunk.candidates?.[0]?.finishReason ?? finishReason;
      }
      // Blocked prompts have no candidates; blocked answers stop for a safety-like reason, no text.
      const blocked = blockReason ?? (!text ? finishReason : undefined);
      if (blocked && blocked !== "STOP" && blocked !== "MAX_TOKENS") throw declined("gemini", String(blocked));
      return {
        text,
        provider: "gemini",
        model: last?.modelVersion ?? model,
        usage: { input_tokens: last?.usageMetadata?.promptTokenCount ?? 0, output_tokens: last?.usageMetadata?.candidatesTokenCount ?? 0 },
      };
    } catch (err) {
      if (err instanceof ApiError) throw providerError("gemini", err.status, err.message);
      if (err instanceof Error && /credentials/i.test(err.message)) throw missingKey("gemini", "GOOGLE_APPLICATION_CREDENTIALS or GEMINI_API_KEY");
      if (err instanceof TypeError) throw providerError("gemini", undefined, err.message);
      throw err;
    }
  }
}
