// The seed's four prompts. Each returns the screenshot as an image message followed by the
// instruction (the model's copy of the image: long side ≤ 1568 px; the original stays behind
// screenshots://{id}). An unknown screenshot id is the store's not-found error.
import type { GetPromptResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { prompt, type RequestContext } from "../../../mcp/define.js";
import { backendOf } from "../backend.js";
import { modelImageContent } from "../image.js";

export const DESCRIBE_UI = "Describe the UI elements visible in this screenshot: windows, panels, controls (buttons, inputs, menus, tabs), their labels and states, and how the layout is organised.";
export const EXTRACT_CODE = "Extract all code visible in this screenshot. Return only the code, properly formatted (indentation preserved, in a fenced block with the language named), with no commentary.";
export const BUG_REPORT =
  "Analyze the error shown in this screenshot and generate a bug report with:\n1. Summary\n2. Steps to reproduce\n3. Expected vs. actual behavior\n4. Severity assessment (critical, major, minor or trivial, with the reason)";
export const ACCESSIBILITY_AUDIT =
  "Audit the UI in this screenshot for accessibility issues: color contrast, text size and legibility, touch/click target sizes, missing or unclear labels, reliance on color alone, focus indication and visual hierarchy. For each issue name the element, the WCAG 2.2 criterion, its severity and a fix.";

const screenshotArg = z.string().min(1).max(100).describe("ID of the screenshot");
const completeIds = async (prefix: string, ctx: RequestContext) =>
  (await backendOf(ctx).list(20)).map((m) => m.id).filter((id) => id.startsWith(prefix));

async function withScreenshot(ctx: RequestContext, id: string, description: string, instruction: string): Promise<GetPromptResult> {
  const { png } = await backendOf(ctx).load(id);
  return {
    description,
    messages: [
      { role: "user", content: await modelImageContent(png) },
      { role: "user", content: { type: "text", text: `${instruction}\n\n(Screenshot ${id}; full resolution at screenshots://${id}.)` } },
    ],
  };
}

export const describeUiPrompt = prompt(
  {
    name: "describe_ui",
    title: "Describe the UI in a screenshot",
    description: "Describe the UI elements visible in a screenshot.",
    argsSchema: z.object({ screenshot_id: screenshotArg }),
    complete: { screenshot_id: completeIds },
  },
  ({ screenshot_id }, ctx) => withScreenshot(ctx, screenshot_id, "Describe the UI elements in the screenshot", DESCRIBE_UI),
);

export const extractCodePrompt = prompt(
  {
    name: "extract_code",
    title: "Extract code from a screenshot",
    description: "Extract all visible code from a screenshot, properly formatted.",
    argsSchema: z.object({ screenshot_id: screenshotArg }),
    complete: { screenshot_id: completeIds },
  },
  ({ screenshot_id }, ctx) => withScreenshot(ctx, screenshot_id, "Extract the code in the screenshot", EXTRACT_CODE),
);

export const generateBugReportPrompt = prompt(
  {
    name: "generate_bug_report",
    title: "Bug report from a screenshot",
    description: "Create a bug report (summary, steps to reproduce, expected vs. actual, severity) from a screenshot showing an error.",
    argsSchema: z.object({
      screenshot_id: screenshotArg,
      context: z.string().max(10_000).optional().describe("Additional context about the bug, e.g. what you clicked"),
    }),
    complete: { screenshot_id: completeIds },
  },
  ({ screenshot_id, context }, ctx) =>
    withScreenshot(
      ctx,
      screenshot_id,
      "Generate a bug report from the screenshot",
      context?.trim() ? `${BUG_REPORT}\n\nAdditional context from the user: ${context.trim()}` : BUG_REPORT,
    ),
);

export const accessibilityAuditPrompt = prompt(
  {
    name: "accessibility_audit",
    title: "Accessibility audit of a screenshot",
    description: "Audit the UI in a screenshot for accessibility issues.",
    argsSchema: z.object({ screenshot_id: screenshotArg }),
    complete: { screenshot_id: completeIds },
  },
  ({ screenshot_id }, ctx) => withScreenshot(ctx, screenshot_id, "Accessibility audit of the screenshot", ACCESSIBILITY_AUDIT),
);

export const visionPrompts = [describeUiPrompt, extractCodePrompt, generateBugReportPrompt, accessibilityAuditPrompt];
