// DermalVision: skin-analysis records (profiles, monitoring sessions, AI reports) for agents,
// read-only and private by construction (see access.ts and docs/dermal.md).
import { defineDomain } from "../../mcp/define.js";
import { firestoreDermalStore } from "./records.js";
import { exportZoneHistory } from "./tools/export_zone_history.js";
import { getAnalysisDetail } from "./tools/get_analysis_detail.js";
import { getUserStatus } from "./tools/get_user_status.js";
import { listSessions } from "./tools/list_sessions.js";
import { HISTORY_VIEW, REPORT_VIEW } from "./views.js";

export default defineDomain({
  name: "dermal",
  title: "DermalVision",
  description: "Read-only access to DermalVision skin monitoring: user status, analysis sessions, AI reports and zone history exports.",
  instructions: [
    "DermalVision skin-monitoring records, read-only. You act for the signed-in user: pass their own uid.",
    "A clinician may read a patient's records only when the patient shared them with that clinician; anything else is refused with a 403 error.",
    "Start with get_user_status {uid}, then list_sessions {uid, limit 1-20, default 5, newest first},",
    "then get_analysis_detail {sessionId} for one session's full report and the change of each metric since the previous session.",
    "For trends over time use export_zone_history {uid, zone?, metrics?, from?, to?, format json|csv}; zones: forehead, nose, left_cheek,",
    "right_cheek, chin, periorbital; metrics: acne, wrinkle_depth, pigmentation, redness, hydration, pores (0-100; higher is worse except hydration).",
    "If a response says truncated, call it again with the same arguments and cursor = nextCursor until truncated is false.",
    "These are cosmetic skin metrics, not a diagnosis.",
  ].join(" "),
  tools: [getUserStatus, listSessions, getAnalysisDetail, exportZoneHistory],
  resources: [HISTORY_VIEW, REPORT_VIEW],
  backend: firestoreDermalStore,
});
