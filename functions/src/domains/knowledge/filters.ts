// Input fields and parsing shared by the search tools.
import { z } from "zod";
import { dateArg, parseDateArg } from "../../mcp/dates.js";
import { invalidInput } from "../../core/errors.js";
import { normalizeTags } from "./ingest/parse.js";
import type { Filters } from "./store.js";

export const filterFields = {
  tags: z.array(z.string().min(1).max(200)).max(30).optional().describe("Only chunks with at least one of these tags"),
  author: z.string().min(1).max(500).optional().describe("Only chunks by this author (exact)"),
  source: z.string().min(1).max(200).optional().describe('Only chunks from this source (exact), e.g. "kindle", "readwise", "markdown"'),
};

// Checked when the arguments are validated (the shared strict parser: `new Date()` would take "5"
// as the year 2001 or roll "2024-02-30" over to March); parsed once more below into instants.
export const dateFields = {
  date_from: dateArg("date_from", "Only chunks created on or after this date (YYYY-MM-DD, UTC, or an ISO 8601 timestamp)").optional(),
  date_to: dateArg("date_to", "Only chunks created on or before this date (YYYY-MM-DD includes that whole UTC day, or an ISO 8601 timestamp)").optional(),
};

/** A date argument already validated by dateArg, as the instant it means (undefined when absent). */
const instant = (value: string | undefined, edge: "start" | "end"): Date | undefined => (value ? (parseDateArg(value, edge) ?? undefined) : undefined);

export function toFilters(input: { tags?: string[] | undefined; author?: string | undefined; source?: string | undefined; date_from?: string | undefined; date_to?: string | undefined }): Filters {
  const dateFrom = instant(input.date_from, "start");
  const dateTo = instant(input.date_to, "end");
  if (dateFrom && dateTo && dateFrom > dateTo) throw invalidInput("date_from must not be after date_to");
  const tags = input.tags ? normalizeTags(input.tags) : undefined;
  return {
    ...(tags?.length ? { tags } : {}),
    ...(input.author ? { author: input.author } : {}),
    ...(input.source ? { source: input.source } : {}),
    ...(dateFrom ? { dateFrom } : {}),
    ...(dateTo ? { dateTo } : {}),
  };
}
