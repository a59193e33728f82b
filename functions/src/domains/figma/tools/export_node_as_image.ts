// export_node_as_image: a layer as PNG/JPG (shown to the model, downscaled) or SVG (as text).
import { z } from "zod";
import { figmaTool, present } from "../figma-tool.js";
import { nodeId, READ } from "../schema.js";

export const exportNodeAsImage = figmaTool({
  name: "export_node_as_image",
  title: "Export node as image",
  description:
    "Renders a layer as Figma exports it: PNG or JPG (returned as an image, downscaled to at most 1568 px a side for the model; width/height say what you got, originalWidth/originalHeight what Figma rendered) " +
    "or SVG (returned as SVG text). scale 0.1–4 (default 1).",
  args: {
    nodeId: nodeId("The layer to export"),
    format: z.enum(["PNG", "JPG", "SVG"]).default("PNG").describe("PNG (default), JPG or SVG"),
    scale: z.number().min(0.1).max(4).default(1).describe("Export scale, 0.1–4 (default 1; PNG/JPG only)"),
  },
  annotations: READ,
  present(result, session) {
    const { base64, svg, ...meta } = result as { base64?: string; svg?: string; mimeType?: string } & Record<string, unknown>;
    if (typeof svg === "string") {
      return present({ ...meta, svgChars: svg.length }, session, [{ type: "text", text: svg }]);
    }
    return present(meta, session, base64 ? [{ type: "image", data: base64, mimeType: String(meta.mimeType ?? "image/png") }] : []);
  },
});
