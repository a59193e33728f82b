// list_screenshots {limit = 10}: the caller's most recent screenshots, newest first.
import { z } from "zod";
import { tool } from "../../../mcp/define.js";
import { backendOf } from "../backend.js";
import { screenshotMetaSchema } from "../schema.js";
import { MAX_LIST } from "../screenshots.js";

export const DEFAULT_LIST = 10;

export const listScreenshots = tool(
  {
    name: "list_screenshots",
    title: "List screenshots",
    description:
      `Returns metadata for your recent screenshots (id, timestamp, dimensions, capture mode), newest first. limit: 1–${MAX_LIST}, default ${DEFAULT_LIST}. ` +
      "Read screenshots://{id} for one image; other fotos tools take the id as screenshot_id.",
    inputSchema: z.object({
      limit: z.number().int().min(1).max(MAX_LIST).default(DEFAULT_LIST).describe(`The maximum number of screenshots to return (1–${MAX_LIST}, default ${DEFAULT_LIST})`),
    }),
    outputSchema: z.object({ count: z.number().int(), screenshots: z.array(screenshotMetaSchema) }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ limit }, ctx) => {
    const screenshots = await backendOf(ctx).list(limit);
    return { data: { count: screenshots.length, screenshots } };
  },
);
