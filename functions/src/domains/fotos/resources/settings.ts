// settings://current: the user's Fotos settings (capture, annotation, ai, ui), or the defaults.
import { staticResource } from "../../../mcp/define.js";
import { backendOf } from "../backend.js";

export const currentSettings = staticResource(
  {
    name: "current-settings",
    uri: "settings://current",
    title: "Current settings",
    description: "Your Fotos settings as JSON: capture preferences, annotation defaults, AI configuration (no keys) and UI preferences; defaults where you set nothing.",
    mimeType: "application/json",
  },
  async (uri, ctx) => {
    const settings = await backendOf(ctx).settings();
    return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(settings, null, 2) }] };
  },
);
