// The shared Firestore rate limiter (platform/rate-limit.ts) against the Firestore emulator.
import { randomUUID } from "node:crypto";
import { describe, expect, test } from "vitest";
import { clientKey, hitRateLimit, rateLimitDocId, RATE_LIMIT_COLLECTION, rememberedRefusal, TICKETS } from "../../functions/src/platform/rate-limit.js";
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
    // 10 served this window: one more fits once 10·(1 − t) ≤ 9 in the next window, t ≥ 1/10.
    expect(refused.retryAfterSeconds).toBe(Math.ceil(0.9 * HOUR + 0.1 * HOUR));
  });

  // Exact whatever the machine's load or the order in which Firestore commits: this asserts counts,
  // never timings.
  test("a parallel burst of 150 against a limit of 100 is served exactly 100, none fails", async () => {
    const o = opts(100);
    const results = await Promise.all(Array.from({ length: 150 }, () => hitRateLimit("198.51.100.8", o, at(0.1))));
    expect(results.filter((d) => d.allowed)).toHaveLength(100);
    expect(results.filter((d) => !d.allowed).every((d) => d.retryAfterSeconds > 0 && d.remaining === 0)).toBe(true);
    const window = adminDb().collection(RATE_LIMIT_COLLECTION).doc(rateLimitDocId(o.bucket, "198.51.100.8", windowStart));
    expect((await window.get()).get("count")).toBe(100); // the served requests, none lost to contention
    expect((await window.collection(TICKETS).get()).size).toBe(100);
    // The window is full: the next request is refused at once (remembered: no read, no write).
    expect((await hitRateLimit("198.51.100.8", o, at(0.2))).allowed).toBe(false);
  });

  test("a burst below the limit is served in full; the rest of the limit stays available", async () => {
    const o = opts(30);
    const first = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit("198.51.100.10", o, at(0.1))));
    expect(first.every((d) => d.allowed)).toBe(true);
    const second = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit("198.51.100.10", o, at(0.1))));
    expect(second.filter((d) => d.allowed)).toHaveLength(10);
  });

  test("the previous window still counts in proportion: no double limit across a window edge", async () => {
    const o = opts(10);
    for (let i = 0; i < 10; i++) expect((await hitRateLimit("198.51.100.9", o, at(0.99))).allowed).toBe(true);
    // Just after the edge, the last window's 10 still weigh ~10: refused.
    expect((await hitRateLimit("198.51.100.9", o, at(1.01))).allowed).toBe(false);
    // Halfway through, they weigh 5: five more fit, then refused.
    for (let i = 0; i < 5; i++) expect((await hitRateLimit("198.51.100.9", o, at(1.5))).allowed).toBe(true);
    expect((await hitRateLimit("198.51.100.9", o, at(1.5))).allowed).toBe(false);
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

  test("a refusal is remembered until its wait is over, and only that long", async () => {
    const o = opts(3);
    const client = "198.51.100.11";
    for (let i = 0; i < 3; i++) expect((await hitRateLimit(client, o, at(0.1))).allowed).toBe(true);
    const refused = await hitRateLimit(client, o, at(0.1));
    expect(refused.allowed).toBe(false);
    // The window's documents go: a refusal answered from Firestore would now be an allowance.
    const window = adminDb().collection(RATE_LIMIT_COLLECTION).doc(rateLimitDocId(o.bucket, client, windowStart));
    await adminDb().recursiveDelete(window);
    const later = at(0.1) + 60_000;
    expect(rememberedRefusal(client, o, later)).toMatchObject({ allowed: false, retryAfterSeconds: refused.retryAfterSeconds - 60 });
    expect(await hitRateLimit(client, o, later)).toMatchObject({ allowed: false, retryAfterSeconds: refused.retryAfterSeconds - 60 });
    // Another client, another bucket or another limit is not affected.
    expect(rememberedRefusal("198.51.100.12", o, later)).toBeUndefined();
    expect(rememberedRefusal(client, { ...o, limit: 4 }, later)).toBeUndefined();
    // Once the wait is over, Firestore decides again (here: an empty window, so allowed).
    const over = at(0.1) + refused.retryAfterSeconds * 1000;
    expect(rememberedRefusal(client, o, over)).toBeUndefined();
    expect((await hitRateLimit(client, o, over)).allowed).toBe(true);
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
