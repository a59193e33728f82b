// get_analysis_detail {sessionId}: the full AI report of one session, with the change of every
// metric since the user's previous analysed session.
import { z } from "zod";
import { tool } from "../../../mcp/signed-in.js";
import { conflict, ToolError } from "../../../core/errors.js";
import { readableSession } from "../access.js";
import { analysisDetailSchema, idArg, METRICS, ZONES, type ZoneScores } from "../schema.js";
import { dermalStore } from "../records.js";
import { REPORT_VIEW } from "../views.js";

const delta = (now: number | null, before: number | null | undefined): number | null =>
  now === null || before === null || before === undefined ? null : Math.round((now - before) * 100) / 100;

export const SCALE =
  "All metrics are 0–100. acne, wrinkle_depth, pigmentation, redness and pores: higher is more severe. hydration: higher is better. " +
  "overallScore: higher is healthier skin. A change is this session's value minus the previous session's.";

export const getAnalysisDetail = tool(
  {
    name: "get_analysis_detail",
    title: "Get analysis detail",
    description:
      "Get detailed AI results (acne score, wrinkle depth, etc.) for one session: overall score, every metric per facial zone, model version, " +
      "image references, and the change of each metric since the user's previous analysed session. Find session ids with list_sessions.",
    inputSchema: z.object({ sessionId: idArg("sessionId", "a session id as list_sessions returns it").describe("Session id, as list_sessions returns it") }),
    outputSchema: analysisDetailSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    ui: { resourceUri: REPORT_VIEW.uri },
  },
  async ({ sessionId }, ctx) => {
    const store = dermalStore(ctx);
    const session = await readableSession(ctx, sessionId);
    const report = session.status === "completed" ? await store.getReport(session.uid, sessionId) : null;
    if (!report) {
      // Completed but no report is missing data, not a wait: retrying will not help.
      if (session.status === "completed") {
        throw new ToolError("not_found", `Analysis report for session ${sessionId} is missing: the session is completed but no report was stored`);
      }
      const why = session.status === "failed" ? "its analysis failed; a new capture is needed" : `its status is ${session.status}; try again later`;
      throw conflict(`Analysis report for session ${sessionId} is not available: ${why}`);
    }
    const previous = await store.previousReport(report);
    const zones = ZONES.flatMap((zone) => {
      const metrics = report.zones[zone];
      if (!metrics) return [];
      const before = previous?.zones[zone];
      const change = before
        ? (Object.fromEntries(METRICS.map((m) => [m, delta(metrics[m], before[m])])) as Record<keyof ZoneScores, number | null>)
        : null;
      return [{ zone, metrics, change }];
    });
    return {
      data: {
        sessionId,
        uid: session.uid,
        capturedAt: session.capturedAt,
        analyzedAt: report.analyzedAt,
        status: session.status,
        modelVersion: report.modelVersion,
        overallScore: report.overallScore,
        overallChange: previous ? delta(report.overallScore, previous.overallScore) : null,
        // previousReport only finds timestamped reports, so its capturedAt is set
        previousSession: previous ? { sessionId: previous.sessionId, capturedAt: previous.capturedAt! } : null,
        zones,
        images: report.images,
        scale: SCALE,
      },
    };
  },
);
