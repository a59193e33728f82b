import { z } from "zod";
import { tool } from "../../../mcp/define.js";
import { VISION_PROVIDERS } from "../../../platform/vision-llm.js";
import { backendOf } from "../backend.js";
import { summarize } from "../pii/summary.js";
import type { RedactionResult } from "../pii/redact-screen.js";
import { screenshotForProvider } from "../source.js";

export const DEFAULT_ANALYSIS_PROMPT = "Describe what you see in this screenshot";

export const analyzeScreenshotTool = tool(
  {
    name: "analyze_screenshot",
    title: "Analyze a screenshot with a vision model",
    description:
      "Sends a screenshot and a prompt to a vision LLM and returns its answer with the model name and token usage. " +
      "provider: claude, openai, gemini, ollama (a local Ollama, URL from the settings); default: the provider chosen in settings://current, else claude. Without screenshot_id a new fullscreen screenshot is captured first. " +
      "The image is downscaled to what the provider accepts. With capture.redactBeforeUpload on in settings://current, a screenshot that was never redacted is redacted before it is sent.",
    inputSchema: z.object({
      screenshot_id: z.string().min(1).max(100).optional().describe("ID of a screenshot; if omitted, a new fullscreen capture is taken first"),
      prompt: z.string().min(1).max(10_000).default(DEFAULT_ANALYSIS_PROMPT).describe("What to ask about the screenshot"),
      provider: z.enum(VISION_PROVIDERS).optional().describe("LLM provider (default: the one chosen in settings://current, else claude)"),
    }),
    outputSchema: z.object({
      screenshot_id: z.string(),
      provider: z.enum(VISION_PROVIDERS),
      model: z.string(),
      text: z.string(),
      usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }),
    }),
    // Not read-only: without screenshot_id it captures and stores a new screenshot first.
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
  },
  async ({ screenshot_id, prompt, provider: asked }, ctx) => {
    const fotos = backendOf(ctx);
    const choice = await fotos.aiChoice();
    const provider = asked ?? choice.defaultProvider ?? "claude";
    const adapter = await fotos.vision(provider); // a missing key fails before any capture
    const { meta, png, redacted } = await screenshotForProvider(fotos, ctx, screenshot_id);
    const settings = { ...(choice.models[provider] ? { model: choice.models[provider] } : {}), ...(choice.ollamaUrl ? { ollamaUrl: choice.ollamaUrl } : {}) };
    const answer = await adapter.analyze({ png, prompt, signal: ctx.signal, settings });
    return {
      data: { screenshot_id: meta.id, provider, model: answer.model, text: answer.text, usage: answer.usage },
      text: `${answer.text}\n\n— ${provider} (${answer.model}), ${answer.usage.input_tokens} input + ${answer.usage.output_tokens} output tokens, screenshot ${meta.id}${redactedNote(redacted)}`,
    };
  },
);

/** Said when the setting made the analysis redact first. */
const redactedNote = (r: RedactionResult | undefined): string =>
  !r ? "" : r.detections.length ? `; ${summarize(r.detections)} redacted before it was sent (capture.redactBeforeUpload)` : "; checked for personal data before it was sent (capture.redactBeforeUpload): none found";
