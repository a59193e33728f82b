// screenshots://recent (what list_screenshots returns by default) and screenshots://{id}
// (the full-resolution PNG as a blob, plus its metadata as JSON).
import { resourceTemplate, staticResource } from "../../../mcp/define.js";
import { backendOf } from "../backend.js";
import { screenshotUri } from "../schema.js";
import { DEFAULT_LIST } from "../tools/list_screenshots.js";

export const recentScreenshots = staticResource(
  {
    name: "recent-screenshots",
    uri: "screenshots://recent",
    title: "Recent screenshots",
    description: `Metadata of your ${DEFAULT_LIST} most recent screenshots (id, timestamp, dimensions, capture mode), newest first, as JSON.`,
    mimeType: "application/json",
  },
  async (uri, ctx) => {
    const screenshots = await backendOf(ctx).list(DEFAULT_LIST);
    return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify({ count: screenshots.length, screenshots }, null, 2) }] };
  },
);

export const screenshotResource = resourceTemplate(
  {
    name: "screenshot",
    uriTemplate: "screenshots://{id}",
    title: "Screenshot",
    description: "One screenshot by id: the full-resolution PNG (blob) and its metadata (timestamp, dimensions, capture mode) as JSON.",
    mimeType: "image/png",
    async list(ctx) {
      const screenshots = await backendOf(ctx).list(DEFAULT_LIST);
      return {
        resources: screenshots.map((s) => ({
          uri: screenshotUri(s.id),
          name: s.id,
          title: `Screenshot ${s.createdAt} (${s.mode}, ${s.width}×${s.height})`,
          mimeType: "image/png",
        })),
      };
    },
  },
  async (uri, { id }, ctx) => {
    const { meta, png } = await backendOf(ctx).load(id ?? "");
    return {
      contents: [
        { uri: uri.href, mimeType: "image/png", blob: png.toString("base64"), _meta: { ...meta } },
        { uri: `${uri.href}#metadata`, mimeType: "application/json", text: JSON.stringify(meta, null, 2) },
      ],
    };
  },
);
