// Phone numbers with libphonenumber-js (Google's libphonenumber metadata, "max": exact number
// ranges): international numbers (+44 …, 0049 …) in any country, national forms (020 7946 0958,
// (415) 555-2671, 030 901820) in the person's region and a set of common ones. A national number
// must look written as a phone (at least two digit groups, or a leading 0 or parenthesis) unless
// the line labels it ("tel", "phone", "mobile", "call", "fax", …). A labelled or international
// number need only be possible (its length fits the country), not valid (in an assigned range).
import { findPhoneNumbersInText, isSupportedCountry, type CountryCode } from "libphonenumber-js/max";
import type { Span } from "./spans.js";

/** Regions whose national forms are read besides the person's own (most common on screens). */
export const COMMON_PHONE_REGIONS: CountryCode[] = ["US", "GB", "DE", "FR", "ES", "IT", "NL", "IN", "AU", "CA", "JP", "BR", "MX", "IE", "CH", "AT", "SE", "PL"];

const LABEL = /\b(?:tel(?:ephone|efon)?|phone|ph|mobile?|mob|cell|call|fax|whatsapp|sms|contact|t[ée]l[ée]phone|handy|rufnummer|nummer|telefono|móvil|movil)\b\.?\s*[:#]?/i;
/** Dates, times, versions and amounts: digit groups that are not phones however valid they would be. */
const NOT_PHONE = /^(?:\d{3}-\d{2}-\d{4}|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4}|\d+[.,]\d{2}|\d{1,2}:\d{2}(?::\d{2})?)$/;

export function phoneRegions(region: string | undefined): CountryCode[] {
  const own = region && isSupportedCountry(region.toUpperCase()) ? [region.toUpperCase() as CountryCode] : [];
  return [...new Set([...own, ...COMMON_PHONE_REGIONS])];
}

export function phoneSpans(text: string, regions: CountryCode[]): Span[] {
  if (!/\d[\d\s().-]{5,}\d/.test(text)) return [];
  const labelled = LABEL.test(text);
  const found: Span[] = [];
  for (const region of regions) {
    for (const p of findPhoneNumbersInText(text, { defaultCountry: region, extended: true })) {
      const raw = text.slice(p.startsAt, p.endsAt);
      if (NOT_PHONE.test(raw.trim()) || /^[.,]\d/.test(text.slice(p.endsAt))) continue; // a date, a time, a decimal
      const international = /^\s*(?:\+|00[1-9])/.test(raw);
      // A "+country" number only has to be possible (right length for its country): the plus is
      // evidence enough, and real numbers fall in ranges the metadata has not caught up with yet.
      if (!(p.number.isValid() || ((international || labelled) && p.number.isPossible()))) continue;
      if (!international && !labelled && !looksWritten(raw)) continue;
      if (!labelled && !international && p.number.country !== region) continue;
      found.push({ start: p.startsAt, end: p.endsAt });
    }
  }
  return merge(found);
}

/** A national number written as people write phones: grouped, or with its trunk 0 / area code in parentheses. */
function looksWritten(raw: string): boolean {
  const groups = raw.split(/[\s().-]+/).filter(Boolean);
  return (groups.length >= 2 && groups.slice(1).every((g) => g.length >= 2)) || /^\s*[0(]/.test(raw);
}

function merge(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}
