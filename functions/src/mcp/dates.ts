import { z } from "zod";

// Date arguments shared by every domain: a calendar day (YYYY-MM-DD, UTC) or an ISO 8601 timestamp
// with a time zone. Strict: JavaScript's Date rolls impossible dates over (2024-02-30 becomes
// 1 March, T24:00 the next day); here they are refused, so a typo never silently moves a range.
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const STAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/** Whether year-month-day names a day of the Gregorian calendar (no rollover). */
export function isCalendarDay(y: number, m: number, d: number): boolean {
  if (!(m >= 1 && m <= 12 && d >= 1)) return false;
  const probe = new Date(Date.UTC(2000, m - 1, d));
  probe.setUTCFullYear(y); // years 0–99 as themselves, not 1900–1999
  return probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
}

/** Whether hours, minutes and seconds name a time of day (24:00 and leap seconds refused). */
const isTimeOfDay = (h: number, min: number, s: number) => h <= 23 && min <= 59 && s <= 59;

/** The instant a date argument means; a bare day starts at 00:00Z ("start") or ends at 23:59:59.999Z ("end"). */
export function parseDateArg(value: string, edge: "start" | "end"): Date | null {
  const day = DAY.exec(value);
  if (day) {
    const [y, m, d] = [Number(day[1]), Number(day[2]), Number(day[3])];
    if (!isCalendarDay(y, m, d)) return null;
    const start = new Date(Date.UTC(2000, m - 1, d));
    start.setUTCFullYear(y);
    return edge === "start" ? start : new Date(start.getTime() + 24 * 60 * 60 * 1000 - 1);
  }
  const stamp = STAMP.exec(value);
  if (!stamp) return null;
  const [y, m, d, h, min, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(stamp[i] ?? 0)) as [number, number, number, number, number, number];
  if (!isCalendarDay(y, m, d) || !isTimeOfDay(h, min, s)) return null;
  const offset = stamp[8]!.toUpperCase();
  if (offset !== "Z" && (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(4, 6)) > 59)) return null;
  const t = Date.parse(value);
  return Number.isNaN(t) ? null : new Date(t);
}

/** A date argument as a zod schema: checked when the arguments are validated, parsed with parseDateArg. */
export function dateArg(name: string, description: string) {
  return z
    .string()
    .trim()
    // (An impossible day such as 2024-02-30 is "not a date": the sentence stays the one clients know.)
    .refine((v) => parseDateArg(v, "start") !== null, { error: `${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp with a time zone` })
    .describe(description);
}

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/**
 * A wall-clock time written without a time zone (as Kindle's "Added on Monday, March 4, 2019
 * 1:23:45 PM" or "Sunday, 14 January 2024 10:15:30"), read as UTC, the same on every machine
 * (`new Date(text)` would use the importing machine's zone). Text with an explicit zone or offset
 * is read with it. Impossible dates give undefined, never a rolled-over day.
 */
export function parseWallClockUtc(text: string): Date | undefined {
  const s = text.trim().replace(/^[A-Za-z]+,\s*/, ""); // weekday
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/i.exec(s);
  if (iso) {
    const [y, mo, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    const [h, mi, se] = [Number(iso[4] ?? 0), Number(iso[5] ?? 0), Number(iso[6] ?? 0)];
    const ms = Math.round(Number(`0${iso[7] ?? ""}`) * 1000);
    const zone = (iso[8] ?? "Z").toUpperCase();
    const offsetMin = /^[+-]/.test(zone) ? (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) : 0;
    return utc(y, mo, d, h, mi, se, ms, offsetMin);
  }
  // "March 4, 2019 1:23:45 PM" / "14 January 2024 10:15:30" / "4. März 2019" style, month by name.
  const named =
    /^(?:([A-Za-z]+)\.?\s+(\d{1,2}),?|(\d{1,2})\.?\s+([A-Za-z]+)\.?,?)\s+(\d{4}),?(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?)?\s*(Z|UTC|GMT|[+-]\d{2}:?\d{2})?$/.exec(s);
  if (!named) return undefined;
  const monthName = (named[1] ?? named[4] ?? "").slice(0, 3).toLowerCase();
  const mo = MONTHS.indexOf(monthName) + 1;
  if (!mo) return undefined;
  const d = Number(named[2] ?? named[3]);
  let h = Number(named[6] ?? 0);
  const meridiem = named[9]?.toLowerCase();
  if (meridiem) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (meridiem === "pm" ? 12 : 0);
  }
  const zone = (named[10] ?? "Z").toUpperCase();
  const offsetMin = /^[+-]/.test(zone) ? (zone[0] === "-" ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2))) : 0;
  return utc(Number(named[5]), mo, d, h, Number(named[7] ?? 0), Number(named[8] ?? 0), 0, offsetMin);
}

function utc(y: number, mo: number, d: number, h: number, mi: number, s: number, ms: number, offsetMinutes: number): Date | undefined {
  if (!isCalendarDay(y, mo, d) || !isTimeOfDay(h, mi, s)) return undefined;
  const t = new Date(Date.UTC(2000, mo - 1, d, h, mi, s, ms));
  t.setUTCFullYear(y);
  return new Date(t.getTime() - offsetMinutes * 60_000);
}
