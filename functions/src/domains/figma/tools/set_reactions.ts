// set_reactions: prototype interactions (replacing the layer's).
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

const reaction = z
  .object({
    trigger: z.enum(["ON_CLICK", "ON_HOVER", "ON_PRESS", "AFTER_TIMEOUT"]).describe("What starts it"),
    timeoutMs: z.number().int().min(1).max(600_000).optional().describe("For AFTER_TIMEOUT: the delay (default 800 ms)"),
    action: z.enum(["NAVIGATE", "OVERLAY", "SWAP", "BACK", "CLOSE", "URL"]).describe("What it does"),
    destinationId: nodeId("For NAVIGATE, OVERLAY, SWAP: the frame to go to").optional(),
    url: z.url({ protocol: /^https?$/ }).max(2000).optional().describe("For URL: the address"),
    transition: z.enum(["INSTANT", "DISSOLVE", "SMART_ANIMATE"]).default("INSTANT").describe("Animation (default INSTANT)"),
    durationMs: z.number().int().min(1).max(10_000).optional().describe("Animation length (default 300 ms)"),
  })
  .refine((r) => !["NAVIGATE", "OVERLAY", "SWAP"].includes(r.action) || r.destinationId, { error: "NAVIGATE, OVERLAY and SWAP need destinationId (a frame)" })
  .refine((r) => r.action !== "URL" || r.url, { error: "URL needs url" });

export const setReactions = figmaTool({
  name: "set_reactions",
  title: "Set prototype interactions",
  description: "Replaces a layer's prototype interactions: on click / hover / press / after a delay → navigate to, open as overlay or swap with a frame, go back, close the overlay, or open a URL, with an instant, dissolve or smart-animate transition. An empty list removes them.",
  args: { nodeId: nodeId(), reactions: z.array(reaction).max(20).describe("The interactions (0–20)") },
  annotations: UPDATE,
});
