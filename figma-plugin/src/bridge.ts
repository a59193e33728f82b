// The plugin's side of the relay: register a session for the open file, long-poll the figma
// function for commands (each poll doubles as the session's heartbeat), run them in order, post
// the answers. Survives sleep and network
// loss: any failure leads to reconnecting with backoff, resuming the same room when it still exists.
// Only `fetch` and timers are used, so the plugin UI and the test harness run the same code.
import { DeviceFlowError, type AccessTokens } from "../../functions/src/contracts/device-flow.js";
import { DEFAULT_KEEPALIVE_SECONDS, PLUGIN_ROUTES, type CommandBatch, type CommandResult, type PluginAnswer, type PluginCommand, type SessionRegistered } from "../../functions/src/contracts/figma-plugin.js";
import type { CloseRequest, CommandsQuery, Heartbeat, RegisterSession, ResultRequest, SessionContext } from "../../functions/src/contracts/figma-plugin-requests.js";

export type BridgeState =
  | { status: "connecting" }
  | { status: "connected"; roomId: string }
  | { status: "reconnecting"; reason: string; retryInSeconds: number }
  | { status: "revoked"; reason: string }
  | { status: "stopped" };

export interface BridgeOptions {
  /** The figma function's URL (MCP root), e.g. https://…/figma */
  functionUrl: string;
  tokens: AccessTokens;
  context(): SessionContext;
  execute(command: PluginCommand): Promise<PluginAnswer>;
  onState?(state: BridgeState): void;
  /** Keep-alive asked of the server (the server may lower it): polls come at least this often; missing 2 ends the session. */
  keepaliveSeconds?: number;
  /** A room this window had before (kept across reloads). */
  roomId?: string;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** "fetch failed" says little: the cause (connection refused, DNS…) says what to fix. */
function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as Error & { cause?: unknown }).cause;
  return cause instanceof Error && cause.message ? `${err.message}: ${cause.message}` : err.message;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });

export class Bridge {
  private running = false;
  private roomId: string | undefined;
  private keepalive: number;
  /** Aborted to stop, or to cut a wait short (kick) and reconnect now. */
  private wake = new AbortController();
  /** How long the server holds a poll; a poll that takes much longer hangs on a dead connection. */
  private pollSeconds = 25;
  private queue: Promise<void> = Promise.resolve();
  private registered = false;

  constructor(private readonly opts: BridgeOptions) {
    this.keepalive = opts.keepaliveSeconds ?? DEFAULT_KEEPALIVE_SECONDS;
    this.roomId = opts.roomId;
  }

  get room(): string | undefined {
    return this.roomId;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    void this.loop();
  }

  /** Stops polling; with `close`, tells the server the window is gone (the session disappears at once). */
  async stop(close = true): Promise<void> {
    this.running = false;
    this.wake.abort();
    if (close && this.roomId && this.registered) await this.post(PLUGIN_ROUTES.close, { roomId: this.roomId } satisfies CloseRequest).catch(() => undefined);
    this.state({ status: "stopped" });
  }

  /** Network back, computer awake, page changed: stop waiting and (re)connect now. */
  kick(): void {
    this.wake.abort();
  }

  /** The page or file name changed: tell the server now (list_sessions shows the page). */
  contextChanged(): void {
    if (this.registered) void this.heartbeat();
  }

  private state(s: BridgeState): void {
    this.opts.onState?.(s);
  }

  private async loop(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        if (!this.registered) {
          this.state({ status: "connecting" });
          await this.register();
          failures = 0;
          this.state({ status: "connected", roomId: this.roomId! });
        }
        const commands = await this.poll();
        failures = 0;
        for (const c of commands) this.enqueue(c);
      } catch (err) {
        if (!this.running) break;
        if (err instanceof DeviceFlowError && err.revoked) {
          this.running = false;
          this.state({ status: "revoked", reason: err.message });
          break;
        }
        if (err instanceof HttpError && err.status === 404) {
          // The session was cleaned up (e.g. the computer slept): register again right away.
          this.registered = false;
          continue;
        }
        failures++;
        const delay = Math.min(15, 2 ** Math.min(failures - 1, 4));
        this.registered = false;
        this.state({ status: "reconnecting", reason: describeError(err), retryInSeconds: delay });
        this.wake = new AbortController();
        await sleep(delay * 1000, this.wake.signal);
      }
      if (this.wake.signal.aborted && this.running) {
        this.wake = new AbortController();
        this.registered = false;
      }
    }
  }

  private enqueue(c: PluginCommand): void {
    // Figma runs one thing at a time anyway; order is the order the agent sent them in.
    this.queue = this.queue.then(async () => {
      const answer = await this.opts.execute(c);
      const result: CommandResult = { roomId: this.roomId!, commandId: c.commandId, ...answer };
      await this.post(PLUGIN_ROUTES.results, result satisfies ResultRequest).catch(() => undefined);
    });
  }

  private async register(): Promise<void> {
    const session: RegisterSession = { ...this.opts.context(), ...(this.roomId ? { roomId: this.roomId } : {}), keepaliveSeconds: this.keepalive };
    const body = (await this.post(PLUGIN_ROUTES.sessions, session)) as SessionRegistered;
    this.roomId = body.roomId;
    this.keepalive = body.keepaliveSeconds;
    this.pollSeconds = body.pollSeconds;
    this.registered = true;
  }

  private async heartbeat(): Promise<void> {
    if (!this.registered || !this.roomId) return;
    const { fileName, pageId, pageName } = this.opts.context();
    try {
      const beat: Heartbeat = { roomId: this.roomId, fileName, pageId, pageName };
      await this.post(PLUGIN_ROUTES.heartbeat, beat);
    } catch (err) {
      if (err instanceof HttpError && err.status === 404) this.kick();
    }
  }

  /**
   * One long-poll. Each poll also tells the server the window is alive (the server holds it at
   * most one keep-alive interval, so polls come at least that often). A poll that outlives the
   * hold by far is stuck on a connection that died (sleep, network change): give up and reconnect.
   */
  private async poll(): Promise<PluginCommand[]> {
    const ctl = new AbortController();
    const kicked = () => ctl.abort();
    this.wake.signal.addEventListener("abort", kicked, { once: true });
    let stuck = false;
    const watchdog = setTimeout(() => ((stuck = true), ctl.abort()), (this.pollSeconds + 60) * 1000);
    try {
      const body = (await this.request("GET", `${PLUGIN_ROUTES.commands}?${new URLSearchParams({ room: this.roomId! } satisfies CommandsQuery)}`, undefined, ctl.signal)) as CommandBatch;
      return body.commands ?? [];
    } catch (err) {
      if (stuck) throw new Error("the connection stopped answering");
      if (ctl.signal.aborted) return [];
      throw err;
    } finally {
      clearTimeout(watchdog);
      this.wake.signal.removeEventListener("abort", kicked);
    }
  }

  private post(path: string, body: unknown): Promise<unknown> {
    return this.request("POST", path, body);
  }

  private async request(method: "GET" | "POST", path: string, body: unknown, signal?: AbortSignal, retried = false): Promise<unknown> {
    const token = await this.opts.tokens.get();
    const res = await fetch(`${this.opts.functionUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      ...(signal ? { signal } : {}),
    });
    if (res.status === 401 && !retried) {
      this.opts.tokens.invalidate();
      return this.request(method, path, body, signal, true);
    }
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      parsed = { error: text.slice(0, 200) };
    }
    if (!res.ok) throw new HttpError(res.status, String((parsed as { error?: unknown }).error ?? `HTTP ${res.status}`));
    return parsed;
  }
}
