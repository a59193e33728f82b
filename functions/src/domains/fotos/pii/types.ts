// What redaction finds and what a redacted screenshot says about itself (no detection code here:
// shapes only, cheap to import).
import type { PII_TYPES, RECHECK } from "../../../contracts/fotos-agent.js";

// The types found and the re-check's outcomes travel from the agent to the function: contracts/.
export { PII_TYPES, RECHECK } from "../../../contracts/fotos-agent.js";
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

export interface RedactionInfo {
  where: (typeof REDACTED_WHERE)[number];
  detections: Detection[];
  recheck: (typeof RECHECK)[number];
}
