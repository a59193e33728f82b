// export_zone_history's cursor: where the previous response stopped (the last record's report
// position and zone), bound to the arguments it was made for. Encoded with the shared codec
// (mcp/cursor.ts), which refuses anything that does not pass the checks below.
import { createHash } from "node:crypto";
import { decodeCursor, encodeCursor } from "../../mcp/cursor.js";
import { invalidInput } from "../../core/errors.js";
import { TIMESTAMP_MAX_SECONDS, TIMESTAMP_MIN_SECONDS } from "../../platform/firebase.js";
import { ZONES, type Zone } from "./schema.js";

export interface CursorPosition {
  seconds: number;
  nanos: number;
  sessionId: string;
  zone: Zone;
}

const MISMATCH =
  "Invalid input: cursor belongs to a different export: repeat the same uid, zone, metrics, from, to and format with it, or omit cursor to start over";

export const queryKey = (args: unknown[]): string => createHash("sha256").update(JSON.stringify(args)).digest("base64url").slice(0, 16);

const int = (v: unknown, min: number, max: number): v is number => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;

export function encodeExportCursor(p: CursorPosition, key: string): string {
  return encodeCursor({ v: 1, s: p.seconds, n: p.nanos, i: p.sessionId, z: p.zone, k: key });
}

export function decodeExportCursor(cursor: string, key: string): CursorPosition {
  const c = decodeCursor(cursor, (c) =>
    // a cursor is not signed: keep a hand-made one from reaching Firestore with a position it
    // would refuse (a path in the id, a time outside the timestamp range)
    c.v === 1 &&
    int(c.s, TIMESTAMP_MIN_SECONDS, TIMESTAMP_MAX_SECONDS) &&
    int(c.n, 0, 999_999_999) &&
    typeof c.i === "string" &&
    c.i !== "" &&
    !c.i.includes("/") &&
    (ZONES as readonly unknown[]).includes(c.z) &&
    typeof c.k === "string"
      ? { position: { seconds: c.s, nanos: c.n, sessionId: c.i, zone: c.z as Zone }, key: c.k }
      : undefined,
  );
  if (c.key !== key) throw invalidInput(MISMATCH);
  return c.position;
}
