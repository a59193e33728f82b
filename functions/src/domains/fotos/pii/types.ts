// What redaction finds and what a redacted screenshot says about itself (no detection code here:
// shapes only, cheap to import).
export const PII_TYPES = ["email", "phone", "ssn", "credit_card", "api_key", "ip_address"] as const;
export type PiiType = (typeof PII_TYPES)[number];

/** One item found, as a box in the screenshot's pixels (never the text itself). */
export interface Detection {
  type: PiiType;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Where the redaction ran: on the user's computer before upload, or in the function. */
export const REDACTED_WHERE = ["device", "function"] as const;
/** The re-check's outcome: OCR of the redacted image read no PII, or found more (covered too), or nothing was found at all. */
export const RECHECK = ["clean", "found_more", "not_needed"] as const;

export interface RedactionInfo {
  where: (typeof REDACTED_WHERE)[number];
  detections: Detection[];
  recheck: (typeof RECHECK)[number];
}
