// A tool call becomes a command for one room; the plugin takes it with its long-poll and posts the
// answer back. The tool waits on the command's document (bounded, with MCP progress, stopping on
// cancel) and on the session's (closed or no heartbeat → fail early). Whatever way the wait ends
// without an answer, the command is deleted: nothing is left for a plugin to run later.
import type { RequestContext } from "../../mcp/define.js";
import { ToolError, timedOut, unavailable, type ErrorKind } from "../../core/errors.js";
import type { PluginAnswer, PluginErrorCode } from "../../contracts/figma-plugin.js";
import { COMMAND_TIMEOUT_MS, PROGRESS_EVERY_MS } from "./config.js";
import { commandsOf, fileCommand, newId, sessionRef, staleAfterMs, toSession, type Session } from "./store.js";

const PLUGIN_ERROR_KINDS: Record<PluginErrorCode, ErrorKind> = {
  not_found: "not_found",
  invalid_input: "invalid_input",
  conflict: "conflict",
  too_large: "too_large",
  unsupported: "invalid_input",
};

const where = (s: Session) => `${JSON.stringify(s.fileName)} (${s.roomId})`;

export async function runCommand(ctx: RequestContext, session: Session, tool: string, args: unknown): Promise<unknown> {
  // Listen first (to a document about to exist), file second: the listener is ready sooner.
  const ref = commandsOf(session.roomId).doc(newId());
  const filed = fileCommand(ref, tool, args);
  const started = Date.now();
  let settled = false;
  const unsubscribers: (() => void)[] = [];
  const timers: NodeJS.Timeout[] = [];
  let lastSeen = session.lastSeenAt.getTime();

  try {
    const answer = await new Promise<PluginAnswer>((resolve, reject) => {
      const fail = (err: unknown) => {
        if (!settled) {
          settled = true;
          reject(err);
        }
      };
      unsubscribers.push(
        ref.onSnapshot(
          (snap) => {
            const data = snap.data();
            if (data?.state === "done" && !settled) {
              settled = true;
              try {
                resolve(JSON.parse(String(data.resultJson)) as PluginAnswer);
              } catch (err) {
                reject(err);
              }
            }
          },
          fail,
        ),
        sessionRef(session.roomId).onSnapshot(
          (snap) => {
            const data = snap.data();
            if (!data) return fail(unavailable(`The Figma plugin for ${where(session)} was closed before it answered: open the plugin in that file again, then retry`));
            lastSeen = toSession(data).lastSeenAt.getTime();
          },
          fail,
        ),
      );
      timers.push(
        setTimeout(
          () =>
            fail(
              timedOut(
                `Figma did not answer within ${Math.round(COMMAND_TIMEOUT_MS / 1000)} seconds for ${where(session)}: check that the file is still open in Figma, ` +
                  "that the MCP Bridge plugin window shows Connected and is not busy (a large export or scan can take a while), then try again",
              ),
            ),
          COMMAND_TIMEOUT_MS,
        ),
        setInterval(() => {
          if (Date.now() - lastSeen > staleAfterMs(session)) {
            fail(
              unavailable(
                `The Figma plugin for ${where(session)} stopped responding (no heartbeat for ${Math.round((Date.now() - lastSeen) / 1000)} seconds): ` +
                  "check that Figma is still open, the computer is awake and online, and the plugin window shows Connected, then try again",
              ),
            );
          }
        }, 500),
        setInterval(() => {
          const waited = Date.now() - started;
          void ctx.progress(waited, COMMAND_TIMEOUT_MS, `Waiting for Figma (${JSON.stringify(session.fileName)})…`);
        }, PROGRESS_EVERY_MS),
      );
      filed.catch(fail);
      if (ctx.signal.aborted) fail(new ToolError("unavailable", "The request was cancelled"));
      ctx.signal.addEventListener("abort", () => fail(new ToolError("unavailable", "The request was cancelled")), { once: true });
    });
    if (answer.ok) return answer.result;
    const kind = (PLUGIN_ERROR_KINDS as Record<string, ErrorKind | undefined>)[answer.error.code ?? ""] ?? "invalid_input";
    throw new ToolError(kind, String(answer.error.message).slice(0, 500));
  } finally {
    await filed.catch(() => undefined);
    for (const u of unsubscribers) u();
    for (const t of timers) clearTimeout(t);
    // Answered or not, the command's work is over: remove it (a late result then finds nothing).
    // A delete can lose against a poll's claim transaction on the same documents: try again.
    for (let attempt = 1; ; attempt++) {
      try {
        await ref.delete();
        break;
      } catch (err) {
        if (attempt >= 3) {
          ctx.log.warn("command cleanup failed", { err });
          break;
        }
        await new Promise((r) => setTimeout(r, 50 * attempt));
      }
    }
  }
}
