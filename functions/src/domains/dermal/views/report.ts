// The report card view (ui://dermal/report) for get_analysis_detail: the overall score and its
// change, then each zone's metrics with the change since the previous session, coloured by whether
// the change is better or worse (hydration: higher is better; every other metric: lower is).
import "../../../mcp/views/base.css";
import "./dermal.css";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { z } from "zod";
import type { analysisDetailSchema } from "../schema.js";
import { connectView, el, resultText, showError } from "../../../mcp/views/app.js";

type Detail = z.infer<typeof analysisDetailSchema>;

const HIGHER_IS_BETTER = new Set(["hydration", "overallScore"]);
const words = (name: string) => name.replace(/_/g, " ");
const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "unknown date");
const app = document.getElementById("app")!;

function change(metric: string, delta: number | null | undefined): HTMLElement {
  if (delta === null || delta === undefined) return el("span", { class: "delta muted" }, "–");
  if (delta === 0) return el("span", { class: "delta muted" }, "±0");
  const better = HIGHER_IS_BETTER.has(metric) ? delta > 0 : delta < 0;
  const text = `${delta > 0 ? "▲ +" : "▼ "}${delta}`;
  return el("span", { class: `delta ${better ? "better" : "worse"}`, title: better ? "better than the previous session" : "worse than the previous session" }, text);
}

function show(result: CallToolResult) {
  const data = result.structuredContent as Detail | undefined;
  if (result.isError || !data) return showError(app, "The report could not be read", resultText(result) || undefined);
  const metrics = Object.keys(data.zones[0]?.metrics ?? {}) as (keyof Detail["zones"][number]["metrics"])[];
  const head = el("tr", {}, el("th", { scope: "col" }, "Zone"), ...metrics.map((m) => el("th", { scope: "col" }, words(m))));
  const rows = data.zones.map((z) =>
    el("tr", { "data-zone": z.zone }, el("th", { scope: "row" }, words(z.zone)), ...metrics.map((m) => el("td", {}, el("span", { class: "value" }, String(z.metrics[m] ?? "–")), change(m, z.change?.[m])))),
  );
  app.replaceChildren(
    el(
      "section",
      { class: "card", "aria-label": "Analysis report" },
      el(
        "div",
        { class: "score" },
        el("div", { class: "big", "aria-label": "Overall score" }, data.overallScore === null ? "–" : String(data.overallScore)),
        el("div", {}, el("div", {}, "Overall score ", change("overallScore", data.overallChange)), el("div", { class: "muted" }, `Session ${data.sessionId}, ${day(data.capturedAt)}`), el("div", { class: "muted" }, data.previousSession ? `Compared with ${day(data.previousSession.capturedAt)}` : "First analysed session: nothing to compare with")),
      ),
      el("table", {}, el("thead", {}, head), el("tbody", {}, ...rows)),
      el("p", { class: "muted small" }, `${data.scale} Model ${data.modelVersion}. Cosmetic skin metrics, not a diagnosis.`),
    ),
  );
}

connectView("dermal-report", { result: show, cancelled: () => showError(app, "No report to show", "The tool call was cancelled.") }).catch((err: Error) =>
  showError(app, "This view could not reach its host", err.message),
);
