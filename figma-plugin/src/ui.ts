// The plugin window: pairs with the user's account (device code), then runs the relay (bridge.ts)
// and shows its state, the room id and how it learns of commands (listening or polling). Commands go to the main thread (code.ts) and back.
import { AccessTokens, awaitConfirmation, discoverEndpoints, requestDeviceCode, type AccessToken, type Endpoints } from "../../functions/src/contracts/device-flow.js";
import type { PluginAnswer, PluginCommand } from "../../functions/src/contracts/figma-plugin.js";
import type { SessionContext } from "../../functions/src/contracts/figma-plugin-requests.js";
import { Bridge, type BridgeState } from "./bridge.js";
import { PLUGIN_CLIENT, type Credential } from "./pairing.js";

declare const FUNCTION_URL: string; // set by build.mjs
declare const OAUTH_URL: string;

const CREDENTIAL_KEY = "mcp-bridge-credential";
const roomKey = (fileKey: string, fileName: string) => `mcp-bridge-room:${fileKey || fileName}`;

const $ = (id: string) => document.getElementById(id)!;
const show = (id: string) => {
  for (const v of ["view-pair", "view-code", "view-connected"]) $(v).hidden = v !== id;
};
const status = (text: string, kind: "ok" | "wait" | "error") => {
  $("status").textContent = text;
  $("status").className = `status ${kind}`;
};

// --- messages to and from code.ts -----------------------------------------------------------
let context: SessionContext | undefined;
let contextReady: (c: SessionContext) => void;
const firstContext = new Promise<SessionContext>((r) => (contextReady = r));
const answers = new Map<string, (a: PluginAnswer) => void>();
const storageReplies = new Map<number, (v: unknown) => void>();
let nextRequest = 1;

const toCode = (msg: unknown) => parent.postMessage({ pluginMessage: msg }, "*");

window.onmessage = (event: MessageEvent) => {
  const msg = event.data?.pluginMessage;
  if (!msg) return;
  if (msg.type === "context") {
    const changed = context && (context.pageId !== msg.context.pageId || context.fileName !== msg.context.fileName);
    context = msg.context;
    contextReady(msg.context);
    if (changed) bridge?.contextChanged();
  } else if (msg.type === "answer") {
    answers.get(msg.commandId)?.(msg.answer);
    answers.delete(msg.commandId);
  } else if (msg.type === "storage") {
    storageReplies.get(msg.requestId)?.(msg.value);
    storageReplies.delete(msg.requestId);
  }
};

function storage(type: "storage-get" | "storage-set" | "storage-delete", key: string, value?: unknown): Promise<unknown> {
  const requestId = nextRequest++;
  return new Promise((resolve) => {
    storageReplies.set(requestId, resolve);
    toCode({ type, requestId, key, value });
  });
}

const execute = (command: PluginCommand) =>
  new Promise<PluginAnswer>((resolve) => {
    answers.set(command.commandId, resolve);
    toCode({ type: "command", command });
  });

// --- pairing and connection -----------------------------------------------------------------
let bridge: Bridge | undefined;
let endpoints: Endpoints | undefined;
let pairing: AbortController | undefined;

async function connect(credential: Credential, initial?: AccessToken): Promise<void> {
  const ctx = await firstContext;
  show("view-connected");
  const savedRoom = (await storage("storage-get", roomKey(ctx.fileKey, ctx.fileName))) as string | null;
  bridge = new Bridge({
    functionUrl: FUNCTION_URL,
    // The credential rotates; the plugin open in another file shares it through clientStorage.
    tokens: new AccessTokens(endpoints!.token, PLUGIN_CLIENT, credential.refreshToken, initial, {
      load: async () => ((await storage("storage-get", CREDENTIAL_KEY)) as Credential | null)?.refreshToken,
      save: async (rotated) => {
        credential.refreshToken = rotated;
        await storage("storage-set", CREDENTIAL_KEY, credential);
      },
    }),
    context: () => context!,
    execute,
    roomId: savedRoom ?? undefined,
    onState: (s) => void onState(s, ctx),
  });
  bridge.start();
}

async function onState(s: BridgeState, ctx: SessionContext): Promise<void> {
  if (s.status === "connected") {
    status("Connected", "ok");
    $("room").textContent = s.roomId;
    $("mode").textContent = s.mode === "listening" ? "Listening in Firestore: nothing is kept open on the server while idle." : `Polling the server (${s.why}).`;
    await storage("storage-set", roomKey(ctx.fileKey, ctx.fileName), s.roomId);
  } else if (s.status === "connecting") status("Connecting…", "wait");
  else if (s.status === "reconnecting") status(`Offline — retrying in ${s.retryInSeconds} s (${s.reason})`, "wait");
  else if (s.status === "revoked") {
    await storage("storage-delete", CREDENTIAL_KEY);
    bridge = undefined;
    show("view-pair");
    $("pair-error").textContent = s.reason;
  }
}

async function pair(): Promise<void> {
  $("pair-error").textContent = "";
  pairing?.abort();
  pairing = new AbortController();
  try {
    const ctx = await firstContext;
    const code = await requestDeviceCode(endpoints!, PLUGIN_CLIENT, `Figma — ${ctx.figmaUserName || "plugin"}`);
    $("user-code").textContent = code.userCode;
    const link = $("verify-link") as HTMLAnchorElement;
    link.href = code.verificationUriComplete;
    link.textContent = code.verificationUri;
    show("view-code");
    const paired = await awaitConfirmation(endpoints!, PLUGIN_CLIENT, code, { signal: pairing.signal });
    const credential: Credential = { deviceId: paired.deviceId, refreshToken: paired.refreshToken };
    await storage("storage-set", CREDENTIAL_KEY, credential);
    await connect(credential, paired);
  } catch (err) {
    show("view-pair");
    $("pair-error").textContent = err instanceof Error ? err.message : String(err);
  }
}

async function unpair(): Promise<void> {
  await bridge?.stop();
  bridge = undefined;
  await storage("storage-delete", CREDENTIAL_KEY);
  $("room").textContent = "—";
  show("view-pair");
}

async function main(): Promise<void> {
  toCode({ type: "ready" });
  $("pair").onclick = () => void pair();
  $("cancel").onclick = () => (pairing?.abort(), show("view-pair"));
  $("unpair").onclick = () => void unpair();
  $("verify-link").onclick = (e) => {
    e.preventDefault();
    toCode({ type: "open-url", url: ($("verify-link") as HTMLAnchorElement).href });
  };
  $("copy-room").onclick = () => void navigator.clipboard?.writeText($("room").textContent ?? "").catch(() => undefined);
  // Back online or back from sleep: reconnect now instead of waiting for the backoff.
  window.addEventListener("online", () => bridge?.kick());
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && bridge?.kick());
  // The window is closing: end the session now rather than after missed heartbeats.
  window.addEventListener("pagehide", () => void bridge?.stop());

  endpoints = await discoverEndpoints(FUNCTION_URL, { fallbackIssuer: OAUTH_URL });
  const saved = (await storage("storage-get", CREDENTIAL_KEY)) as Credential | null;
  if (saved?.refreshToken) await connect(saved);
  else show("view-pair");
}

void main();
