import type { Detection } from "./types.js";

/** "3 items (1 email, 2 phone)". */
export function summarize(detections: Detection[]): string {
  const counts = Object.entries(detections.reduce<Record<string, number>>((acc, d) => ({ ...acc, [d.type]: (acc[d.type] ?? 0) + 1 }), {}))
    .map(([type, n]) => `${n} ${type}`)
    .join(", ");
  return `${detections.length} item${detections.length === 1 ? "" : "s"} (${counts})`;
}
