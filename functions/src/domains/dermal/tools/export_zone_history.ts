// export_zone_history: the time series of one zone's (or every zone's) metrics over a date range,
// as JSON records or CSV, oldest first. One record per analysed session and zone. A response
// stops before 100 KB at a record boundary, says so, and hands out a cursor for the rest.
import { z } from "zod";
import { tool } from "../../../mcp/define.js";
import { readableUser } from "../access.js";
import { decodeCursor, encodeCursor, queryKey, type CursorPosition } from "../cursor.js";
import { parseDateArg } from "../../../mcp/dates.js";
import { exportSchema, METRICS, ZONES, type Metric, type ZoneRecord } from "../schema.js";
import { reportsInRange } from "../store.js";
import { invalidInput } from "../../../mcp/errors.js";

/** Largest response text, in characters (all ASCII): the seed's 100 KB. */
export const EXPORT_LIMIT = 100_000;
/** Room kept for the envelope (uid, arguments, cursor, note) around the records. */
const ENVELOPE_RESERVE = 2_000;

const dateArg = (name: string) =>
  z
    .string()
    .refine((v) => parseDateArg(v, "start") !== null, {
      error: `${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with a time zone, e.g. 2025-01-31 or 2025-01-31T08:00:00Z`,
    })
    .optional()
    .describe(`${name === "from" ? "Start" : "End"} of the range, inclusive: YYYY-MM-DD (UTC day) or ISO 8601 timestamp`);

const csvField = (v: string | number | undefined): string => {
  const s = v === undefined ? "" : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export const exportZoneHistory = tool(
  {
    name: "export_zone_history",
    title: "Export zone history",
    description:
      "Export the time series of skin metrics for one facial zone (or all zones) over a date range, oldest first, as JSON records or CSV " +
      "(one record per analysed session and zone). Responses are limited to 100 KB: when more records exist, the response says truncated, " +
      "and nextCursor must be passed as cursor, with the same other arguments, to get the next part.",
    inputSchema: z.object({
      uid: z.string().min(1).max(128).describe("Firebase Auth User ID"),
      zone: z.enum(ZONES).optional().describe("Facial zone; omit for all zones"),
      metrics: z.array(z.enum(METRICS)).min(1).max(METRICS.length).optional().describe("Metrics to include; omit for all"),
      from: dateArg("from"),
      to: dateArg("to"),
      format: z.enum(["json", "csv"]).default("json").describe("json (records) or csv (text with a header line)"),
      cursor: z.string().max(1000).optional().describe("nextCursor of the previous, truncated response"),
    }),
    outputSchema: exportSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async (input, ctx) => {
    const from = input.from ? parseDateArg(input.from, "start") : null;
    const to = input.to ? parseDateArg(input.to, "end") : null;
    if (from && to && from > to) throw invalidInput("Invalid input: from must not be after to");
    const metrics: Metric[] = input.metrics ? METRICS.filter((m) => input.metrics!.includes(m)) : [...METRICS];
    const zones = input.zone ? [input.zone] : [...ZONES];
    const key = queryKey([input.uid, input.zone ?? null, metrics, from?.toISOString() ?? null, to?.toISOString() ?? null, input.format]);
    const start = input.cursor !== undefined ? decodeCursor(input.cursor, key) : null;

    await readableUser(ctx, input.uid);

    const csv = input.format === "csv";
    const header = ["sessionId", "capturedAt", "zone", ...metrics].join(",") + "\r\n";
    const budget = EXPORT_LIMIT - ENVELOPE_RESERVE - (csv ? header.length + 2 : 0);
    let used = 0;
    const records: ZoneRecord[] = [];
    const lines: string[] = [];
    let last: (CursorPosition & { capturedAt: string }) | null = null;
    let truncated = false;

    outer: for await (const { report, position } of reportsInRange(input.uid, from, to, start)) {
      const skipThrough = start && start.sessionId === position.sessionId && start.seconds === position.seconds && start.nanos === position.nanos
        ? ZONES.indexOf(start.zone)
        : -1;
      for (const zone of zones) {
        if (ZONES.indexOf(zone) <= skipThrough) continue;
        const scores = report.zones[zone];
        if (!scores) continue;
        const record = { sessionId: report.sessionId, capturedAt: report.capturedAt, zone } as ZoneRecord;
        for (const m of metrics) record[m] = scores[m];
        let cost: number;
        let line = "";
        if (csv) {
          line = [record.sessionId, record.capturedAt, zone, ...metrics.map((m) => record[m])].map(csvField).join(",") + "\r\n";
          cost = line.length + 2; // CRLF is 4 characters once escaped in structuredContent
        } else {
          cost = JSON.stringify(record).length + 1;
        }
        if (used + cost > budget) {
          truncated = true;
          break outer;
        }
        used += cost;
        if (csv) lines.push(line);
        else records.push(record);
        last = { ...position, zone, capturedAt: report.capturedAt };
      }
    }

    const recordCount = csv ? lines.length : records.length;
    const nextCursor = truncated && last ? encodeCursor(last, key) : undefined;
    const note = nextCursor
      ? `Truncated: this response holds the first ${recordCount} records (through ${last!.capturedAt}); the rest did not fit in 100 KB. ` +
        `Call export_zone_history again with the same arguments and cursor "${nextCursor}" to get the next part.`
      : recordCount === 0
        ? "No analysed sessions in this range."
        : `Complete: ${recordCount} records.`;
    const csvText = header + lines.join("");
    const data = {
      uid: input.uid,
      zone: input.zone ?? null,
      metrics,
      from: from?.toISOString() ?? null,
      to: to?.toISOString() ?? null,
      format: input.format,
      recordCount,
      ...(csv ? { csv: csvText } : { records }),
      truncated,
      ...(nextCursor ? { nextCursor } : {}),
      note,
    };
    if (!csv) return { data };
    return { data, text: csvText, content: [{ type: "text" as const, text: note }] };
  },
);
