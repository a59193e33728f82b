// list_sessions {uid, limit}: a user's monitoring sessions, newest first.
import { z } from "zod";
import { tool } from "../../../mcp/signed-in.js";
import { readWhenAllowed } from "../access.js";
import { listSessionsSchema, uidArg } from "../schema.js";
import { dermalStore } from "../records.js";

export const listSessions = tool(
  {
    name: "list_sessions",
    title: "List sessions",
    description:
      "List recent analysis sessions of a user, sorted by capture date (newest first), with captured zones, status and overall score. " +
      "limit: 1–20, default 5 (a value outside that range is an error). Pass a sessionId to get_analysis_detail for the full report.",
    inputSchema: z.object({
      uid: uidArg(),
      limit: z.number().int().min(1).max(20).default(5).describe("How many sessions, 1–20 (default 5)"),
    }),
    outputSchema: listSessionsSchema,
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async ({ uid, limit }, ctx) => {
    const store = dermalStore(ctx);
    const [, { sessions, hasMore }] = await readWhenAllowed(ctx, uid, () => store.listSessions(uid, limit));
    const scores = await store.overallScores(
      uid,
      sessions.filter((s) => s.status === "completed").map((s) => s.sessionId),
    );
    return {
      data: {
        uid,
        limit,
        count: sessions.length,
        hasMore,
        sessions: sessions.map(({ uid: _owner, ...s }) => ({ ...s, overallScore: scores.get(s.sessionId) ?? null })),
      },
    };
  },
);
