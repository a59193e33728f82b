// Starting and steering plugin processes (plugin-process.ts) from a test or the bench.
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { functionUrl } from "../support/emulators.js";

export interface PluginOptions {
  credential: { deviceId: string; refreshToken: string };
  accessToken?: string;
  tokenUrl: string;
  figmaUserId?: string;
  figmaUserName?: string;
  fileName?: string;
  /** What figma.fileKey gives (Figma gives it only to some plugins; unset by default). */
  fileKey?: string;
  /** "figjam": the file is a FigJam board (fake-figma.ts's board). */
  editorType?: "figma" | "figjam";
  keepaliveSeconds?: number;
  dieOnTool?: string;
  hangOnTool?: string;
  resumeRoomId?: string;
  /** Extra pages of fixtures.ts ("design", "large") and the page open at start. */
  fixtures?: ("design" | "large")[];
  /** "off": the plugin long-polls even though the function offers listening in Firestore. */
  listen?: "auto" | "off";
  /** The Firebase sign-in fails (as if the sandbox refused its hosts): the plugin must fall back to the long-poll. */
  refuseListening?: boolean;
  page?: string;
}

type Message = { type: string; [key: string]: unknown };

export interface PluginProcess {
  child: ChildProcess;
  roomId: string;
  messages: Message[];
  /** Resolves with the first message (seen so far or later) that matches. */
  next(match: (m: Message) => boolean, timeoutMs?: number): Promise<Message>;
  dump(): Promise<unknown>;
  /** Closes the window: the plugin says goodbye and the session ends at once. */
  close(): Promise<void>;
  /** Kills the process without a goodbye (Figma crashed, network gone). */
  kill(): Promise<void>;
}

const script = fileURLToPath(new URL("./plugin-process.ts", import.meta.url));

export async function startPlugin(opts: PluginOptions): Promise<PluginProcess> {
  const child = fork(script, [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: {
      ...process.env,
      FIGMA_URL: functionUrl("figma"),
      OAUTH_TOKEN_URL: opts.tokenUrl,
      PLUGIN_CREDENTIAL: JSON.stringify(opts.credential),
      ...(opts.accessToken ? { PLUGIN_ACCESS_TOKEN: opts.accessToken } : {}),
      FIGMA_USER_ID: opts.figmaUserId ?? "1001",
      FIGMA_USER_NAME: opts.figmaUserName ?? "Ada",
      FIGMA_FILE_NAME: opts.fileName ?? "Landing page",
      ...(opts.fileKey ? { FIGMA_FILE_KEY: opts.fileKey } : {}),
      ...(opts.editorType ? { FIGMA_EDITOR_TYPE: opts.editorType } : {}),
      KEEPALIVE_SECONDS: String(opts.keepaliveSeconds ?? 4),
      ...(opts.dieOnTool ? { DIE_ON_TOOL: opts.dieOnTool } : {}),
      ...(opts.hangOnTool ? { HANG_ON_TOOL: opts.hangOnTool } : {}),
      ...(opts.resumeRoomId ? { RESUME_ROOM_ID: opts.resumeRoomId } : {}),
      ...(opts.fixtures ? { PLUGIN_FIXTURES: opts.fixtures.join(",") } : {}),
      ...(opts.page ? { FIGMA_PAGE: opts.page } : {}),
      ...(opts.listen === "off" ? { PLUGIN_LISTEN: "off" } : {}),
      ...(opts.refuseListening ? { REFUSE_LISTENING: "1" } : {}),
    },
  });
  const messages: Message[] = [];
  const waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  child.on("message", (m: Message) => {
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.match(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const next = (match: (m: Message) => boolean, timeoutMs = 30_000) => {
    const seen = messages.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise<Message>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`plugin process: no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages.slice(-5))}`)), timeoutMs);
      waiters.push({ match, resolve: (m) => (clearTimeout(timer), resolve(m)) });
      void exited.then(() => {
        if (!messages.find(match)) {
          clearTimeout(timer);
          reject(new Error(`plugin process exited; last messages ${JSON.stringify(messages.slice(-5))}`));
        }
      });
    });
  };
  const connected = await next((m) => m.type === "state" && (m.state as { status: string }).status === "connected");
  const roomId = (connected.state as { roomId: string }).roomId;
  return {
    child,
    roomId,
    messages,
    next,
    async dump() {
      const before = messages.length;
      child.send({ type: "dump" });
      const m = await next((x) => x.type === "dump" && messages.indexOf(x) >= before);
      return m.document;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ type: "close" });
      await exited;
    },
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}
