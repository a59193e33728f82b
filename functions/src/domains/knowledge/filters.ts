// Input fields and parsing shared by the search tools.
import { z } from "zod";
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

function parseDate(value: string | undefined, name: string, endOfDay: boolean): Date | undefined {
  if (value === undefined || value === "") return undefined;
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const d = new Date(bare ? `${value}T${endOfDay ? "23:59:59.999" : "00:00:00.000"}Z` : value);
  if (Number.isNaN(d.getTime())) throw invalidInput(`${name} must be an ISO 8601 date such as 2024-01-31, not "${value}"`);
  return d;
}

export function toFilters(input: { tags?: string[] | undefined; author?: string | undefined; source?: string | undefined; date_from?: string | undefined; date_to?: string | undefined }): Filters {
  const dateFrom = parseDate(input.date_from, "date_from", false);
  const dateTo = parseDate(input.date_to, "date_to", true);
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
