// What the plugin calls (from Figma's iframe: `Origin: null`, a figma-plugin device token). Paths,
// bodies and answers are the contract the plugin is built against (contracts/figma-plugin.ts).
// Register hands the plugin its device's Firestore sign-in: a listening plugin learns of commands
// there, claims them and stamps its own lastSeenAt itself (firestore.rules; no request held while
// idle) and posts results here. A plugin that cannot listen long-polls: the poll is then also the
// heartbeat, held until a command arrives or for pollSeconds (≤ keep-alive).
// A room that is not this device's reads like an unknown one (404), whoever asks.
import { device, type RequestContext } from "../../mcp/define.js";
import { route, type HttpRoute } from "../../http/route.js";
import { notFound, ToolError, unauthenticated } from "../../core/errors.js";
import { MAX_RESULT_BODY_BYTES, PLUGIN_ROUTES, type CommandBatch, type PluginAnswer, type SessionRegistered } from "../../contracts/figma-plugin.js";
import { closeSchema, commandsQuerySchema, heartbeatSchema, registerSessionSchema, resultSchema } from "../../contracts/figma-plugin-requests.js";
import { parseInput } from "../../mcp/validation.js";
import { deviceFirebaseSignIn } from "../../auth/firebase-sign-in.js";
import { MAX_STORED_RESULT_CHARS, POLL_HOLD_MS } from "./config.js";
import { fitExportForModel } from "./image.js";
import { claimPending, commandsOf, deleteSession, deviceRoom, isNotFound, newId, registerSession, storeResult, touchSession } from "./store.js";

const plugin = device("figma-plugin"); // accepts Figma's `Origin: null` iframe

/** A poll is held at most one keep-alive interval: the next poll is the session's next heartbeat. */
const holdMs = (s: { keepaliveSeconds: number }) => Math.min(POLL_HOLD_MS, s.keepaliveSeconds * 1000);

function deviceOf(ctx: RequestContext): { uid: string; deviceId: string } {
  const caller = ctx.caller;
  if (!caller?.device) throw unauthenticated("Pair the Figma plugin with your account first (the plugin window shows how)");
  return { uid: caller.uid, deviceId: caller.device.id };
}

const roomNotFound = (roomId: string) => notFound(`Session ${JSON.stringify(roomId)}`);

async function ownRoom(ctx: RequestContext, roomId: string): Promise<{ keepaliveSeconds: number }> {
  const { uid, deviceId } = deviceOf(ctx);
  const room = await deviceRoom(roomId, uid, deviceId);
  if (!room) throw roomNotFound(roomId);
  return room;
}

/** Stamps the session; a session deleted meanwhile (closed, cleaned up) is a 404 the plugin re-registers on. */
async function touch(roomId: string, fields: Parameters<typeof touchSession>[1]): Promise<void> {
  try {
    await touchSession(roomId, fields);
  } catch (err) {
    if (isNotFound(err)) throw roomNotFound(roomId);
    throw err;
  }
}

const registerRoute = route({
  method: "POST",
  path: PLUGIN_ROUTES.sessions,
  description: "Figma plugin (device token): register or resume the open file's session",
  access: plugin,
  input: registerSessionSchema,
  async handle(req, ctx) {
    const { uid, deviceId } = deviceOf(ctx);
    const { roomId, ...fields } = req.input;
    const session = await registerSession(uid, deviceId, fields, roomId);
    const listen = await listenSignIn(ctx, uid, deviceId);
    return {
      status: 200,
      body: { roomId: session.roomId, keepaliveSeconds: session.keepaliveSeconds, pollSeconds: holdMs(session) / 1000, ...(listen ? { listen } : {}) } satisfies SessionRegistered,
    };
  },
});

/** The device's Firestore sign-in, or nothing (the plugin then long-polls) when it cannot be minted here. */
async function listenSignIn(ctx: RequestContext, uid: string, deviceId: string): Promise<SessionRegistered["listen"]> {
  try {
    return await deviceFirebaseSignIn(uid, { id: deviceId, kind: "figma-plugin" });
  } catch (err) {
    ctx.log.warn("figma plugin: no Firestore sign-in, it long-polls", { err });
    return undefined;
  }
}

const heartbeatRoute = route({
  method: "POST",
  path: PLUGIN_ROUTES.heartbeat,
  description: "Figma plugin: the page or file name changed",
  access: plugin,
  input: heartbeatSchema,
  async handle(req, ctx) {
    const { roomId, ...page } = req.input;
    await ownRoom(ctx, roomId);
    await touch(roomId, page);
    return { status: 200, body: { ok: true } };
  },
});

const commandsRoute = route({
  method: "GET",
  path: PLUGIN_ROUTES.commands,
  description: "Figma plugin: long-poll for the room's commands (also its heartbeat)",
  access: plugin,
  body: { type: "none" },
  async handle(req, ctx) {
    const { room: roomId } = parseInput(commandsQuerySchema, req.query);
    const room = await ownRoom(ctx, roomId);
    const pollId = newId();
    await touch(roomId, { pollId }); // the heartbeat; and this poll supersedes any older one of the room
    const commands = await waitForCommands(roomId, pollId, holdMs(room), ctx.signal);
    return { status: 200, body: commands };
  },
});

/** Holds the poll until the room has pending commands, the hold ends, or the plugin goes away. */
async function waitForCommands(roomId: string, pollId: string, hold: number, signal: AbortSignal): Promise<CommandBatch> {
  const deadline = Date.now() + hold;
  while (!signal.aborted && Date.now() < deadline) {
    const arrived = await new Promise<boolean>((resolve) => {
      let done = false;
      const finish = (value: boolean) => {
        if (done) return;
        done = true;
        unsubscribe();
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      };
      const onAbort = () => finish(false);
      const timer = setTimeout(() => finish(false), Math.max(0, deadline - Date.now()));
      signal.addEventListener("abort", onAbort, { once: true });
      const unsubscribe = commandsOf(roomId)
        .where("state", "==", "pending")
        .onSnapshot(
          (snap) => {
            if (!snap.empty) finish(true);
          },
          () => finish(false),
        );
    });
    if (!arrived) break;
    const claimed = await claimPending(roomId, pollId);
    if (claimed.superseded) return { commands: [], superseded: true };
    if (claimed.commands.length) return { commands: claimed.commands };
    // Another poll took them between the snapshot and the claim: keep waiting.
  }
  return { commands: [] };
}

const resultsRoute = route({
  method: "POST",
  path: PLUGIN_ROUTES.results,
  description: "Figma plugin: a command's result (exported images are downscaled here)",
  access: plugin,
  body: { type: "json", maxBytes: MAX_RESULT_BODY_BYTES },
  input: resultSchema,
  async handle(req, ctx) {
    const input = req.input;
    await ownRoom(ctx, input.roomId);
    const answer: PluginAnswer = input.ok
      ? await fittedAnswer(input.result)
      : { ok: false, error: input.error ?? { message: "The plugin could not run this command" } };
    let json = JSON.stringify(answer);
    if (json.length > MAX_STORED_RESULT_CHARS) {
      json = JSON.stringify({
        ok: false,
        error: { code: "too_large", message: `The answer from Figma is ${Math.ceil(json.length / 1024)} KB, more than one result may carry: ask for less (a smaller limit, depth or node)` },
      });
    }
    const stored = await storeResult(input.roomId, input.commandId, json);
    if (!stored) throw notFound(`Command ${JSON.stringify(input.commandId)} (it was cancelled or timed out)`);
    return { status: 200, body: { ok: true } };
  },
});

const closeRoute = route({
  method: "POST",
  path: PLUGIN_ROUTES.close,
  description: "Figma plugin: the window closed; the session ends",
  access: plugin,
  input: closeSchema,
  async handle(req, ctx) {
    const { roomId } = req.input;
    await ownRoom(ctx, roomId);
    await deleteSession(roomId);
    return { status: 200, body: { ok: true } };
  },
});

export const pluginRoutes: HttpRoute[] = [registerRoute, heartbeatRoute, commandsRoute, resultsRoute, closeRoute];

/** A result with its exported image fitted for the model; an image too large to decode is the command's error. */
async function fittedAnswer(result: unknown): Promise<PluginAnswer> {
  try {
    return { ok: true, result: await fitExportForModel(result) };
  } catch (err) {
    if (err instanceof ToolError && err.kind === "too_large") return { ok: false, error: { code: "too_large", message: err.message } };
    throw err;
  }
}
