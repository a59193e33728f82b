// The dermal views in a real Chromium host (scripts/view-host, the extension SDK's AppBridge)
// against the served function: the zone history chart and the analysis report card, light and dark.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, type TestUser } from "../support/emulators.js";
import { showView, startViews, type ViewSession } from "../support/views.js";
import { overall, seedUser, sessionId, ZONES, type SessionSpec } from "../dermal/fixtures.js";

// Five sessions, oldest first; the third analysed only the forehead and nose: the other zones'
// lines have a gap there.
const SESSIONS: SessionSpec[] = [{ at: 40 }, { at: 30 }, { at: 20, zones: ["forehead", "nose"] }, { at: 10 }, { at: 1 }];

let alice: TestUser;
let bob: TestUser;
let carol: TestUser; // a long history: the export comes in parts
let session: ViewSession;
let strangers: ViewSession;
let long: ViewSession;
const LONG = 120;
beforeAll(async () => {
  [alice, bob, carol] = await Promise.all([createUser(), createUser(), createUser()]);
  await seedUser(alice.uid, { displayName: "Alice Views" }, SESSIONS);
  await seedUser(carol.uid, { displayName: "Carol Views" }, Array.from({ length: LONG }, (_, i) => ({ at: LONG - i })));
  session = await startViews(["dermal"], alice.token);
  long = await startViews(["dermal"], carol.token);
  strangers = await startViews(["dermal"], bob.token);
}, 120_000);
afterAll(async () => {
  await session?.close();
  await strangers?.close();
  await long?.close();
});

describe("zone history chart", () => {
  for (const [theme, format] of [["light", "json"], ["dark", "csv"]] as const) {
    it(`one point per session for each zone and metric, gaps where a session is missing (${theme}, ${format})`, async () => {
      const shown = await showView(session, "dermal", "export_zone_history", { uid: alice.uid, metrics: ["acne", "hydration"], format }, theme);
      await shown.frame.waitForSelector(".panel svg", { timeout: 20_000 });
      const counts = await shown.frame.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLElement>(".panel")).map((panel) => ({
          metric: panel.dataset.metric,
          points: Object.fromEntries(
            Array.from(panel.querySelectorAll<SVGPathElement>("path.series")).map((p) => [p.dataset.zone, panel.querySelectorAll(`circle[data-zone="${p.dataset.zone}"]`).length]),
          ),
          pieces: Object.fromEntries(Array.from(panel.querySelectorAll<SVGPathElement>("path.series")).map((p) => [p.dataset.zone, (p.getAttribute("d") ?? "").split("M").length - 1])),
        })),
      );
      expect(counts.map((c) => c.metric)).toEqual(["acne", "hydration"]);
      for (const c of counts) {
        for (const zone of ZONES) {
          const complete = zone === "forehead" || zone === "nose";
          expect(c.points[zone], `${c.metric} ${zone}`).toBe(complete ? 5 : 4);
          expect(c.pieces[zone], `${c.metric} ${zone}`).toBe(complete ? 1 : 2);
        }
      }
      // Hover (or focus) says the value and the date.
      const point = await shown.frame.$(`circle[data-zone="nose"][data-session="${sessionId(alice.uid, 4)}"]`);
      await point!.evaluate((p) => (p as SVGElement).focus());
      expect(await shown.frame.$eval(".tip", (t) => t.textContent)).toMatch(/^nose, acne: \d+(\.\d+)? on \d{4}-\d{2}-\d{2}$/);
      expect(await shown.frame.$eval(".toolbar strong", (t) => t.textContent)).toMatch(/^5 sessions, /);
      await shown.done(`dermal-history-${theme}`);
    }, 90_000);
  }

  it("keeps within the host's containerDimensions: every chart fits the height it is given, each point still there", async () => {
    const args = { uid: alice.uid, metrics: ["acne", "hydration", "redness"] };
    const bottom = async (container?: { maxWidth: number; maxHeight: number }) => {
      const shown = await showView(session, "dermal", "export_zone_history", args, "light", container);
      await shown.frame.waitForSelector(".panel svg", { timeout: 20_000 });
      const measured = await shown.frame.evaluate(() => ({
        bottom: document.getElementById("app")!.getBoundingClientRect().bottom,
        right: document.getElementById("app")!.getBoundingClientRect().right,
        points: document.querySelectorAll("circle[data-zone]").length,
      }));
      return { shown, ...measured };
    };
    const roomy = await bottom();
    expect(roomy.bottom).toBeGreaterThan(560);
    await roomy.shown.done();
    const small = await bottom({ maxWidth: 480, maxHeight: 520 });
    expect(small.bottom).toBeLessThanOrEqual(520);
    expect(small.right).toBeLessThanOrEqual(480);
    expect(small.points).toBe(roomy.points);
    await small.shown.done("dermal-history-small-room");
  }, 90_000);
});

describe("zone history chart of a long history", () => {
  it("a truncated export: the view loads the next parts through the tool until every session is on the chart", async () => {
    const shown = await showView(long, "dermal", "export_zone_history", { uid: carol.uid }, "light");
    expect((shown.opened.result.structuredContent as { truncated: boolean }).truncated).toBe(true);
    await shown.frame.waitForSelector(".panel svg", { timeout: 20_000 });
    expect(await shown.frame.$$eval('.panel[data-metric="acne"] circle[data-zone="chin"]', (c) => c.length)).toBeLessThan(LONG);
    // Every record has an acne value: each part adds points to that panel.
    const acnePoints = () => shown.frame.$$eval('.panel[data-metric="acne"] circle', (c) => c.length);
    for (let part = 0; part < 10 && (await shown.frame.$("main > button")); part++) {
      const before = await acnePoints();
      await shown.frame.click("main > button");
      await shown.frame.waitForFunction((n) => document.querySelectorAll('.panel[data-metric="acne"] circle').length > n, { timeout: 60_000 }, before);
    }
    await shown.frame.waitForFunction((n) => document.querySelectorAll('.panel[data-metric="acne"] circle[data-zone="chin"]').length === n, { timeout: 20_000 }, LONG);
    const calls = await shown.page.evaluate(() => window.viewHost.state.toolCalls);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((c) => c.name === "export_zone_history" && !c.isError)).toBe(true);
    expect(await shown.frame.$eval(".toolbar strong", (t) => t.textContent)).toMatch(new RegExp(`^${LONG} sessions, `));
    await shown.done("dermal-history-long");
  }, 240_000);
});

describe("analysis report card", () => {
  for (const theme of ["light", "dark"] as const) {
    it(`the overall score, every zone, and each change since the previous session (${theme})`, async () => {
      const shown = await showView(session, "dermal", "get_analysis_detail", { sessionId: sessionId(alice.uid, 4) }, theme);
      await shown.frame.waitForSelector(".card", { timeout: 20_000 });
      const card = await shown.frame.evaluate(() => ({
        score: document.querySelector(".big")?.textContent,
        overall: document.querySelector(".score .delta")?.textContent,
        overallClass: document.querySelector(".score .delta")?.className,
        zones: Array.from(document.querySelectorAll("tbody tr")).map((r) => (r as HTMLElement).dataset.zone),
        acne: document.querySelector('tr[data-zone="forehead"] td:nth-of-type(1) .delta')?.className,
        hydration: document.querySelector('tr[data-zone="forehead"] td:nth-of-type(5) .delta')?.className,
      }));
      expect(card.score).toBe(String(overall(4)));
      expect(card.overall).toBe("▲ +1");
      expect(card.overallClass).toContain("better");
      expect(card.zones).toEqual([...ZONES]);
      expect(card.acne).toContain("worse"); // acne one point higher: worse
      expect(card.hydration).toContain("better"); // hydration one point higher: better
      expect(await shown.frame.content()).not.toContain(alice.token); // a view never holds the caller's credential
      await shown.done(`dermal-report-${theme}`);
    }, 90_000);
  }

  it("someone else's session: the card says it could not be read, and shows nothing of it", async () => {
    const shown = await showView(strangers, "dermal", "get_analysis_detail", { sessionId: sessionId(alice.uid, 4) }, "light");
    await shown.frame.waitForSelector(".error", { timeout: 20_000 });
    const text = await shown.frame.$eval("main", (m) => m.textContent ?? "");
    expect(text).toContain("The report could not be read");
    expect(await shown.frame.$(".card")).toBeNull();
    await shown.done();
  }, 90_000);
});
