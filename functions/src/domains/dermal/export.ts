// export_zone_history's paging (the tool, tools/export_zone_history.ts, checks arguments and
// access). A response holds whole records until the whole serialized tool result would pass
// RESULT_LIMIT. That result carries the records twice — as the text block for the model and as
// structuredContent — so both copies count, with the escaping JSON adds to each. Reports are read
// only as far as records can still fit, plus one to learn whether more exist.
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { z } from "zod";
import { jsonText, serializedBytes, textContent } from "../../mcp/content.js";
import type { StructuredResult } from "../../mcp/define.js";
import { tooLarge } from "../../core/errors.js";
import { encodeExportCursor, type CursorPosition } from "./cursor.js";
import { ZONES, type exportSchema, type Metric, type Zone, type ZoneRecord } from "./schema.js";
import type { ReportReader } from "./records.js";

/** Largest serialized tool result (JSON of content + structuredContent), in bytes. */
export const RESULT_LIMIT = 100_000;
/** RESULT_LIMIT as the tool's description and messages state it. */
export const RESULT_LIMIT_TEXT = `${RESULT_LIMIT / 1000} KB`;
/** Room kept for what grows when a response is truncated (note, cursor, in both copies). */
const TRUNCATION_RESERVE = 2_000;
/** Most reports one Firestore read asks for. */
const MAX_BATCH = 100;

export type ExportData = z.input<typeof exportSchema>;

export interface ExportRequest {
  uid: string;
  zone: Zone | null;
  metrics: Metric[];
  from: Date | null;
  to: Date | null;
  format: "json" | "csv";
  /** where the previous response stopped (from its cursor), or null for the first part */
  start: CursorPosition | null;
  /** the cursor's binding to these arguments (cursor.ts queryKey) */
  key: string;
}

interface Entry {
  record: ZoneRecord;
  line: string;
  position: CursorPosition;
  /** bytes this record adds to the serialized result (both copies) */
  cost: number;
}

const bytes = (s: string): number => Buffer.byteLength(s, "utf8");
/** Bytes a string's content takes inside a JSON string (escapes included, quotes not). */
const escaped = (s: string): number => bytes(JSON.stringify(s)) - 2;

/** The serialized size of the tool result the shared layer makes of `out` (mcp/server.ts toCallToolResult). */
export function resultBytes(out: StructuredResult<unknown>): number {
  const result: CallToolResult = {
    content: [textContent(out.text ?? jsonText(out.data)), ...(out.content ?? [])],
    structuredContent: out.data as Record<string, unknown>,
  };
  return serializedBytes(result);
}

const csvField = (v: string | number | undefined): string => {
  const s = v === undefined ? "" : String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csvHeader = (metrics: Metric[]): string => ["sessionId", "capturedAt", "zone", ...metrics].join(",") + "\r\n";

function entry(req: ExportRequest, record: ZoneRecord, position: CursorPosition): Entry {
  if (req.format === "csv") {
    const line = [record.sessionId, record.capturedAt, record.zone, ...req.metrics.map((m) => record[m])].map(csvField).join(",") + "\r\n";
    return { record, line, position, cost: 2 * escaped(line) }; // in structuredContent.csv and in the text block
  }
  const json = JSON.stringify(record);
  // in structuredContent.records (plus a comma) and inside the text block's JSON string (plus a comma)
  return { record, line: "", position, cost: bytes(json) + 1 + escaped(json) + 1 };
}

/** The response for the first `entries` (a truncated one gets the note and the cursor after the last). */
function respond(req: ExportRequest, entries: Entry[], truncated: boolean): StructuredResult<ExportData> {
  const csv = req.format === "csv";
  const last = entries[entries.length - 1];
  const nextCursor = truncated && last ? encodeExportCursor(last.position, req.key) : undefined;
  const note = nextCursor
    ? `Truncated: this response holds the first ${entries.length} records (through ${last!.record.capturedAt}); the rest did not fit in ${RESULT_LIMIT_TEXT}. ` +
      `Call export_zone_history again with the same arguments and cursor "${nextCursor}" to get the next part.`
    : entries.length === 0
      ? "No analysed sessions in this range."
      : `Complete: ${entries.length} records.`;
  const csvText = csvHeader(req.metrics) + entries.map((e) => e.line).join("");
  const data: ExportData = {
    uid: req.uid,
    zone: req.zone,
    metrics: req.metrics,
    from: req.from?.toISOString() ?? null,
    to: req.to?.toISOString() ?? null,
    format: req.format,
    recordCount: entries.length,
    ...(csv ? { csv: csvText } : { records: entries.map((e) => e.record) }),
    truncated,
    ...(nextCursor ? { nextCursor } : {}),
    note,
  };
  // CSV: the text block is the CSV itself (ready to save or parse), the note a second block.
  return csv ? { data, text: csvText, content: [{ type: "text", text: note }] } : { data };
}

/** One part of the export: whole records, oldest first, within RESULT_LIMIT. */
export async function exportPage(reader: ReportReader, req: ExportRequest): Promise<StructuredResult<ExportData>> {
  const zones = req.zone ? [req.zone] : [...ZONES];
  const budget = RESULT_LIMIT - resultBytes(respond(req, [], false)) - TRUNCATION_RESERVE;
  // What one report costs, to ask Firestore only for reports that can still fit: the largest seen
  // so far, or before any, that of a plausible report (24-character id, 6-character values).
  const sample = Object.fromEntries(req.metrics.map((m) => [m, 100.25]));
  const guess = zones.reduce(
    (sum, zone) => sum + entry(req, { sessionId: "x".repeat(24), capturedAt: new Date(0).toISOString(), zone, ...sample }, { seconds: 0, nanos: 0, sessionId: "", zone }).cost,
    0,
  );
  let largest = 0;

  const entries: Entry[] = [];
  let used = 0;
  let truncated = false;
  let exhausted = false;
  const start = req.start;
  while (!truncated && !exhausted) {
    const want = Math.min(MAX_BATCH, Math.floor(Math.max(budget - used, 0) / (largest || guess)) + 1);
    const rows = await reader.read(want);
    if (rows.length < want) exhausted = true;
    for (const { report, position, capturedAt } of rows) {
      // the report the cursor points into: skip the zones the previous part already returned
      const resume = start && start.sessionId === position.sessionId && start.seconds === position.seconds && start.nanos === position.nanos;
      const skipThrough = resume ? ZONES.indexOf(start.zone) : -1;
      let reportCost = 0;
      for (const zone of zones) {
        if (ZONES.indexOf(zone) <= skipThrough) continue;
        const scores = report.zones[zone];
        if (!scores) continue;
        const record = { sessionId: report.sessionId, capturedAt, zone } as ZoneRecord;
        for (const m of req.metrics) record[m] = scores[m];
        const e = entry(req, record, { ...position, zone });
        if (used + e.cost > budget) {
          truncated = true;
          break;
        }
        used += e.cost;
        reportCost += e.cost;
        entries.push(e);
      }
      if (truncated) break;
      largest = Math.max(largest, reportCost);
    }
  }

  // The costs above are exact per record; measure the real result anyway and drop records from
  // the end should it still be over (it then says truncated, with a cursor after the last kept).
  let n = entries.length;
  let out = respond(req, entries, truncated);
  let size = resultBytes(out);
  while (size > RESULT_LIMIT && n > 0) {
    const average = used / entries.length;
    n = Math.max(0, n - Math.max(1, Math.ceil((size - RESULT_LIMIT) / average)));
    truncated = true;
    out = respond(req, entries.slice(0, n), true);
    size = resultBytes(out);
  }
  if (size > RESULT_LIMIT || (truncated && n === 0)) {
    throw tooLarge(`A single record of this export does not fit in a ${RESULT_LIMIT_TEXT} response: narrow it with zone or metrics`);
  }
  return out;
}
