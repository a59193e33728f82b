import { z } from "zod";

// Date arguments shared by every domain: a calendar day (YYYY-MM-DD, UTC) or an ISO 8601 timestamp with a time zone.
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** The instant a date argument means; a bare day starts at 00:00Z ("start") or ends at 23:59:59.999Z ("end"). */
export function parseDateArg(value: string, edge: "start" | "end"): Date | null {
  const day = DAY.exec(value);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    const start = new Date(Date.UTC(y, m - 1, d));
    if (start.getUTCFullYear() !== y || start.getUTCMonth() !== m - 1 || start.getUTCDate() !== d) return null;
    return edge === "start" ? start : new Date(start.getTime() + 24 * 60 * 60 * 1000 - 1);
  }
  if (!STAMP.test(value)) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t);
}

/** A date argument as a zod schema: checked when the arguments are validated, parsed with parseDateArg. */
export function dateArg(name: string, description: string) {
  return z
    .string()
    .trim()
    .refine((v) => parseDateArg(v, "start") !== null, { error: `${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with a time zone` })
    .describe(description);
}
