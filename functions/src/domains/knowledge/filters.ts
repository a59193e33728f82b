// Input fields and parsing shared by the search tools.
import { z } from "zod";
import { parseDateArg } from "../../mcp/dates.js";
import { invalidInput } from "../../mcp/errors.js";
import type { Filters } from "./store.js";

export const filterFields = {
  tags: z.array(z.string().min(1).max(200)).max(30).optional().describe("Only chunks with at least one of these tags"),
  author: z.string().min(1).max(500).optional().describe("Only chunks by this author (exact)"),
  source: z.string().min(1).max(200).optional().describe('Only chunks from this source (exact), e.g. "kindle", "readwise", "markdown"'),
};

export const dateFields = {
  date_from: z.string().optional().describe("Only chunks created on or after this date (ISO 8601, e.g. 2024-01-31)"),
  date_to: z.string().optional().describe("Only chunks created on or before this date (ISO 8601; a bare date includes that whole day)"),
};

// The shared strict parser: `new Date()` would take "5" (year 2001) or roll "2024-02-30" over to March.
function parseDate(value: string | undefined, name: string, edge: "start" | "end"): Date | undefined {
  if (value === undefined || value === "") return undefined;
  const d = parseDateArg(value.trim(), edge);
  if (!d) throw invalidInput(`${name} must be an ISO 8601 date such as 2024-01-31 (or a timestamp with a time zone), not "${value}"`);
  return d;
}

export function toFilters(input: { tags?: string[] | undefined; author?: string | undefined; source?: string | undefined; date_from?: string | undefined; date_to?: string | undefined }): Filters {
  const dateFrom = parseDate(input.date_from, "date_from", "start");
  const dateTo = parseDate(input.date_to, "date_to", "end");
  if (dateFrom && dateTo && dateFrom > dateTo) throw invalidInput("date_from must not be after date_to");
  const tags = input.tags?.map((t) => t.trim().replace(/^#/, "").toLowerCase()).filter(Boolean);
  return {
    ...(tags?.length ? { tags } : {}),
    ...(input.author ? { author: input.author } : {}),
    ...(input.source ? { source: input.source } : {}),
    ...(dateFrom ? { dateFrom } : {}),
    ...(dateTo ? { dateTo } : {}),
  };
}
