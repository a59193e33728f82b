// list_sessions: the caller's open Figma files (live plugin sessions), for choosing a sessionId.
import { z } from "zod";
import { jsonText } from "../../../mcp/content.js";
import { tool } from "../../../mcp/signed-in.js";
import { liveSessions, OPEN_PLUGIN_HOWTO, summary, userIdsOf } from "../sessions.js";

export const listSessions = tool(
  {
    name: "list_sessions",
    title: "List sessions",
    description:
      "The Figma files where your MCP Bridge plugin is open right now: roomId (pass it as sessionId to any tool), fileName, userName, userId, page. " +
      "Limited to the Figma user ids of the MCP URL (?userIds=…) when it names some.",
    inputSchema: z.object({}),
    outputSchema: z.object({
      count: z.number().int(),
      userIds: z.array(z.string()).describe("The Figma user ids of the MCP URL (empty: no filter)"),
      sessions: z.array(
        z.object({ roomId: z.string(), fileName: z.string(), userName: z.string(), userId: z.string(), pageName: z.string(), lastSeenAt: z.string() }),
      ),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async (_input, ctx) => {
    const userIds = userIdsOf(ctx);
    const sessions = (await liveSessions(ctx)).filter((s) => !userIds.length || userIds.includes(s.figmaUserId)).map(summary);
    const data = { count: sessions.length, userIds, sessions };
    const hint = sessions.length ? "" : `\n\nNo plugin session is open. ${OPEN_PLUGIN_HOWTO}.`;
    return { data, text: jsonText(data) + hint };
  },
);
