// A Figma plugin process for tests and the bench: the plugin's own relay client (bridge.ts),
// token source (pairing.ts) and command handlers (commands.ts) running against a model of the
// Figma document (fake-figma.ts) instead of Figma. Started with fork(); configured by env:
//   FIGMA_URL, OAUTH_TOKEN_URL, PLUGIN_CREDENTIAL (JSON {deviceId, refreshToken}), PLUGIN_ACCESS_TOKEN (optional first token)
//   FIGMA_USER_ID, FIGMA_USER_NAME, FIGMA_FILE_NAME, KEEPALIVE_SECONDS
//   DIE_ON_TOOL   the process kills itself (SIGKILL, no goodbye) when it receives this command
//   HANG_ON_TOOL  the command never finishes (the plugin stays alive and keeps its heartbeat)
//   FIGMA_EDITOR_TYPE  "figjam" for a FigJam board (default: a design file)
//   PLUGIN_FIXTURES  extra pages (fixtures.ts: "design", "large"); FIGMA_PAGE  the page open at start
// Reports {type: "state", state} and {type: "command", tool} to the parent; answers {type: "dump"}
// and {type: "net"} (its requests to the function as [start, end] ms).
import { Bridge } from "../../figma-plugin/src/bridge.js";
import { runCommand } from "../../figma-plugin/src/commands.js";
import { PLUGIN_CLIENT } from "../../figma-plugin/src/pairing.js";
import { AccessTokens } from "../../functions/src/contracts/device-flow.js";
import { createFakeFigma, snapshot } from "./fake-figma.js";
import { addDesignPage, addLargePage } from "./fixtures.js";

const env = (name: string, fallback?: string): string => {
  const v = process.env[name] ?? fallback;
  if (v === undefined) throw new Error(`${name} is required`);
  return v;
};

const fake = createFakeFigma({
  fileName: env("FIGMA_FILE_NAME", "Landing page"),
  fileKey: process.env.FIGMA_FILE_KEY,
  user: { id: env("FIGMA_USER_ID", "1001"), name: env("FIGMA_USER_NAME", "Ada") },
  editorType: process.env.FIGMA_EDITOR_TYPE === "figjam" ? "figjam" : "figma",
});
const { api } = fake;
const fixtures = (process.env.PLUGIN_FIXTURES ?? "").split(",").filter(Boolean);
if (fixtures.includes("design")) addDesignPage(fake);
if (fixtures.includes("large")) addLargePage(fake);
// Which page is open in Figma (by name), e.g. the design page.
const openPage = process.env.FIGMA_PAGE ? api.root.children.find((p: { name: string }) => p.name === process.env.FIGMA_PAGE) : undefined;
if (openPage) (api as { currentPage: unknown }).currentPage = openPage;
(globalThis as unknown as { figma: unknown }).figma = api;

const credential = JSON.parse(env("PLUGIN_CREDENTIAL")) as { deviceId: string; refreshToken: string };
const first = process.env.PLUGIN_ACCESS_TOKEN;
const tokens = new AccessTokens(env("OAUTH_TOKEN_URL"), PLUGIN_CLIENT, credential.refreshToken, first ? { accessToken: first, expiresAt: Date.now() + 10 * 60_000 } : undefined);
const dieOn = process.env.DIE_ON_TOOL;
const hangOn = process.env.HANG_ON_TOOL;
const send = (msg: unknown) => process.send?.(msg);

// Every request the plugin makes to the function, as [start, end, path] (ms; the bench sums the time
// a request is held at the function: what an open, idle plugin costs in instance time).
const held: [number, number, string][] = [];
const realFetch = globalThis.fetch;
globalThis.fetch = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
  if (!url.startsWith(env("FIGMA_URL"))) return realFetch(input, init);
  const span: [number, number, string] = [Date.now(), Number.NaN, new URL(url).pathname.slice(new URL(env("FIGMA_URL")).pathname.length)];
  held.push(span);
  try {
    const res = await realFetch(input, init);
    // A poll is held until its body arrives.
    const body = await res.arrayBuffer();
    span[1] = Date.now();
    return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
  } catch (err) {
    span[1] = Date.now();
    throw err;
  }
};

const bridge = new Bridge({
  functionUrl: env("FIGMA_URL"),
  tokens,
  keepaliveSeconds: Number(env("KEEPALIVE_SECONDS", "4")),
  roomId: process.env.RESUME_ROOM_ID,
  listen: process.env.PLUGIN_LISTEN === "off" ? "off" : "auto",
  // As a sandbox refusing Firebase's hosts would: the sign-in goes to a port where nothing answers.
  ...(process.env.REFUSE_LISTENING ? { adjustSignIn: (s) => ({ ...s, firebase: { ...s.firebase, authEmulatorHost: "127.0.0.1:9" } }) } : {}),
  context: () => ({
    figmaUserId: api.currentUser.id,
    figmaUserName: api.currentUser.name,
    fileKey: api.fileKey ?? "",
    fileName: api.root.name,
    pageId: api.currentPage.id,
    pageName: api.currentPage.name,
  }),
  async execute(command) {
    send({ type: "command", tool: command.tool, commandId: command.commandId });
    if (command.tool === dieOn) process.kill(process.pid, "SIGKILL");
    if (command.tool === hangOn) return new Promise(() => undefined);
    return runCommand(command.tool, command.args);
  },
  onState: (state) => { if (process.env.PLUGIN_DEBUG) console.error("[plugin]", JSON.stringify(state)); send({ type: "state", state }); },
});

process.on("message", async (msg: { type: string }) => {
  if (msg.type === "dump") send({ type: "dump", document: { ...(snapshot(api.root) as object), undoSteps: fake.undoSteps() } });
  if (msg.type === "kick") bridge.kick();
  if (msg.type === "net") send({ type: "net", requests: held.map(([a, b, path]) => [a, Number.isNaN(b) ? -1 : b, path]) }); // -1: still in flight
  if (msg.type === "close") {
    await bridge.stop(true);
    send({ type: "closed" });
    process.exit(0);
  }
});
process.on("disconnect", () => process.exit(0));
bridge.start();
