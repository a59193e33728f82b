// The vision providers' streamed answers as their APIs send them, for local stand-ins: Claude's
// and OpenAI's server-sent events, Gemini's streamGenerateContent (alt=sse), Ollama's NDJSON.
// An answer is given in the provider's non-streamed shape and sent as a stream of parts, its text
// cut into `parts` pieces with `gapMs` between them.
import type { ServerResponse } from "node:http";

export interface StreamOptions {
  /** Pieces the text is cut into (at least one). */
  parts?: number;
  /** Wait before each piece after the first event. */
  gapMs?: number;
  /** Ends early when the client goes away. */
  signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pieces(text: string, n: number): string[] {
  if (!text) return [];
  const size = Math.ceil(text.length / Math.max(1, n));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Which provider a request path belongs to, and whether it asks for a stream. */
export function streamedProvider(path: string, body: any): "claude" | "openai" | "gemini" | "ollama" | undefined {
  if (path === "/v1/messages" && body?.stream) return "claude";
  if (path === "/v1/chat/completions" && body?.stream) return "openai";
  if (path.endsWith(":streamGenerateContent")) return "gemini";
  if (path === "/api/chat" && body?.stream !== false) return "ollama";
  return undefined;
}

/** Writes `answer` (the provider's non-streamed answer) as the provider's stream. */
export async function writeStreamed(res: ServerResponse, provider: "claude" | "openai" | "gemini" | "ollama", answer: any, opts: StreamOptions = {}): Promise<void> {
  const n = opts.parts ?? 2;
  const gap = async () => {
    if (opts.gapMs) await sleep(opts.gapMs);
    return !res.destroyed && !opts.signal?.aborted;
  };
  const sse = (data: unknown, event?: string) => res.write(`${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`);
  res.statusCode = 200;
  switch (provider) {
    case "claude": {
      res.setHeader("content-type", "text/event-stream");
      const { content, stop_reason, stop_sequence, usage, ...message } = answer;
      sse({ type: "message_start", message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input_tokens, output_tokens: 1 } } }, "message_start");
      const text = (content as { type: string; text: string }[]).map((b) => b.text).join("");
      if (text) {
        sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start");
        for (const piece of pieces(text, n)) {
          if (!(await gap())) return;
          sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: piece } }, "content_block_delta");
        }
        sse({ type: "content_block_stop", index: 0 }, "content_block_stop");
      }
      sse({ type: "message_delta", delta: { stop_reason, stop_sequence }, usage: { output_tokens: usage.output_tokens } }, "message_delta");
      sse({ type: "message_stop" }, "message_stop");
      break;
    }
    case "openai": {
      res.setHeader("content-type", "text/event-stream");
      const { choices, usage, object: _object, ...rest } = answer;
      const choice = choices[0];
      const chunk = (delta: unknown, finish: string | null) => sse({ ...rest, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] });
      chunk({ role: "assistant", content: "" }, null);
      for (const piece of pieces(choice.message.content ?? "", n)) {
        if (!(await gap())) return;
        chunk({ content: piece }, null);
      }
      if (choice.message.refusal) chunk({ refusal: choice.message.refusal }, null);
      chunk({}, choice.finish_reason);
      sse({ ...rest, object: "chat.completion.chunk", choices: [], usage });
      res.write("data: [DONE]\n\n");
      break;
    }
    case "gemini": {
      res.setHeader("content-type", "text/event-stream");
      const { candidates, usageMetadata, ...rest } = answer;
      const candidate = candidates?.[0];
      const text = (candidate?.content?.parts ?? []).map((p: { text?: string }) => p.text ?? "").join("");
      const all = pieces(text, n);
      if (!all.length) sse({ ...rest, candidates, usageMetadata });
      for (const [i, piece] of all.entries()) {
        if (i > 0 && !(await gap())) return;
        const last = i === all.length - 1;
        sse({ ...rest, candidates: [{ content: { role: "model", parts: [{ text: piece }] }, ...(last ? { finishReason: candidate.finishReason } : {}) }], ...(last ? { usageMetadata } : {}) });
      }
      break;
    }
    case "ollama": {
      res.setHeader("content-type", "application/x-ndjson");
      const { message, done: _done, done_reason, prompt_eval_count, eval_count, ...rest } = answer;
      for (const piece of pieces(message.content, n)) {
        res.write(`${JSON.stringify({ ...rest, message: { role: "assistant", content: piece }, done: false })}\n`);
        if (!(await gap())) return;
      }
      res.write(`${JSON.stringify({ ...rest, message: { role: "assistant", content: "" }, done: true, done_reason, prompt_eval_count, eval_count })}\n`);
      break;
    }
  }
  res.end();
}
