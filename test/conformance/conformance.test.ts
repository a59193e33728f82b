// The MCP conformance suite's 2026-07-28 server requirement set against every served MCP function
// (scripts/conformance.ts), judged against test/conformance/baseline.json: a failure the baseline
// does not list fails this test, and so does a listed failure that now passes (a stale entry).
// The table (passed / failed / expected failure per function) and the baseline are printed.
import { describe, expect, test } from "vitest";
import { conformance, formatVerdict, judge, readBaseline, type Baseline, type Check } from "../../scripts/conformance.js";
import { MCP_FUNCTIONS } from "../../functions/src/core/manifest.js";

test("every served MCP function meets the 2026-07-28 requirement set, but for the baseline's expected failures", async () => {
  const baseline = await readBaseline();
  const verdict = await conformance(undefined, baseline);
  console.log(`\n${formatVerdict(verdict, baseline)}\n`);
  expect(verdict.summaries.map((s) => s.domain).sort()).toEqual([...MCP_FUNCTIONS].sort());
  for (const s of verdict.summaries) expect(s.passed, `${s.domain} passed no check`).toBeGreaterThan(0);
  expect(verdict.unexpected, "new conformance failures").toEqual([]);
  expect(verdict.stale, "baseline entries that pass now").toEqual([]);
}, 240_000);

describe("judging a run against the baseline", () => {
  const target = { domain: "mermaid", access: "public", url: "http://127.0.0.1/mermaid" };
  const baseline: Baseline = {
    requirements: "2026-07-28",
    expectedFailures: [
      { reason: "fixture tool", checks: ["tools-call-image:tools-call-image"] },
      { reason: "no prompts", domains: ["dermal"], checks: ["prompts-list:prompts-list"] },
    ],
  };
  const check = (scenario: string, id: string, status: Check["status"]): Check => ({ domain: "mermaid", scenario, id, status });

  test("a listed failure is expected; an unlisted one, or one listed for another domain only, is new", () => {
    const verdict = judge(
      [
        {
          target,
          seconds: 1,
          checks: [
            check("tools-call-image", "tools-call-image", "FAILURE"),
            check("prompts-list", "prompts-list", "FAILURE"),
            check("server-stateless", "sep-2575-http-server-method-not-found-404-initialize", "FAILURE"),
            check("tools-list", "tools-list", "SUCCESS"),
          ],
        },
      ],
      baseline,
    );
    expect(verdict.summaries[0]).toMatchObject({ passed: 1, expected: 1, failed: 2 });
    expect(verdict.unexpected.map((c) => `${c.scenario}:${c.id}`)).toEqual([
      "prompts-list:prompts-list",
      "server-stateless:sep-2575-http-server-method-not-found-404-initialize",
    ]);
  });

  test("a check id that fails in any of its occurrences fails; a listed check that passes is stale", () => {
    const verdict = judge(
      [
        {
          target,
          seconds: 1,
          checks: [
            check("http-header-validation", "sep-2243-server-reject-error-code", "SUCCESS"),
            check("http-header-validation", "sep-2243-server-reject-error-code", "FAILURE"),
            check("tools-call-image", "tools-call-image", "SUCCESS"),
          ],
        },
      ],
      baseline,
    );
    expect(verdict.unexpected.map((c) => c.id)).toEqual(["sep-2243-server-reject-error-code"]);
    expect(verdict.stale).toEqual([{ domain: "mermaid", check: "tools-call-image:tools-call-image", reason: "fixture tool" }]);
  });
});
