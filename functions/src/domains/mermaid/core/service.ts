// The one place the tools and the HTTP API share: input rules, messages, and the calls into the
// render pool. The two input messages below are the spec's exact wording: keep them word for word.
import { invalidInput, tooLarge, ToolError } from "../../../core/errors.js";
import { fromWorker } from "../../../platform/mermaid/diagrams.js";
import { renderPool } from "../../../platform/mermaid/pool.js";
import { MAX_CODE_LENGTH, type Labels, type RenderOutcome, type Theme, type VerifyOutcome } from "../../../platform/mermaid/protocol.js";

export const EMPTY_CODE_MESSAGE = "Invalid input: code must be a non-empty string";
export const TOO_LONG_MESSAGE = "Code exceeds maximum length of 50KB";

/** The input rule: a non-empty string (not only whitespace) of at most MAX_CODE_LENGTH characters. */
export function checkCode(code: unknown): string {
  if (typeof code !== "string" || !code.trim()) throw invalidInput(EMPTY_CODE_MESSAGE);
  if (code.length > MAX_CODE_LENGTH) throw tooLarge(TOO_LONG_MESSAGE);
  return code;
}

export async function verifyDiagram(code: unknown, signal?: AbortSignal): Promise<{ ok: boolean; error?: string }> {
  const text = checkCode(code);
  let outcome: VerifyOutcome;
  try {
    outcome = await renderPool().run<VerifyOutcome>({ op: "verify", code: text }, { signal });
  } catch (err) {
    // verify draws the diagram too (engine.ts): a diagram render would stop for running too long
    // or out of memory is one to fix, like a syntax error. Busy/cancelled stay errors.
    if (err instanceof ToolError && err.kind === "timeout") return { ok: false, error: err.message };
    fromWorker(err);
  }
  return outcome.ok ? { ok: true } : { ok: false, error: outcome.error ?? "Invalid Mermaid syntax" };
}

/** Why a render or verify asked now would be refused at once (busy, cannot start), or undefined. */
export const rendererRefusal = () => renderPool().refusal();

export interface Rendered {
  svg: string;
  diagramType: string;
  png?: Buffer;
  /** Why the PNG is missing, when it failed (the SVG is still the answer). */
  pngError?: string;
}

export interface RenderOptions {
  png?: boolean;
  /** "html" (default): labels as HTML in foreignObject; "text": plain SVG <text>, same layout. */
  labels?: Labels;
  signal?: AbortSignal;
}

export async function renderDiagram(code: unknown, theme: Theme = "default", opts: RenderOptions = {}): Promise<Rendered> {
  const text = checkCode(code);
  const job = { op: "render" as const, code: text, theme, png: !!opts.png, labels: opts.labels ?? "html" };
  const out = await renderPool().run<RenderOutcome>(job, { signal: opts.signal }).catch(fromWorker);
  return { svg: out.svg, diagramType: out.diagramType, ...(out.png ? { png: Buffer.from(out.png) } : {}), ...(out.pngError ? { pngError: out.pngError } : {}) };
}

/** `diagram-YYYY-MM-DDTHH-MM-SS.svg` in UTC. */
export function exportFilename(at = new Date()): string {
  return `diagram-${at.toISOString().slice(0, 19).replace(/:/g, "-")}.svg`;
}
