// The reliability building blocks on their own: strict dates, time-zone independent imports,
// the nesting bound, the well-formedness check and the load-shedding gate. Every assertion is
// about outcomes (what is admitted, refused, parsed), none about how long anything took.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, test, vi } from "vitest";
import { parseDateArg, parseWallClockUtc } from "../../functions/src/mcp/dates.js";
import { malformedString, usableDocumentId } from "../../functions/src/mcp/validation.js";
import { Gate, nestsDeeperThan } from "../../functions/src/http/guards.js";

describe("calendar dates are refused, never rolled over", () => {
  test.each([
    "2024-02-30",
    "2023-02-29",
    "2024-04-31",
    "2024-13-01",
    "2024-00-10",
    "2024-01-00",
    "2024-02-30T10:00:00Z",
    "2024-04-31T00:00+02:00",
    "2024-01-01T24:00:00Z",
    "2024-01-01T23:60Z",
    "2024-01-01T10:00:60Z",
    "2024-01-01T10:00:00+25:00",
    "2024-01-01T10:00:00", // no time zone
  ])("%s → refused", (value) => {
    expect(parseDateArg(value, "start")).toBeNull();
  });

  test.each([
    ["2024-02-29", "start", "2024-02-29T00:00:00.000Z"],
    ["2024-02-29", "end", "2024-02-29T23:59:59.999Z"],
    ["2000-02-29", "start", "2000-02-29T00:00:00.000Z"],
    ["0099-12-31", "start", "0099-12-31T00:00:00.000Z"],
    ["2024-02-29T23:30:00-01:00", "start", "2024-03-01T00:30:00.000Z"],
    ["2024-02-29T13:45Z", "start", "2024-02-29T13:45:00.000Z"],
  ] as const)("%s (%s) → %s", (value, edge, iso) => {
    expect(parseDateArg(value, edge)?.toISOString()).toBe(iso);
  });

  test.each([
    ["Monday, March 4, 2019 1:23:45 PM", "2019-03-04T13:23:45.000Z"],
    ["Sunday, 14 January 2024 10:15:30", "2024-01-14T10:15:30.000Z"],
    ["Saturday, February 29, 2020 12:05:00 AM", "2020-02-29T00:05:00.000Z"],
    ["2024-01-05 10:00:00", "2024-01-05T10:00:00.000Z"],
    ["2024-01-05 10:00:00+02:00", "2024-01-05T08:00:00.000Z"],
    ["2024-01-05", "2024-01-05T00:00:00.000Z"],
    ["Fri, 05 Jan 2024 10:00:00 +0100", "2024-01-05T09:00:00.000Z"],
  ])("wall clock %s → %s", (text, iso) => {
    expect(parseWallClockUtc(text)?.toISOString()).toBe(iso);
  });

  test.each(["February 30, 2024 10:00:00 AM", "2024-02-30 10:00", "13:00 yesterday", "Monday, March 4, 2019 13:23:45 PM"])("wall clock %s → undefined", (text) => {
    expect(parseWallClockUtc(text)).toBeUndefined();
  });
});

describe("imports read times the same on every machine", () => {
  const script = fileURLToPath(new URL("./fixtures/import-ids.ts", import.meta.url));
  const tsx = fileURLToPath(new URL("../../node_modules/tsx/dist/loader.mjs", import.meta.url));
  const run = async (tz: string) => JSON.parse((await promisify(execFile)(process.execPath, ["--import", tsx, script], { env: { ...process.env, TZ: tz }, encoding: "utf8" })).stdout);

  test("a Kindle file, a Readwise export and Markdown front matter give the same times and chunk ids in any TZ", async () => {
    const zones = ["UTC", "America/Los_Angeles", "Pacific/Kiritimati", "Asia/Kolkata"];
    const [utc, ...others] = await Promise.all(zones.map(run)); // one process per zone, side by side
    expect(utc.kindle.map((p: { createdAt: string }) => p.createdAt)).toEqual(["2019-03-04T13:23:45.000Z", "2024-01-14T10:15:30.000Z"]);
    expect(utc.markdown.createdAt).toBe("2024-01-05T10:00:00.000Z");
    others.forEach((out, i) => expect(out, zones[i + 1]).toEqual(utc));
  });
});

describe("shared guards", () => {
  test("nesting is measured without recursion, at any depth", () => {
    let deep: unknown = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(nestsDeeperThan(deep, 64)).toBe(true);
    expect(nestsDeeperThan({ a: [{ b: [1, 2, { c: "x" }] }] }, 5)).toBe(false); // object, array, object, array, object
    expect(nestsDeeperThan({ a: [{ b: [1, 2, { c: "x" }] }] }, 4)).toBe(true);
    expect(nestsDeeperThan("just a string", 0)).toBe(false);
  });

  test("lone surrogates are found by path, paired ones are fine", () => {
    expect(malformedString({ uid: "a\ud800" })).toBe("uid");
    expect(malformedString({ list: ["ok", "\udfff"] })).toBe("list.1");
    expect(malformedString({ ok: "emoji 😀 fine", nested: { deeper: ["日本語"] } })).toBeUndefined();
    expect(usableDocumentId("user-1")).toBe(true);
    for (const bad of ["", ".", "..", "__x__", "a/b", "a\ud800", "x".repeat(129)]) expect(usableDocumentId(bad), bad).toBe(false);
  });
});

describe("the load-shedding gate", () => {
  afterEach(() => void vi.useRealTimers());
  const options = { maxInFlight: 2, maxQueued: 1, maxWaitMs: 10_000, retryAfterSeconds: 2 };

  test("admits up to maxInFlight, queues up to maxQueued, refuses the rest at once", async () => {
    const gate = new Gate(options);
    const a = await gate.enter();
    const b = await gate.enter();
    expect(a.admitted && b.admitted).toBe(true);
    const queued = gate.enter();
    expect(await gate.enter()).toEqual({ admitted: false, reason: "queue full" });
    expect(gate.load).toEqual({ inFlight: 2, queued: 1 });
    if (a.admitted) a.release();
    const c = await queued;
    expect(c.admitted).toBe(true);
    expect(gate.load).toEqual({ inFlight: 2, queued: 0 });
    if (b.admitted) b.release();
    if (c.admitted) c.release();
    if (c.admitted) c.release(); // releasing twice frees one slot only
    expect(gate.load).toEqual({ inFlight: 0, queued: 0 });
  });

  test("a request that waits longer than maxWaitMs is refused, and leaves the queue", async () => {
    vi.useFakeTimers();
    const gate = new Gate(options);
    await gate.enter();
    await gate.enter();
    const waiting = gate.enter();
    vi.advanceTimersByTime(10_001);
    expect(await waiting).toEqual({ admitted: false, reason: "waited too long" });
    expect(gate.load).toEqual({ inFlight: 2, queued: 0 });
  });

  test("a client that goes away leaves the queue", async () => {
    const gate = new Gate(options);
    await gate.enter();
    await gate.enter();
    const controller = new AbortController();
    const waiting = gate.enter(controller.signal);
    controller.abort();
    expect((await waiting).admitted).toBe(false);
    expect(gate.load.queued).toBe(0);
  });
});
