// Two guards run in-process as production runs them (outside the emulator, where these rules differ
// or cannot be provoked): cookie-bearing pages refuse localhost origins unless ALLOWED_ORIGINS lists
// them, and the rate limiter refuses (503 + Retry-After) when Firestore cannot be reached.
// The limiter runs inside a request's deadline, as it always does in production: outside one only
// the client library's own retries (tens of seconds) would end the call.
import { afterEach, expect, test } from "vitest";
import { originAllowed } from "../../functions/src/http/origin.js";
import type { Logger } from "../../functions/src/core/log.js";

const saved = { emulator: process.env.FUNCTIONS_EMULATOR, allowed: process.env.ALLOWED_ORIGINS, firestore: process.env.FIRESTORE_EMULATOR_HOST };
afterEach(() => {
  for (const [name, value] of [["FUNCTIONS_EMULATOR", saved.emulator], ["ALLOWED_ORIGINS", saved.allowed], ["FIRESTORE_EMULATOR_HOST", saved.firestore]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const from = (origin: string) => ({ get: (name: string) => (name.toLowerCase() === "origin" ? origin : undefined) }) as never;

test("in production a localhost page may not post to a cookie-bearing page, unless ALLOWED_ORIGINS lists it", () => {
  delete process.env.FUNCTIONS_EMULATOR;
  delete process.env.ALLOWED_ORIGINS;
  const self = "us-central1-demo.cloudfunctions.net";
  for (const origin of ["http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:5173"]) {
    expect(originAllowed(from(origin), { selfHost: self, cookies: true }), origin).toBe(false);
    // MCP endpoints take bearer tokens, not cookies: the Inspector's web UI on localhost keeps working.
    expect(originAllowed(from(origin), { selfHost: self }), origin).toBe(true);
  }
  expect(originAllowed(from(`https://${self}`), { selfHost: self, cookies: true })).toBe(true);
  process.env.ALLOWED_ORIGINS = "localhost";
  expect(originAllowed(from("http://localhost:3000"), { selfHost: self, cookies: true })).toBe(true);
  process.env.FUNCTIONS_EMULATOR = "true";
  delete process.env.ALLOWED_ORIGINS;
  expect(originAllowed(from("http://localhost:3000"), { selfHost: self, cookies: true })).toBe(true);
});

test("a rate limit whose store cannot be reached refuses with 503 and Retry-After, never lets the request through", async () => {
  // Nothing listens on port 9 (discard): every Firestore call of this process fails.
  process.env.FIRESTORE_EMULATOR_HOST = "127.0.0.1:9";
  const { limited } = await import("../../functions/src/domains/oauth/limits.js");
  const { withRequestDeadline } = await import("../../functions/src/platform/deadline.js");
  const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
  const req = { clientIp: "192.0.2.1", headers: {}, query: {}, body: undefined, rawBody: Buffer.alloc(0), baseUrl: "http://x" } as never;
  const outcome = await withRequestDeadline({ timeoutSeconds: 5, log: quiet }, () => limited(req, { bucket: "guards-test", limit: 5, windowSeconds: 60 })).then(
    (wait) => ({ allowed: wait === undefined }),
    (err: { kind?: string; status?: number; extra?: { retryAfterSeconds?: number }; message: string }) => err,
  );
  expect(outcome).toMatchObject({ kind: "unavailable", status: 503, extra: { retryAfterSeconds: expect.any(Number) } });
  expect((outcome as { message: string }).message).toMatch(/try again in \d+ seconds/);
}, 120_000);
