// The dermal domain's views in the conversation (built from views/history.ts and views/report.ts).
import { viewResource } from "../../mcp/view.js";

export const HISTORY_VIEW = viewResource({
  domain: "dermal",
  name: "history",
  title: "Zone history chart",
  description: "export_zone_history as a chart over time: one line per zone for each metric, dates on the axis, values on hover, gaps where sessions are missing.",
});

export const REPORT_VIEW = viewResource({
  domain: "dermal",
  name: "report",
  title: "Analysis report card",
  description: "get_analysis_detail as a report card: the overall score, every zone's metrics and their change since the previous session.",
});
