// export_zone_history's paging through the served tool, on the in-memory store (the same server the
// function builds, a real MCP client; no emulator): 1,500 records over several responses, each whole
// result under 100 KB, every record exactly once, ties in capture time ordered by id, and a cursor
// that continues only the export it came from.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { memoryDermalStore } from "../../functions/src/domains/dermal/records.js";
import { DAY, METRICS, parseCsv, score, sessionId, ZONES } from "../dermal/fixtures.js";
import { connectInProcess, idTokenCaller, loadDomain } from "../support/in-process.js";
import { callTool, textOf } from "../support/mcp.js";

describe("export_zone_history over 100 KB", () => {
  const N = 250; // 250 sessions × 6 zones = 1500 records: ~300 KB as JSON, ~140 KB as CSV (each counted twice)
  const big = { uid: "big" };
  let bc: Client;
  const start = Date.UTC(2024, 0, 1, 8);

  beforeAll(async () => {
    const store = memoryDermalStore();
    store.putProfile({ uid: big.uid, displayName: null, tier: "premium", skinType: null, createdAt: null, lastActiveAt: null, sharedWith: [] });
    for (let i = 0; i < N; i++) {
      // two sessions share a capture time, to prove the cursor orders ties by id
      const at = new Date(start + (i === 101 ? 100 : i) * DAY).toISOString();
      const id = sessionId(big.uid, i);
      store.putSession({ sessionId: id, uid: big.uid, capturedAt: at, zones: [...ZONES], status: "completed" });
      const zones = Object.fromEntries(ZONES.map((z) => [z, Object.fromEntries(METRICS.map((m) => [m, score(i, z, m)]))]));
      store.putReport({ sessionId: id, uid: big.uid, capturedAt: at, analyzedAt: at, modelVersion: "dermalnet-test-1", overallScore: 50 + i, zones, images: [] });
    }
    bc = await connectInProcess({ ...(await loadDomain("dermal")), backend: store }, { caller: idTokenCaller(big.uid) });
  });
  afterAll(() => bc.close());

  const all = () =>
    Array.from({ length: N }, (_, i) => i).flatMap((i) =>
      ZONES.map((z) => ({ sessionId: sessionId(big.uid, i), zone: z, acne: score(i, z, "acne"), hydration: score(i, z, "hydration") })),
    );

  test("JSON: whole results stay under 100 KB, stop at a record boundary, say so, and the cursor fetches the rest exactly once", async () => {
    const got: any[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await callTool(bc, "export_zone_history", { uid: big.uid, ...(cursor ? { cursor } : {}) });
      expect(r.isError, textOf(r)).toBeFalsy();
      const s = r.structuredContent as Record<string, any>;
      const text = textOf(r);
      // the records travel twice (text and structuredContent): the whole result counts
      const size = Buffer.byteLength(JSON.stringify(r));
      expect(size).toBeLessThanOrEqual(100_000);
      expect(JSON.parse(text)).toEqual(s); // whole records only: the text is complete JSON
      expect(s.recordCount).toBe(s.records.length);
      if (s.truncated) {
        expect(size).toBeGreaterThan(90_000); // and a part is not needlessly small
        expect(s.nextCursor).toEqual(expect.any(String));
        expect(s.note).toMatch(/^Truncated: .*did not fit in 100 KB.*cursor "/);
        expect(s.note).toContain(s.nextCursor);
      } else {
        expect(s.nextCursor).toBeUndefined();
      }
      got.push(...s.records);
      cursor = s.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBeGreaterThanOrEqual(5);
    expect(got.map((r) => ({ sessionId: r.sessionId, zone: r.zone, acne: r.acne, hydration: r.hydration }))).toEqual(all());
  });

  test("CSV: every page is valid CSV with its header; together they hold every record once", async () => {
    const rows: string[][] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const r = await callTool(bc, "export_zone_history", { uid: big.uid, format: "csv", ...(cursor ? { cursor } : {}) });
      expect(r.isError, textOf(r)).toBeFalsy();
      const s = r.structuredContent as Record<string, any>;
      const texts = r.content.flatMap((b) => (b.type === "text" ? [b.text] : []));
      const size = Buffer.byteLength(JSON.stringify(r));
      expect(size).toBeLessThanOrEqual(100_000);
      if (s.truncated) expect(size).toBeGreaterThan(90_000);
      expect(texts[0]).toBe(s.csv);
      const page = parseCsv(s.csv);
      expect(page[0]).toEqual(["sessionId", "capturedAt", "zone", ...METRICS]);
      expect(page.length - 1).toBe(s.recordCount);
      if (s.truncated) expect(texts[1]).toBe(s.note);
      rows.push(...page.slice(1));
      cursor = s.nextCursor;
      pages++;
    } while (cursor && pages < 20);
    expect(pages).toBe(3);
    expect(rows.map((r) => ({ sessionId: r[0], zone: r[2], acne: Number(r[3]), hydration: Number(r[7]) }))).toEqual(all());
  });

  test("a cursor only continues the export it came from", async () => {
    const first = await callTool(bc, "export_zone_history", { uid: big.uid });
    const cursor = (first.structuredContent as any).nextCursor;
    expect(cursor).toEqual(expect.any(String));
    const other = await callTool(bc, "export_zone_history", { uid: big.uid, format: "csv", cursor });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toBe(
      "Error: Invalid input: cursor belongs to a different export: repeat the same uid, zone, metrics, from, to and format with it, or omit cursor to start over (400)",
    );
  });
});
