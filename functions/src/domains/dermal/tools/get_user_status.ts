// get_user_status {uid}: profile summary, subscription tier, skin type, recent activity.
import { z } from "zod";
import { tool } from "../../../mcp/signed-in.js";
import { readWhenAllowed } from "../access.js";
import { uidArg, userStatusSchema } from "../schema.js";
import { dermalStore } from "../records.js";

const DAY = 24 * 60 * 60 * 1000;

export const getUserStatus = tool(
  {
    name: "get_user_status",
    title: "Get user status",
    description:
      "Get profile summary and subscription status: display name, subscription tier, skin type, account dates, and recent activity " +
      "(last session, sessions in the last 30 days). Use the caller's own uid; a clinician may pass the uid of a patient who shared records with them.",
    inputSchema: z.object({ uid: uidArg() }),
    outputSchema: userStatusSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ uid }, ctx) => {
    const store = dermalStore(ctx);
    const [{ profile, own }, [latest, last30, total]] = await readWhenAllowed(ctx, uid, () =>
      Promise.all([store.listSessions(uid, 1), store.countSessions(uid, new Date(Date.now() - 30 * DAY)), store.countSessions(uid)]),
    );
    const last = latest.sessions[0];
    const scores = last ? await store.overallScores(uid, [last.sessionId]) : new Map<string, number>();
    return {
      data: {
        uid,
        displayName: profile.displayName,
        tier: profile.tier,
        skinType: profile.skinType,
        createdAt: profile.createdAt,
        lastActiveAt: profile.lastActiveAt,
        ...(own ? { sharedWith: profile.sharedWith } : {}),
        recentActivity: {
          lastSession: last
            ? { sessionId: last.sessionId, capturedAt: last.capturedAt, zones: last.zones, status: last.status, overallScore: scores.get(last.sessionId) ?? null }
            : null,
          sessionsLast30Days: last30,
          totalSessions: total,
        },
      },
    };
  },
);
