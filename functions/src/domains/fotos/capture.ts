// Taking a screenshot: the function never captures itself. It picks the caller's agent, files a
// capture request for it, and waits (bounded) until the agent uploads the PNG or reports why it
// could not; meanwhile it sends MCP progress and watches the agent's heartbeat, so a stopped or
// killed agent ends the wait within a few seconds instead of at the timeout.
import type { DocumentSnapshot } from "firebase-admin/firestore";
import type { RequestContext } from "../../mcp/define.js";
import { envNumber } from "../../core/env.js";
import { invalidInput, timedOut, ToolError, unauthenticated, unavailable } from "../../core/errors.js";
import { agents, agentsOf, createRequest, failIfOpen, isOnline, requests, toAgent, toRequest, type Agent, type CaptureRequest } from "./agents/registry.js";
import { captureError, loadScreenshot, MAX_DELAY_MS, windowTitleRequired, type CaptureArgs, type ScreenshotMeta } from "./store.js";
import { QUOTAS, useQuota } from "../../platform/quota.js";
import { quoted } from "./screenshots.js";

export { MAX_DELAY_MS, type CaptureArgs };

/** How long a capture may take besides its delay (FOTOS_CAPTURE_TIMEOUT_MS, default 30 s). */
export const CAPTURE_TIMEOUT_MS = envNumber("FOTOS_CAPTURE_TIMEOUT_MS", 30_000, { min: 1000 });

export interface Captured {
  meta: ScreenshotMeta;
  png: Buffer;
  /** The agent that captured it, and the user's other online agents (named in the tool's text). */
  agent: { deviceId: string; name: string };
  otherAgents: string[];
}

const START_HINT = "start it with `npx fotos-agent run` on your computer (pair it once with `npx fotos-agent pair --server <this server's URL>`)";

export function notRunning(all: Agent[]): ToolError {
  const seen = all.filter((a) => a.lastSeenAt.getTime() > 0).sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())[0];
  const when = seen
    ? `no Fotos agent of yours is online (last seen ${seen.lastSeenAt.toISOString()} on ${quoted(seen.name)})`
    : "no Fotos agent is paired with your account yet";
  return unavailable(`Fotos application is not running: ${when}. To capture screenshots, ${START_HINT}`);
}

export function noDisplay(agent: Agent): ToolError {
  return unavailable(
    `No display server is available for screenshot capture: the Fotos agent on ${quoted(agent.name)} runs without a graphical session (no DISPLAY or WAYLAND_DISPLAY). Start the agent inside your desktop session`,
  );
}

/** The agent that captures for `uid`: the most recently active online one, preferring one with a display. */
export async function pickAgent(uid: string): Promise<{ agent: Agent; others: Agent[] }> {
  const all = await agentsOf(uid);
  const online = all.filter((a) => isOnline(a)).sort((a, b) => b.lastActiveAt.getTime() - a.lastActiveAt.getTime());
  if (!online.length) throw notRunning(all);
  const agent = online.find((a) => a.display) ?? online[0]!;
  if (!agent.display) throw noDisplay(agent);
  return { agent, others: online.filter((a) => a !== agent) };
}

function checkArgs(agent: Agent, args: Required<Pick<CaptureArgs, "mode">> & CaptureArgs): void {
  if (args.mode === "window" && !args.window_title?.trim()) throw windowTitleRequired();
  if (args.mode === "monitor" && agent.monitors.length && (args.monitor_index ?? 0) >= agent.monitors.length) {
    const list = agent.monitors.map((m) => `${m.index}: ${m.width}×${m.height} at ${m.x},${m.y}`).join("; ");
    throw invalidInput(
      `Invalid input: monitor_index ${args.monitor_index} does not exist on ${quoted(agent.name)}, which has ${agent.monitors.length} monitor${agent.monitors.length === 1 ? "" : "s"} (${list})`,
    );
  }
}

/**
 * Captures a screenshot on the caller's desktop agent and returns it stored (meta + original PNG).
 * Throws the seed's errors: application not running, no display server, no matching window
 * (the agent's own words), timeout, cancellation.
 */
export async function captureScreenshot(ctx: RequestContext, args: CaptureArgs): Promise<Captured> {
  const uid = ctx.caller?.uid;
  if (!uid) throw unauthenticated();
  const mode = args.mode ?? "fullscreen";
  const delayMs = Math.min(Math.max(0, Math.floor(args.delay_ms ?? 0)), MAX_DELAY_MS);
  const { agent, others } = await pickAgent(uid);
  checkArgs(agent, { ...args, mode });
  await useQuota(uid, QUOTAS.captures);

  const budget = CAPTURE_TIMEOUT_MS + delayMs;
  const id = await createRequest(
    uid,
    agent.deviceId,
    {
      mode,
      ...(mode === "monitor" ? { monitorIndex: args.monitor_index ?? 0 } : {}),
      ...(mode === "window" ? { windowTitle: args.window_title!.trim() } : {}),
      delayMs,
      ...(args.redact ? { redact: args.redact } : {}),
    },
    budget,
  );
  ctx.log.info("capture requested", { request: id, device: agent.deviceId, mode, delayMs });
  const outcome = await waitForAgent(ctx, id, agent, budget);
  if (outcome.status === "failed") throw captureError(outcome.error ?? "The capture failed");
  const { meta, png } = await loadScreenshot(uid, outcome.screenshotId!);
  return { meta, png, agent: { deviceId: agent.deviceId, name: agent.name }, otherAgents: others.map((a) => a.name) };
}


/** Waits for the request to end: done, failed, the agent gone, the time budget spent, or the client gone. */
function waitForAgent(ctx: RequestContext, id: string, agent: Agent, budgetMs: number): Promise<CaptureRequest> {
  const started = Date.now();
  let current = agent;
  return new Promise<CaptureRequest>((resolve, reject) => {
    let settled = false;
    const stops: (() => void)[] = [];
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      for (const stop of stops) stop();
      fn();
    };
    // Ends the request for the agent too ("nothing left pending"). If it ended meanwhile (the
    // agent answered in the same instant), that answer wins.
    let givingUp = false;
    const giveUp = (error: ToolError) => {
      if (givingUp) return;
      givingUp = true;
      failIfOpen(id, error.message).then(
        (r) => finish(() => (r && (r.status === "done" || r.status === "failed") && r.error !== error.message ? resolve(r) : reject(error))),
        () => finish(() => reject(error)),
      );
    };

    stops.push(
      requests()
        .doc(id)
        .onSnapshot(
          (snap: DocumentSnapshot) => {
            if (!snap.exists) return;
            const r = toRequest(snap);
            if (r.status === "done" || r.status === "failed") finish(() => resolve(r));
          },
          (err) => finish(() => reject(err)),
        ),
    );
    stops.push(
      agents()
        .doc(agent.deviceId)
        .onSnapshot(
          (snap) => {
            if (snap.exists) current = toAgent(snap);
            else current = { ...current, online: false };
          },
          () => undefined,
        ),
    );
    const ticker = setInterval(() => {
      const elapsed = Date.now() - started;
      if (!isOnline(current)) {
        giveUp(
          unavailable(
            `The Fotos agent on ${quoted(agent.name)} stopped before it answered (last seen ${current.lastSeenAt.toISOString()}), so no screenshot was taken. Start it again (\`npx fotos-agent run\`) and retry`,
          ),
        );
        return;
      }
      if (elapsed >= budgetMs) {
        giveUp(
          timedOut(`The Fotos agent on ${quoted(agent.name)} did not answer within ${Math.round(budgetMs / 1000)} seconds, so no screenshot was taken. Check that it is running and not stuck, then retry`),
        );
        return;
      }
      void ctx.progress(Math.round(elapsed / 1000), Math.round(budgetMs / 1000), `Waiting for the Fotos agent on ${quoted(agent.name)} to capture`);
    }, 500);
    stops.push(() => clearInterval(ticker));
    const onAbort = () => giveUp(new ToolError("conflict", "The capture was cancelled by the client"));
    if (ctx.signal.aborted) onAbort();
    else {
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      stops.push(() => ctx.signal.removeEventListener("abort", onAbort));
    }
  });
}
