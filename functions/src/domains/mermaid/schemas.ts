// Argument and result schemas shared by the three tools and the HTTP API.
import { z } from "zod";
import { LABELS, MAX_CODE_LENGTH, THEMES } from "../../platform/mermaid/protocol.js";
import { EMPTY_CODE_MESSAGE } from "./core/service.js";

const codeMessage = EMPTY_CODE_MESSAGE.replace(/^Invalid input: /, "");

/**
 * Missing code reads "code must be a non-empty string", the same words as the empty-code error
 * (EMPTY_CODE_MESSAGE); a wrong type names the type (mcp/validation.ts).
 */
const code = (description: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? codeMessage : undefined) })
    .describe(`${description} (at most ${MAX_CODE_LENGTH.toLocaleString("en-US")} characters)`);

const theme = z.enum(THEMES).optional().describe('Mermaid theme: "default" (when omitted), "neutral", "dark", "forest" or "base"');

// Beyond the spec's `code` (which stays the only required argument): optional extras.
const labels = z
  .enum(LABELS)
  .optional()
  .describe(
    'How labels are drawn: "html" (default; HTML inside foreignObject, best in browsers) or "text" (plain SVG text, same layout, for viewers without foreignObject support: design tools, slide software, Inkscape)',
  );

export const verifyInput = z.object({ code: code("Mermaid diagram code to verify") });
export const renderInput = z.object({ code: code("Mermaid diagram code to render"), theme, labels });
export const svgInput = z.object({ code: code("Mermaid diagram code to export"), theme, labels });

export const verifyOutput = z.object({
  ok: z.boolean().describe("true when the code is valid Mermaid"),
  error: z.string().optional().describe("What is wrong and where (line, column, the offending line), when ok is false"),
});
export const renderOutput = z.object({ svg: z.string().describe("Sanitized, self-contained SVG") });
export const svgOutput = z.object({
  svg: z.string().describe("Sanitized, self-contained SVG"),
  filename: z.string().describe("Suggested file name: diagram-YYYY-MM-DDTHH-MM-SS.svg (UTC)"),
});

export const annotations = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };
