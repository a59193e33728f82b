// Which open Figma file a tool call goes to: the seed's session flow, kept exactly.
// An explicit `room-…` id wins (when it is the caller's); otherwise the sessions of the Figma users
// named by the MCP URL's `?userIds=a;b` (all of the caller's when absent) decide: none → open the
// plugin; one → that one; several → the agent must ask which. Only sessions registered by the
// caller's own paired plugins are ever considered, whatever ids the URL or the arguments name.
import type { CallToolResult } from "@modelcontextprotocol/server";
import type { SignedInContext } from "../../mcp/define.js";
import { invalidInput, notFound, ToolError } from "../../core/errors.js";
import { deleteSession, isAlive, sessionRef, sessionsOfOwner, toSession, type Session } from "./store.js";
import { linkedFile, linkMatchesFile, parseFigmaLink, type FigmaLink } from "./links.js";

export const OPEN_PLUGIN_HOWTO =
  "In the Figma desktop app open the file, then run the MCP Bridge plugin (Plugins → Development → MCP Bridge, or Plugins → MCP Bridge once installed), " +
  "pair it with your account if it asks, and keep its window open until it shows Connected and a room id";

/** The Figma user ids the MCP URL names (`?userIds=id1;id2`); empty = no filter. */
export function userIdsOf(ctx: SignedInContext): string[] {
  const raw = ctx.query.userIds ?? "";
  return [...new Set(raw.split(/[;,]/).map((s) => s.trim()).filter(Boolean))];
}

export interface SessionSummary {
  roomId: string;
  fileName: string;
  userName: string;
  userId: string;
  pageName: string;
  lastSeenAt: string;
}

export const summary = (s: Session): SessionSummary => ({
  roomId: s.roomId,
  fileName: s.fileName,
  userName: s.figmaUserName,
  userId: s.figmaUserId,
  pageName: s.pageName,
  lastSeenAt: s.lastSeenAt.toISOString(),
});

/** The agent must choose: a tool error with the choices as structuredContent and as text. */
export class SessionChoice extends Error {
  constructor(
    readonly reason: "multiple_sessions" | "multiple_users",
    readonly text: string,
    readonly details: Record<string, unknown>,
  ) {
    super(text);
  }
  toResult(): CallToolResult & { isError: true } {
    return {
      isError: true,
      content: [{ type: "text", text: `Error: ${this.text} (409)` }],
      structuredContent: { error: this.reason, message: this.text, ...this.details },
    };
  }
}

/** The caller's live sessions (stale ones are deleted on the way: they are not offered again). */
export async function liveSessions(ctx: SignedInContext): Promise<Session[]> {
  const uid = callerUid(ctx);
  const all = await sessionsOfOwner(uid);
  const now = Date.now();
  const stale = all.filter((s) => !isAlive(s, now));
  if (stale.length) {
    await Promise.all(stale.map((s) => deleteSession(s.roomId))).catch((err: unknown) => ctx.log.warn("stale session cleanup failed", { err }));
  }
  return all.filter((s) => isAlive(s, now)).sort((a, b) => a.fileName.localeCompare(b.fileName) || a.roomId.localeCompare(b.roomId));
}

export function callerUid(ctx: SignedInContext): string {
  return ctx.caller.uid;
}

const ROOM_ID = /^room-[0-9a-f]{24}$/;

const roomNotFound = (roomId: string) =>
  new ToolError("not_found", `Figma session ${JSON.stringify(roomId)} is not open (closed, or not yours): call list_sessions and pass one of the roomIds it lists as sessionId`);

/**
 * Resolves the session a tool call addresses, or throws the error that tells the agent what to do.
 * `link` is the file a pasted Figma link names (a sessionId may be such a link too): it picks the
 * session that has that file open, and a room id given with it must have that file open.
 */
export async function resolveSession(ctx: SignedInContext, explicit: string | undefined, link?: FigmaLink): Promise<Session> {
  const uid = callerUid(ctx);
  const explicitLink = explicit !== undefined ? parseFigmaLink(explicit) : undefined;
  if (explicitLink) {
    if (link && link.fileKey !== explicitLink.fileKey) throw invalidInput(`sessionId links to ${linkedFile(explicitLink)} but the layer link is in ${linkedFile(link)}: one call works in one file`);
    return sessionOfFile(ctx, explicitLink);
  }
  if (explicit === undefined && link) return sessionOfFile(ctx, link);
  if (explicit !== undefined) {
    const roomId = explicit.trim();
    if (!roomId.startsWith("room-")) throw invalidInput(`sessionId must be a room id of the form "room-…" (as list_sessions or the plugin window shows it), not ${JSON.stringify(explicit)}`);
    // Someone else's room reads exactly like an unknown one: existence is not revealed.
    if (!ROOM_ID.test(roomId)) throw roomNotFound(roomId);
    const snap = await sessionRef(roomId).get();
    const data = snap.data();
    if (!data || data.ownerUid !== uid) throw roomNotFound(roomId);
    const session = toSession(data);
    if (!isAlive(session)) {
      await deleteSession(roomId).catch(() => undefined);
      throw roomNotFound(roomId);
    }
    if (link && !linkMatchesFile(link, session)) {
      throw invalidInput(`The link is to ${linkedFile(link)} but session ${roomId} has ${JSON.stringify(session.fileName)} open: omit sessionId (the link picks its file's session) or pass that file's room id`);
    }
    return session;
  }

  const userIds = userIdsOf(ctx);
  const sessions = (await liveSessions(ctx)).filter((s) => !userIds.length || userIds.includes(s.figmaUserId));
  if (sessions.length === 1) return sessions[0]!;
  if (sessions.length === 0) {
    const whose = userIds.length ? ` for Figma user id${userIds.length > 1 ? "s" : ""} ${userIds.join(", ")}` : "";
    throw new ToolError("not_found", `No active Figma plugin sessions${whose}: the user should open the plugin. ${OPEN_PLUGIN_HOWTO}`);
  }
  throw choiceError(sessions);
}

/** The one live session that has the linked file open (several → the agent chooses among those). */
async function sessionOfFile(ctx: SignedInContext, link: FigmaLink): Promise<Session> {
  const userIds = userIdsOf(ctx);
  const open = (await liveSessions(ctx)).filter((s) => !userIds.length || userIds.includes(s.figmaUserId));
  const matching = open.filter((s) => linkMatchesFile(link, s));
  if (matching.length === 1) return matching[0]!;
  if (matching.length > 1) throw choiceError(matching);
  const elsewhere = open.length ? ` Open now: ${open.map((s) => `${JSON.stringify(s.fileName)} (${s.roomId})`).join(", ")}.` : "";
  throw new ToolError("not_found", `The Figma file ${linkedFile(link)} from the link is not open in any of your MCP Bridge sessions: open that file in Figma and run the plugin there (${OPEN_PLUGIN_HOWTO}).${elsewhere}`);
}

function choiceError(sessions: Session[]): SessionChoice {
  const byUser = new Map<string, Session[]>();
  for (const s of sessions) byUser.set(s.figmaUserId, [...(byUser.get(s.figmaUserId) ?? []), s]);
  const listed = (list: Session[]) => list.map((s) => `${s.roomId} (${JSON.stringify(s.fileName)}, page ${JSON.stringify(s.pageName)})`).join("; ");
  if (byUser.size === 1) {
    const userName = sessions[0]!.figmaUserName;
    return new SessionChoice(
      "multiple_sessions",
      `${sessions.length} Figma sessions are open for ${userName}: ${listed(sessions)}. Ask the user which file to use, then call again with sessionId set to its room id`,
      { sessions: sessions.map((s) => ({ roomId: s.roomId, fileName: s.fileName, userName: s.figmaUserName, userId: s.figmaUserId, pageName: s.pageName })) },
    );
  }
  const users = [...byUser.values()].map((list) => ({
    userId: list[0]!.figmaUserId,
    userName: list[0]!.figmaUserName,
    sessions: list.map((s) => ({ roomId: s.roomId, fileName: s.fileName, pageName: s.pageName })),
  }));
  const text = users.map((u) => `${u.userName} (Figma user id ${u.userId}): ${listed(byUser.get(u.userId)!)}`).join(" | ");
  return new SessionChoice(
    "multiple_users",
    `Figma sessions are open for ${users.length} users: ${text}. Ask the user which user and file to use, then call again with sessionId set to that room id (or configure the MCP URL with ?userIds=<their Figma user id>)`,
    { users },
  );
}
