// take_screenshot {mode, monitor_index, window_title, delay_ms}: the user's desktop agent captures,
// the function stores the original and answers with a copy sized for the model.
import { z } from "zod";
import { tool } from "../../../mcp/define.js";
import { backendOf } from "../backend.js";
import { modelImageContent } from "../image.js";
import { screenshotMetaSchema, screenshotUri } from "../schema.js";
import { CAPTURE_MODES, MAX_DELAY_MS, quoted, type ScreenshotMeta } from "../screenshots.js";
import { summarize } from "../pii/summary.js";
import { captureDefaults, captureRedaction } from "../settings.js";

export const takeScreenshot = tool(
  {
    name: "take_screenshot",
    title: "Take screenshot",
    description:
      "Capture a screenshot of the desktop, a specific monitor, or a specific window on the user's computer (through the Fotos desktop agent). " +
      "mode: fullscreen (all monitors composited, default), monitor (monitor_index, 0 = first), window (the first window whose title contains window_title, case-insensitive). " +
      "delay_ms waits before capturing. Returns the image (downscaled to at most 1568 px for you) and its metadata; the full-resolution PNG stays at screenshots://{id}.",
    inputSchema: z.object({
      // The seed's defaults are advertised; a call that omits them gets the person's capture settings (which default to them).
      mode: z.enum(CAPTURE_MODES).optional().meta({ default: "fullscreen" }).describe("The capture mode (default: capture.defaultMode in settings://current, else fullscreen)"),
      monitor_index: z.number().int().min(0).optional().describe("The monitor index (0-based), used when mode is monitor (default 0)"),
      window_title: z.string().max(200).optional().describe("A substring to match against window titles (case-insensitive), used when mode is window"),
      delay_ms: z.number().int().min(0).max(MAX_DELAY_MS).optional().meta({ default: 0 }).describe("Delay in milliseconds before capture (default: capture.delayMs in settings://current, else 0)"),
      redact_before_upload: z
        .boolean()
        .optional()
        .describe("Redact personal data and secrets (OCR + solid boxes) on the user's computer before the image is uploaded, so the unredacted image never leaves it (default: capture.redactBeforeUpload in settings://current, else false; when that setting is on, false does not turn it off)"),
    }),
    outputSchema: screenshotMetaSchema.extend({
      uri: z.string().describe("screenshots://{id}: the full-resolution PNG"),
      agent: z.string().describe("The computer (paired Fotos agent) that took it"),
      otherAgents: z.array(z.string()).describe("The user's other online agents, which were not used"),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  async ({ redact_before_upload, ...input }, ctx) => {
    const fotos = backendOf(ctx);
    const settings = await fotos.settings();
    const { meta, png, agent, otherAgents } = await fotos.capture({ ...input, ...captureDefaults(settings, input), ...captureRedaction(settings, redact_before_upload) }, ctx);
    const image = await modelImageContent(png);
    const what = meta.mode === "monitor" ? `monitor ${meta.monitorIndex}` : meta.mode === "window" ? `window matching "${meta.windowTitle}"` : "fullscreen";
    const others = otherAgents.length ? ` Other online agents (not used): ${otherAgents.map(quoted).join(", ")}; the most recently active one captures.` : "";
    const text =
      `Screenshot ${meta.id}: ${meta.width}×${meta.height} px, ${what}, taken ${meta.createdAt} on ${quoted(agent.name)}. ` +
      `Full resolution: ${screenshotUri(meta.id)}.${redactedNote(meta)}${others}`;
    return { data: { ...meta, uri: screenshotUri(meta.id), agent: agent.name, otherAgents }, text, content: [image] };
  },
);

/** " Redacted on the computer before upload: 2 items (1 email, 1 phone); …" */
function redactedNote(meta: ScreenshotMeta): string {
  const r = meta.redaction;
  if (!r || r.where !== "device") return "";
  if (!r.detections.length) return " Checked on the computer before upload: no personal data found.";
  const check = r.recheck === "clean" ? "a second OCR read none back" : "a second OCR found more, covered too";
  return ` Redacted on the computer before upload: ${summarize(r.detections)}; ${check}.`;
}
