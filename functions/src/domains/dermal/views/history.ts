// The zone history view (ui://dermal/history) for export_zone_history: one small chart per metric,
// one line per zone, a point per session (hover or focus it for the value), dates on the axis, the
// line broken where a session has no value. A truncated export loads its next part on request.
import "../../../mcp/views/base.css";
import "./dermal.css";
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { ExportData } from "../export.js";
import type { ZoneRecord as BaseRecord } from "../schema.js";
import { connectView, el, resultText, roomOf, showError, svgEl as svg, type View } from "../../../mcp/views/app.js";

/** The export's records, read by metric name (CSV rows parse into the same shape). */
type ZoneRecord = Pick<BaseRecord, "sessionId" | "capturedAt"> & { zone: string } & Record<string, string | number | undefined>;
type Export = Pick<ExportData, "truncated" | "nextCursor" | "csv"> & { metrics: string[]; records?: ZoneRecord[] };

const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#d97706", "#9333ea", "#0891b2"];
const LABEL: Record<string, string> = { wrinkle_depth: "wrinkle depth", left_cheek: "left cheek", right_cheek: "right cheek" };
const label = (name: string) => LABEL[name] ?? name;

const app = document.getElementById("app")!;
let view: View | undefined;
let args: Record<string, unknown> = {};
let metrics: string[] = [];
let records: ZoneRecord[] = [];
let next: string | undefined;

function fromCsv(csv: string): ZoneRecord[] {
  const [header, ...lines] = csv.split(/\r?\n/).filter(Boolean);
  const names = (header ?? "").split(",");
  return lines.map((line) => {
    const cells = line.split(","); // ids, ISO dates, zone names and numbers: no quoted commas
    const record: ZoneRecord = { sessionId: "", capturedAt: "", zone: "" };
    names.forEach((n, i) => {
      const v = cells[i] ?? "";
      record[n] = i < 3 ? v : v === "" ? undefined : Number(v);
    });
    return record;
  });
}


const tip = el("div", { class: "tip", role: "status", "aria-live": "polite" });

function chart(metric: string, sessions: { id: string; at: number }[], zones: string[], t0: number, t1: number): HTMLElement {
  const W = 680, H = 180, L = 34, R = 10, T = 10, B = 26;
  const x = (t: number) => L + (t1 === t0 ? (W - L - R) / 2 : ((t - t0) / (t1 - t0)) * (W - L - R));
  const y = (v: number) => T + (1 - v / 100) * (H - T - B);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${label(metric)} over time`, class: "chart" });
  for (const v of [0, 25, 50, 75, 100]) {
    root.append(svg("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid" }));
    root.append(Object.assign(svg("text", { x: L - 4, y: y(v) + 3, class: "axis", "text-anchor": "end" }), { textContent: String(v) }));
  }
  const ticks = sessions.length <= 6 ? sessions.map((s) => s.at) : [0, 1, 2, 3, 4].map((i) => t0 + ((t1 - t0) * i) / 4);
  ticks.forEach((t, i) => {
    const anchor = ticks.length > 1 && i === 0 ? "start" : ticks.length > 1 && i === ticks.length - 1 ? "end" : "middle"; // the ends stay inside
    root.append(Object.assign(svg("text", { x: x(t), y: H - 8, class: "axis", "text-anchor": anchor }), { textContent: new Date(t).toISOString().slice(0, 10) }));
  });
  zones.forEach((zone, zi) => {
    const color = COLORS[zi % COLORS.length]!;
    const byId = new Map(records.filter((r) => r.zone === zone).map((r) => [r.sessionId, r]));
    let d = "";
    let pen = false;
    for (const s of sessions) {
      const value = byId.get(s.id)?.[metric];
      if (typeof value !== "number") {
        pen = false; // a session without this value: a gap in the line
        continue;
      }
      d += `${pen ? "L" : "M"}${x(s.at).toFixed(1)},${y(value).toFixed(1)}`;
      pen = true;
    }
    root.append(svg("path", { d, class: "series", stroke: color, "data-zone": zone }));
    for (const s of sessions) {
      const record = byId.get(s.id);
      const value = record?.[metric];
      if (typeof value !== "number") continue;
      const text = `${label(zone)}, ${label(metric)}: ${value} on ${record!.capturedAt.slice(0, 10)}`;
      const point = svg("circle", { cx: x(s.at), cy: y(value), r: 3.5, fill: color, class: "point", tabindex: 0, "aria-label": text, "data-zone": zone, "data-session": s.id });
      point.append(Object.assign(svg("title", {}), { textContent: text }));
      const show = () => (tip.textContent = text);
      point.addEventListener("mouseenter", show);
      point.addEventListener("focus", show);
      root.append(point);
    }
  });
  return el("figure", { class: "panel", "data-metric": metric }, el("figcaption", {}, label(metric)), root as unknown as HTMLElement);
}

function draw() {
  if (!records.length) return app.replaceChildren(el("p", { class: "muted" }, "No analysed sessions in this range."));
  const seen = new Map<string, number>();
  for (const r of records) seen.set(r.sessionId, Date.parse(r.capturedAt));
  const sessions = [...seen].map(([id, at]) => ({ id, at })).sort((a, b) => a.at - b.at);
  const zones = [...new Set(records.map((r) => r.zone))];
  const t0 = sessions[0]!.at, t1 = sessions[sessions.length - 1]!.at;
  const legend = el("ul", { class: "legend", "aria-label": "Zones" }, ...zones.map((z, i) => el("li", { style: `--c:${COLORS[i % COLORS.length]}` }, label(z))));
  const header = el(
    "div",
    { class: "toolbar" },
    el("strong", {}, `${sessions.length} session${sessions.length === 1 ? "" : "s"}, ${new Date(t0).toISOString().slice(0, 10)} – ${new Date(t1).toISOString().slice(0, 10)}`),
    legend,
  );
  const more = next ? [el("button", { type: "button" }, "Load the next part")] : [];
  more[0]?.addEventListener("click", () => void loadMore(more[0]!));
  app.replaceChildren(header, ...metrics.map((m) => chart(m, sessions, zones, t0, t1)), tip, ...more);
  fitRoom();
}

/** Every chart within the host's container height when it has one (each still readable). */
function fitRoom() {
  const maxHeight = view ? roomOf(view.context).maxHeight : undefined;
  const charts = Array.from(app.querySelectorAll<SVGSVGElement>("svg.chart"));
  if (!maxHeight || !charts.length) return app.style.removeProperty("--chart-max-height");
  const chartsHeight = charts.reduce((sum, c) => sum + c.getBoundingClientRect().height, 0);
  const rest = app.getBoundingClientRect().height - chartsHeight;
  app.style.setProperty("--chart-max-height", `${Math.max(90, Math.floor((maxHeight - rest - 4) / charts.length))}px`);
}

function take(result: CallToolResult) {
  const data = result.structuredContent as Export | undefined;
  if (result.isError || !data) return showError(app, "The history could not be read", resultText(result) || undefined);
  metrics = data.metrics;
  records = [...records, ...(data.records ?? (data.csv ? fromCsv(data.csv) : []))];
  next = data.truncated ? data.nextCursor : undefined;
  draw();
}

async function loadMore(button: HTMLButtonElement) {
  const cursor = next;
  if (!view || !cursor) return;
  next = undefined; // one request per part, however often the button is pressed
  button.disabled = true;
  const result = await view.callTool("export_zone_history", { ...args, cursor });
  if (result.isError) {
    next = cursor;
    button.disabled = false;
    tip.textContent = `The next part could not be read: ${resultText(result)}`;
    return;
  }
  take(result);
}

connectView("dermal-history", {
  input: (a) => (args = a),
  result: take,
  room: fitRoom,
  cancelled: () => showError(app, "No history to show", "The tool call was cancelled."),
})
  .then((v) => (view = v))
  .catch((err: Error) => showError(app, "This view could not reach its host", err.message));
