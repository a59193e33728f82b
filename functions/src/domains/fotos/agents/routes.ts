// The desktop agent's routes beside MCP on the fotos function; only a paired desktop agent's device
// token gets in, and each route touches only that device's own requests.
// Paths, bodies and answers are the contract the agent is built against (contracts/fotos-agent.ts).
import { Timestamp } from "firebase-admin/firestore";
import { device, type RequestContext } from "../../../mcp/define.js";
import { route, type HttpRoute } from "../../../http/route.js";
import { conflict, forbidden, ToolError, unauthenticated } from "../../../core/errors.js";
import { parseInput } from "../../../mcp/validation.js";
import {
  AGENT_ROUTES,
  agentReportSchema,
  claimSchema,
  failSchema,
  offlineSchema,
  uploadQuerySchema,
  type AgentRegistered,
  type ClaimedCapture,
  type UploadedCapture,
} from "../../../contracts/fotos-agent.js";
import { deviceRedaction } from "../schema.js";
import { firestore } from "../../../platform/firebase.js";
import { writesSafeToRepeat } from "../../../platform/deadline.js";
import { quoted } from "../screenshots.js";
import { checkUploadedPng, MAX_PNG_BYTES } from "../store.js";
import { saveUploadOnce } from "../uploads.js";
import { failIfOpen, markActive, recordHeartbeat, recordOffline, requests, toRequest } from "./registry.js";

const AGENT = device("desktop-agent");


function agentOf(ctx: RequestContext): { id: string; name: string; owner: string } {
  const caller = ctx.caller;
  if (!caller?.device || caller.device.kind !== "desktop-agent") throw unauthenticated("A paired Fotos agent's device token is required");
  return { id: caller.device.id, name: caller.device.name, owner: caller.uid };
}

/** The agent's capture request, or 404/403 when it is unknown or addressed to another device. */
async function ownRequest(agent: { id: string; owner: string }, id: string) {
  const snap = await requests().doc(id).get();
  if (!snap.exists) throw new ToolError("not_found", "No such capture request");
  const r = toRequest(snap);
  if (r.device !== agent.id || r.owner !== agent.owner) throw forbidden("This capture request is addressed to another device");
  return r;
}

const ok = (body: unknown = { ok: true }) => ({ status: 200, body });

export const agentRoutes: HttpRoute[] = [
  route({
    method: "POST",
    path: AGENT_ROUTES.register,
    description: "Desktop agent (device token): comes online with its display, monitors and version",
    access: AGENT,
    input: agentReportSchema,
    async handle(req, ctx) {
      const agent = agentOf(ctx);
      const r = req.input;
      await recordHeartbeat(agent, agent.owner, r, true);
      // Requests an earlier run of this agent claimed can never be answered now: end them so the
      // waiting tool says so at once (pending ones are still picked up by this run).
      const stale = await requests().where("device", "==", agent.id).where("status", "==", "claimed").get();
      await Promise.all(
        stale.docs
          .filter((d) => d.get("claimedBy") !== r.sessionId)
          .map((d) => failIfOpen(d.id, `The Fotos agent on ${quoted(agent.name)} restarted during the capture, so no screenshot was taken. Try again`)),
      );
      return ok({ ok: true, deviceId: agent.id, owner: agent.owner, name: agent.name } satisfies AgentRegistered);
    },
  }),
  route({
    method: "POST",
    path: AGENT_ROUTES.heartbeat,
    description: "Desktop agent: still online (every 10 s)",
    access: AGENT,
    input: agentReportSchema,
    async handle(req, ctx) {
      const agent = agentOf(ctx);
      await recordHeartbeat(agent, agent.owner, req.input, false);
      return ok();
    },
  }),
  route({
    method: "POST",
    path: AGENT_ROUTES.offline,
    description: "Desktop agent: going offline (clean stop)",
    access: AGENT,
    input: offlineSchema,
    async handle(req, ctx) {
      const agent = agentOf(ctx);
      const { sessionId: session } = req.input;
      await recordOffline(agent.id, agent.owner, session);
      return ok();
    },
  }),
  route({
    method: "POST",
    path: AGENT_ROUTES.claim,
    description: "Desktop agent: takes on one capture request addressed to it, once",
    access: AGENT,
    input: claimSchema,
    async handle(req, ctx) {
      const agent = agentOf(ctx);
      const body = req.input;
      // One claim per request, in a transaction: a request seen twice (reconnect, restart, two
      // listeners) is captured once.
      const claimed = await firestore().runTransaction(async (tx) => {
        const ref = requests().doc(body.requestId);
        const snap = await tx.get(ref);
        if (!snap.exists) throw new ToolError("not_found", "No such capture request");
        const r = toRequest(snap);
        if (r.device !== agent.id || r.owner !== agent.owner) throw forbidden("This capture request is addressed to another device");
        // The same run asking again: its first answer was lost on the way (network drop).
        if (r.status === "claimed" && snap.get("claimedBy") === body.sessionId) return r;
        if (r.status !== "pending") throw conflict(`This capture request is already ${r.status}`);
        if (r.expiresAt.getTime() <= Date.now()) throw conflict("This capture request has expired");
        tx.update(ref, { status: "claimed", claimedBy: body.sessionId, claimedAt: Timestamp.now() });
        return r;
      });
      return ok({
        requestId: claimed.id,
        mode: claimed.mode,
        monitorIndex: claimed.monitorIndex,
        windowTitle: claimed.windowTitle,
        delayMs: claimed.delayMs,
        ...(claimed.redact ? { redact: claimed.redact } : {}),
        expiresAt: claimed.expiresAt.toISOString(),
      } satisfies ClaimedCapture);
    },
  }),
  route({
    method: "POST",
    path: AGENT_ROUTES.upload,
    description: "Desktop agent: the PNG for a claimed request (raw body, at most 25 MB)",
    access: AGENT,
    body: { type: "binary", maxBytes: MAX_PNG_BYTES },
    async handle(req, ctx) {
      const agent = agentOf(ctx);
      const { request: id, redaction: reported } = parseInput(uploadQuerySchema, req.query);
      const png = req.rawBody;
      await checkUploadedPng(png); // the same checks as a user's upload: a PNG, decodable, not a huge canvas
      const r = await ownRequest(agent, id);
      // A retry after a lost response: answer with what was stored the first time.
      if (r.status === "done" && r.screenshotId) return ok({ screenshotId: r.screenshotId, duplicate: true } satisfies UploadedCapture);
      if (r.status !== "claimed" && r.status !== "pending") throw conflict(`This capture request is ${r.status}: nothing was stored`);
      const redaction = deviceRedaction(reported);
      if (r.redact && !redaction) {
        // Never stored: the person asked for the image not to leave the computer unredacted.
        const error = `The Fotos agent on ${quoted(agent.name)} sent the capture without redacting it on the device, so it was not stored: update the agent (npx fotos-agent@latest run) and try again`;
        await failIfOpen(id, error);
        throw conflict(error);
      }
      // Keyed by the capture request: a repeat whose first attempt stored the image but timed out
      // before the request was marked done gets the same screenshot, never a second one.
      const { meta } = await saveUploadOnce(agent.owner, `capture:${id}`, png, {
        ...(redaction ? { redaction } : {}),
        mode: r.mode,
        ...(r.monitorIndex !== undefined ? { monitorIndex: r.monitorIndex } : {}),
        ...(r.windowTitle !== undefined ? { windowTitle: r.windowTitle } : {}),
      });
      // The tool may have given up meanwhile: then the request stays failed and the stored
      // screenshot is still the user's (listed, and deleted with the others when it expires).
      // Marking the request done is the same however often it is repeated: a timed-out upload is safe to send again.
      const done = await writesSafeToRepeat(() => firestore().runTransaction(async (tx) => {
        const ref = requests().doc(id);
        const snap = await tx.get(ref);
        const now = toRequest(snap);
        if (now.status !== "claimed" && now.status !== "pending") return false;
        tx.update(ref, { status: "done", screenshotId: meta.id, finishedAt: Timestamp.now() });
        return true;
      }));
      await markActive(agent.id);
      return ok({ screenshotId: meta.id, width: meta.width, height: meta.height, answered: done } satisfies UploadedCapture);
    },
  }),
  route({
    method: "POST",
    path: AGENT_ROUTES.fail,
    description: "Desktop agent: why a request could not be captured (returned by take_screenshot word for word)",
    access: AGENT,
    input: failSchema,
    async handle(req, ctx) {
      const agent = agentOf(ctx);
      const body = req.input;
      await ownRequest(agent, body.requestId);
      const r = await failIfOpen(body.requestId, body.error);
      return ok({ ok: true, status: r?.status });
    },
  }),
];
