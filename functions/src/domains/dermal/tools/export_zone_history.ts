// export_zone_history: the time series of one zone's (or every zone's) metrics over a date range,
// as JSON records or CSV, oldest first. One record per analysed session and zone. A response
// stops before RESULT_LIMIT (the whole result, both copies of the records) at a record boundary,
// says so, and hands out a cursor for the rest: paging in ../export.ts.
import { z } from "zod";
import { dateArg, parseDateArg } from "../../../mcp/dates.js";
import { tool } from "../../../mcp/signed-in.js";
import { invalidInput } from "../../../core/errors.js";
import { readableUser } from "../access.js";
import { decodeExportCursor, queryKey } from "../cursor.js";
import { exportPage, RESULT_LIMIT_TEXT } from "../export.js";
import { exportSchema, METRICS, uidArg, ZONES, type Metric } from "../schema.js";
import { dermalStore } from "../records.js";
import { HISTORY_VIEW } from "../views.js";

export const exportZoneHistory = tool(
  {
    name: "export_zone_history",
    title: "Export zone history",
    description:
      "Export the time series of skin metrics for one facial zone (or all zones) over a date range, oldest first, as JSON records or CSV " +
      `(one record per analysed session and zone). Responses are limited to ${RESULT_LIMIT_TEXT}: when more records exist, the response says truncated, ` +
      "and nextCursor must be passed as cursor, with the same other arguments, to get the next part.",
    inputSchema: z.object({
      uid: uidArg(),
      zone: z.enum(ZONES).optional().describe("Facial zone; omit for all zones"),
      metrics: z.array(z.enum(METRICS)).min(1).max(METRICS.length).optional().describe("Metrics to include; omit for all"),
      from: dateArg("from", "Start of the range, inclusive: YYYY-MM-DD (UTC day) or ISO 8601 timestamp").optional(),
      to: dateArg("to", "End of the range, inclusive: YYYY-MM-DD (UTC day) or ISO 8601 timestamp").optional(),
      format: z.enum(["json", "csv"]).default("json").describe("json (records) or csv (text with a header line)"),
      cursor: z.string().max(1000).optional().describe("nextCursor of the previous, truncated response"),
    }),
    outputSchema: exportSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    ui: { resourceUri: HISTORY_VIEW.uri },
  },
  async (input, ctx) => {
    const from = input.from ? parseDateArg(input.from, "start") : null;
    const to = input.to ? parseDateArg(input.to, "end") : null;
    if (from && to && from > to) throw invalidInput("Invalid input: from must not be after to");
    const metrics: Metric[] = input.metrics ? METRICS.filter((m) => input.metrics!.includes(m)) : [...METRICS];
    const key = queryKey([input.uid, input.zone ?? null, metrics, from?.toISOString() ?? null, to?.toISOString() ?? null, input.format]);
    const start = input.cursor !== undefined ? decodeExportCursor(input.cursor, key) : null;

    await readableUser(ctx, input.uid);
    return exportPage(dermalStore(ctx).reportReader(input.uid, from, to, start), {
      uid: input.uid,
      zone: input.zone ?? null,
      metrics,
      from,
      to,
      format: input.format,
      start,
      key,
    });
  },
);
