// The shared Firestore rate limiter (platform/rate-limit.ts) against the Firestore emulator.
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { clientKey, hitRateLimit, rateLimitDocId, RATE_LIMIT_COLLECTION } from "../../functions/src/platform/rate-limit.js";
import { adminDb } from "../support/emulators.js";

const HOUR = 3600;
const opts = (limit = 100) => ({ bucket: `test-${randomUUID().slice(0, 8)}`, limit, windowSeconds: HOUR });
// A fixed clock 10 % into a window, so no test straddles a window edge.
const windowStart = Math.floor(Date.now() / 3_600_000) * 3_600_000;
const at = (fraction: number) => windowStart + fraction * 3_600_000;

describe("rate limit", () => {
  test("exactly `limit` sequential requests are allowed, then Retry-After says when the next fits", async () => {
    const o = opts(10);
    const decisions = [];
    for (let i = 0; i < 11; i++) decisions.push(await hitRateLimit("198.51.100.7", o, at(0.1)));
    expect(decisions.slice(0, 10).every((d) => d.allowed)).toBe(true);
    expect(decisions.map((d) => d.remaining).slice(0, 3)).toEqual([9, 8, 7]);
    const refused = decisions[10]!;
    expect(refused.allowed).toBe(false);
    // 11 counted this window: one more fits once 11·(1 − t) ≤ 9 in the next window, t ≥ 2/11.
    const expected = Math.ceil((0.9 * HOUR) + (2 / 11) * HOUR);
    expect(refused.retryAfterSeconds).toBe(expected);
  });

  test("parallel requests never exceed the limit and none fails", async () => {
    const o = opts(100);
    const results = await Promise.all(Array.from({ length: 150 }, () => hitRateLimit("198.51.100.8", o, at(0.1))));
    const allowed = results.filter((d) => d.allowed).length;
    // Never more than the limit. (Production Firestore stamps commits in a strict order, so exactly
    // the limit is served; the emulator's commit stamps are not ordered that strictly, and a burst
    // may be served a few fewer there.)
    expect(allowed).toBeLessThanOrEqual(100);
    expect(allowed).toBeGreaterThan(50);
    const doc = await adminDb().collection(RATE_LIMIT_COLLECTION).doc(rateLimitDocId(o.bucket, "198.51.100.8", windowStart)).get();
    expect(doc.get("count")).toBe(150); // every request was counted, none lost to contention
  });

  test("the previous window still counts in proportion: no double limit across a window edge", async () => {
    const o = opts(10);
    for (let i = 0; i < 10; i++) expect((await hitRateLimit("198.51.100.9", o, at(0.99))).allowed).toBe(true);
    // Just after the edge, the last window's 10 still weigh ~10: refused.
    expect((await hitRateLimit("198.51.100.9", o, at(1.01))).allowed).toBe(false);
    // Halfway through, they weigh 5 (plus the refused one counted): allowed again.
    expect((await hitRateLimit("198.51.100.9", o, at(1.5))).allowed).toBe(true);
  });

  test("IPv6 clients are counted per /64; IPv4-mapped addresses as IPv4", async () => {
    expect(clientKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(clientKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientKey("::ffff:203.0.113.5")).toBe("203.0.113.5");
    const o = opts(2);
    expect((await hitRateLimit("2001:db8:5:6::1", o, at(0.1))).allowed).toBe(true);
    expect((await hitRateLimit("2001:db8:5:6::2", o, at(0.1))).allowed).toBe(true);
    expect((await hitRateLimit("2001:db8:5:6::3", o, at(0.1))).allowed).toBe(false);
    expect((await hitRateLimit("2001:db8:5:7::1", o, at(0.1))).allowed).toBe(true);
  });

  test("documents carry no raw address", async () => {
    const o = opts(5);
    await hitRateLimit("192.0.2.44", o, at(0.1));
    const id = rateLimitDocId(o.bucket, "192.0.2.44", windowStart);
    expect(id).not.toContain("192.0.2.44");
    const data = (await adminDb().collection(RATE_LIMIT_COLLECTION).doc(id).get()).data();
    expect(JSON.stringify(data)).not.toContain("192.0.2.44");
  });
});
