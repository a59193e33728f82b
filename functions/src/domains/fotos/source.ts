// The screenshot a vision tool works on: a stored one by id, or — where the seed says "if
// omitted, a new fullscreen capture is taken first" — a fresh fullscreen capture by the agent.
import type { SignedInContext } from "../../mcp/define.js";
import { captureScreenshot } from "./capture.js";
import { loadScreenshot, type ScreenshotMeta } from "./store.js";

export function uidOf(ctx: SignedInContext): string {
  return ctx.caller.uid;
}

export async function screenshotOrCapture(ctx: SignedInContext, id: string | undefined): Promise<{ meta: ScreenshotMeta; png: Buffer; captured: boolean }> {
  const uid = uidOf(ctx);
  if (id !== undefined) return { ...(await loadScreenshot(uid, id)), captured: false };
  const { meta, png } = await captureScreenshot(ctx, { mode: "fullscreen" });
  return { meta, png, captured: true };
}
