// export_zone_history's cursor: where the previous response stopped (the last record's report
// position and zone), bound to the arguments it was made for.
import { createHash } from "node:crypto";
import { invalidInput } from "../../mcp/errors.js";
import { ZONES, type Zone } from "./schema.js";

export interface CursorPosition {
  seconds: number;
  nanos: number;
  sessionId: string;
  zone: Zone;
}

const INVALID = "Invalid input: cursor is not valid: pass the nextCursor of the previous response unchanged";
const MISMATCH =
  "Invalid input: cursor belongs to a different export: repeat the same uid, zone, metrics, from, to and format with it, or omit cursor to start over";

// Firestore's timestamp range (0001-01-01 to 9999-12-31), in seconds.
const MIN_SECONDS = -62_135_596_800;
const MAX_SECONDS = 253_402_300_799;

export const queryKey = (args: unknown[]): string => createHash("sha256").update(JSON.stringify(args)).digest("base64url").slice(0, 16);

export function encodeCursor(p: CursorPosition, key: string): string {
  return Buffer.from(JSON.stringify({ v: 1, s: p.seconds, n: p.nanos, i: p.sessionId, z: p.zone, k: key })).toString("base64url");
}

export function decodeCursor(cursor: string, key: string): CursorPosition {
  let c: { v?: unknown; s?: unknown; n?: unknown; i?: unknown; z?: unknown; k?: unknown };
  try {
    c = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidInput(INVALID);
  }
  if (
    !c || typeof c !== "object" || c.v !== 1 || !Number.isInteger(c.s) || !Number.isInteger(c.n) ||
    typeof c.i !== "string" || !c.i || !(ZONES as readonly unknown[]).includes(c.z) || typeof c.k !== "string" ||
    // a cursor is not signed: keep a hand-made one from reaching Firestore with a position it
    // would refuse (a path in the id, a time outside the timestamp range)
    c.i.includes("/") || (c.s as number) < MIN_SECONDS || (c.s as number) > MAX_SECONDS || (c.n as number) < 0 || (c.n as number) > 999_999_999
  ) {
    throw invalidInput(INVALID);
  }
  if (c.k !== key) throw invalidInput(MISMATCH);
  return { seconds: c.s as number, nanos: c.n as number, sessionId: c.i, zone: c.z as Zone };
}
