// Opaque pagination cursors: a JSON object in base64url. Cursors are not signed, so whatever comes
// back is validated by its owner (`check`) before it reaches a query.
import { invalidInput } from "../core/errors.js";

export const INVALID_CURSOR = "Invalid cursor: pass the nextCursor of the previous response unchanged, or omit cursor to start over";

export function encodeCursor(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

/** Decodes a cursor and lets `check` accept it (return the typed value) or reject it (return undefined). */
export function decodeCursor<T>(cursor: string, check: (value: Record<string, unknown>) => T | undefined): T {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw invalidInput(INVALID_CURSOR);
  }
  const checked = value && typeof value === "object" && !Array.isArray(value) ? check(value as Record<string, unknown>) : undefined;
  if (checked === undefined) throw invalidInput(INVALID_CURSOR);
  return checked;
}
