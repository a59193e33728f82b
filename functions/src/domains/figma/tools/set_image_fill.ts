// set_image_fill: an image (PNG/JPG/GIF, base64) as the layer's fill.
import { z } from "zod";
import { figmaTool } from "../figma-tool.js";
import { nodeId, UPDATE } from "../schema.js";

/** Base64 of at most ~600 KB of image: the command travels in one Firestore document (1 MiB). */
const MAX_IMAGE_BASE64 = 800_000;

export const setImageFill = figmaTool({
  name: "set_image_fill",
  title: "Set image fill",
  description: "Fills a layer with an image (PNG, JPG or GIF as base64, at most ~600 KB), scaled FILL (default), FIT, CROP or TILE.",
  args: {
    nodeId: nodeId(),
    imageBase64: z.string().min(8).max(MAX_IMAGE_BASE64).regex(/^[A-Za-z0-9+/=\s]+$/, { error: "imageBase64 must be base64 (no data: prefix)" }).describe("The image bytes, base64"),
    scaleMode: z.enum(["FILL", "FIT", "CROP", "TILE"]).default("FILL").describe("How the image fits (default FILL)"),
  },
  annotations: UPDATE,
});
