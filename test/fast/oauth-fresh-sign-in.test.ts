// The erase form's confirmation without a password: a sign-in of the last 5 minutes, not older.
import { expect, test } from "vitest";
import { FRESH_SIGN_IN_SECONDS, signedInFreshly } from "../../functions/src/domains/oauth/session.js";

test("a sign-in up to 5 minutes old confirms; an older one does not", () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  const session = (secondsAgo: number) => ({ uid: "u", email: "u@example.com", cookie: "c", authTime: now / 1000 - secondsAgo });
  expect(FRESH_SIGN_IN_SECONDS).toBe(300);
  expect(signedInFreshly(session(10), now)).toBe(true);
  expect(signedInFreshly(session(300), now)).toBe(true);
  expect(signedInFreshly(session(301), now)).toBe(false);
  expect(signedInFreshly(session(7 * 24 * 3600), now)).toBe(false);
});
