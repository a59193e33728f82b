// list_sessions: the caller's open Figma files (live plugin sessions), for choosing a sessionId.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { z } from "zod";
import { jsonText } from "../../../mcp/content.js";
import { tool } from "../../../mcp/define.js";
import { liveSessions, OPEN_PLUGIN_HOWTO, summary, userIdsOf } from "../sessions.js";

export const listSessions = tool(
  {
    name: "list_sessions",
    title: "List sessions",
    description:
      "The Figma files where your MCP Bridge plugin is open right now: roomId (pass it as sessionId to any tool), fileName, userName, userId, page. " +
      "Limited to the Figma user ids of the MCP URL (?userIds=…) when it names some.",
    inputSchema: z.object({}),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  },
  async (_input, ctx): Promise<CallToolResult> => {
    const userIds = userIdsOf(ctx);
    const sessions = (await liveSessions(ctx)).filter((s) => !userIds.length || userIds.includes(s.figmaUserId)).map(summary);
    const data = { count: sessions.length, userIds, sessions };
    const hint = sessions.length ? "" : `\n\nNo plugin session is open. ${OPEN_PLUGIN_HOWTO}.`;
    return { content: [{ type: "text", text: jsonText(data) + hint }], structuredContent: data };
  },
);
