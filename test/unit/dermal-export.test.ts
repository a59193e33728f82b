// export_zone_history's paging without Firestore: a reader that counts what it hands out proves a
// part reads only the reports that can still fit (plus one to learn whether more exist), and that
// the whole serialized result, both copies of the records, stays within 100 KB.
import { describe, expect, test } from "vitest";
import { exportPage, RESULT_LIMIT, resultBytes, type ExportRequest } from "../../functions/src/domains/dermal/export.js";
import type { ReportReader, ReportRow } from "../../functions/src/domains/dermal/store.js";
import { METRICS, score, ZONES, type Zone } from "../dermal/fixtures.js";

const UID = "paging-user-0001";
const T0 = Date.UTC(2024, 0, 1, 8) / 1000;

function row(i: number, zones: readonly Zone[] = ZONES): ReportRow {
  const sessionId = `${UID}-s${String(i).padStart(4, "0")}`;
  const seconds = T0 + i * 86_400;
  const capturedAt = new Date(seconds * 1000).toISOString();
  return {
    report: {
      sessionId, uid: UID, capturedAt, analyzedAt: capturedAt, modelVersion: "m", overallScore: 50, images: [],
      zones: Object.fromEntries(zones.map((z) => [z, Object.fromEntries(METRICS.map((m) => [m, score(i, z, m)]))])),
    },
    position: { seconds, nanos: 0, sessionId },
    capturedAt,
  };
}

/** `total` reports; remembers every batch size asked for and how many rows it handed out. */
function reader(total: number, zonesOf?: (i: number) => readonly Zone[]) {
  const asked: number[] = [];
  let handed = 0;
  const r: ReportReader & { asked: number[]; handed: () => number } = {
    asked,
    handed: () => handed,
    async read(n) {
      asked.push(n);
      const rows: ReportRow[] = [];
      while (rows.length < n && handed < total) {
        rows.push(row(handed, zonesOf?.(handed)));
        handed++;
      }
      return rows;
    },
  };
  return r;
}

const request = (format: "json" | "csv", zone: Zone | null = null): ExportRequest => ({
  uid: UID, zone, metrics: [...METRICS], from: null, to: null, format, start: null, key: "k",
});

describe.each(["json", "csv"] as const)("%s", (format) => {
  test("a truncated part reads only the reports it holds, plus one", async () => {
    const source = reader(1000);
    const out = await exportPage(source, request(format));
    expect(out.data.truncated).toBe(true);
    const sessions = format === "json"
      ? new Set(out.data.records!.map((r) => r.sessionId))
      : new Set(out.data.csv!.split("\r\n").slice(1, -1).map((l) => l.split(",")[0]));
    expect(source.handed()).toBeLessThanOrEqual(sessions.size + 1);
    expect(Math.max(...source.asked)).toBeLessThanOrEqual(100);
    expect(resultBytes(out)).toBeLessThanOrEqual(RESULT_LIMIT);
    expect(resultBytes(out)).toBeGreaterThan(RESULT_LIMIT * 0.9);
  });

  test("a small export is read in one batch and complete", async () => {
    const source = reader(10);
    const out = await exportPage(source, request(format));
    expect(out.data).toMatchObject({ truncated: false, recordCount: 60 });
    expect(source.asked).toHaveLength(1);
    expect(source.handed()).toBe(10);
  });
});

test("reports without the chosen zone cost nothing and do not stop the part early", async () => {
  // only every tenth report captured the chin
  const source = reader(3000, (i) => (i % 10 === 0 ? ZONES : ZONES.filter((z) => z !== "chin")));
  const out = await exportPage(source, request("json", "chin"));
  expect(out.data.truncated).toBe(true);
  expect(resultBytes(out)).toBeLessThanOrEqual(RESULT_LIMIT);
  expect(out.data.records!.every((r) => r.zone === "chin")).toBe(true);
  expect(out.data.records!.length).toBeGreaterThan(100);
});
