// The plugin's side of the relay: register a session for the open file, learn of commands, run
// them in order, post the answers. Two ways to learn of them: listening in Firestore as this device
// (listener.ts: nothing held at the function while idle; the keep-alive is a write of the session's
// lastSeenAt; each pending command is taken with a rule-checked claim), or, when the function offers no sign-in or
// listening cannot start, long-polling the function (each poll doubles as the heartbeat). Survives
// sleep and network loss: any failure leads to reconnecting with backoff, resuming the same room
// when it still exists. The plugin UI and the test harness run the same code.
import { DeviceFlowError, type AccessTokens } from "../../functions/src/contracts/device-flow.js";
import { DEFAULT_KEEPALIVE_SECONDS, PLUGIN_ROUTES, type CommandBatch, type CommandResult, type PluginAnswer, type PluginCommand, type SessionRegistered } from "../../functions/src/contracts/figma-plugin.js";
import type { CloseRequest, CommandsQuery, Heartbeat, RegisterSession, ResultRequest, SessionContext } from "../../functions/src/contracts/figma-plugin-requests.js";
import type { FirebaseSignIn } from "../../functions/src/contracts/oauth.js";
import { listen, type Listening } from "./listener.js";

/** How the window learns of commands: listening in Firestore, or long-polling the function (and why). */
export type RelayMode = { mode: "listening" } | { mode: "polling"; why: string };

export type BridgeState =
  | { status: "connecting" }
  | ({ status: "connected"; roomId: string } & RelayMode)
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
  /** "off": long-poll even when the function offers a Firestore sign-in. */
  listen?: "auto" | "off";
  /** Changes the sign-in before it is used (tests: a host that refuses, as a sandbox might). */
  adjustSignIn?(signIn: FirebaseSignIn): FirebaseSignIn;
}

/** A listening plugin also tells the function it is there once an hour (the session's expiry moves on). */
const EXPIRY_BEAT_MS = 3600_000;
/** A window that could not listen long-polls, and tries listening again this much later. */
const LISTEN_RETRY_MS = 15 * 60_000;

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
  private listening: Listening | undefined;
  private mode: RelayMode = { mode: "polling", why: "not connected yet" };
  /** Why listening could not start, and when: the window long-polls, and tries again after LISTEN_RETRY_MS. */
  private listenRefused: { why: string; at: number } | undefined;
  private listenBroken: Error | undefined;
  /** The latest pending commands the listener saw, claimed one at a time in this order. */
  private pending: PluginCommand[] = [];
  private claiming = false;
  /** Commands this window took, so a snapshot that still shows one does not run it twice. */
  private readonly taken = new Set<string>();

  constructor(private readonly opts: BridgeOptions) {
    this.keepalive = opts.keepaliveSeconds ?? DEFAULT_KEEPALIVE_SECONDS;
    this.roomId = opts.roomId;
  }

  get room(): string | undefined {
    return this.roomId;
  }

  get relayMode(): RelayMode {
    return this.mode;
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
    await this.stopListening();
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
          this.state({ status: "connected", roomId: this.roomId!, ...this.mode });
        }
        if (this.listening) {
          await this.waitListening();
        } else {
          const commands = await this.poll();
          for (const c of commands) this.enqueue(c);
          // Listening was refused a while ago: register again (same room) and try it once more.
          if (this.listenRefused && Date.now() - this.listenRefused.at >= LISTEN_RETRY_MS) this.registered = false;
        }
        failures = 0;
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
    await this.startListening(body.listen);
  }

  /** Listens in Firestore when the function offered a sign-in; otherwise (or when it fails) long-polls. */
  private async startListening(signIn: FirebaseSignIn | undefined): Promise<void> {
    await this.stopListening();
    if (this.opts.listen === "off") return void (this.mode = { mode: "polling", why: "listening is turned off" });
    if (!signIn) return void (this.mode = { mode: "polling", why: "the server offers no Firestore sign-in" });
    if (this.listenRefused && Date.now() - this.listenRefused.at < LISTEN_RETRY_MS) return void (this.mode = { mode: "polling", why: this.listenRefused.why });
    // Until the listener is up, the function hears from the window the old way.
    const beating = setInterval(() => void this.heartbeat(), this.keepalive * 1000);
    try {
      this.listenBroken = undefined;
      this.listening = await listen({
        signIn: this.opts.adjustSignIn ? this.opts.adjustSignIn(signIn) : signIn,
        roomId: this.roomId!,
        startTimeoutMs: 20_000,
        onPending: (commands) => this.claim(commands),
        onError: (err) => {
          this.listenBroken = err;
          this.wake.abort();
        },
      });
      this.mode = { mode: "listening" };
      this.listenRefused = undefined;
    } catch (err) {
      this.listenRefused = { why: `Firestore could not be reached (${describeError(err)})`, at: Date.now() };
      this.mode = { mode: "polling", why: this.listenRefused.why };
    } finally {
      clearInterval(beating);
    }
  }

  private async stopListening(): Promise<void> {
    const l = this.listening;
    this.listening = undefined;
    await l?.stop();
  }

  /**
   * Listening: nothing is held at the function. Every keep-alive the session's lastSeenAt is stamped
   * in Firestore; a stamp refused (the session is gone) or unanswered for two keep-alives (offline)
   * means reconnecting. Returns when kicked or when the listener broke (then the loop registers again).
   */
  private async waitListening(): Promise<void> {
    let expiryBeat = Date.now();
    while (this.running && this.listening && !this.wake.signal.aborted) {
      const listening = this.listening;
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([
          listening.beat(),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("Firestore stopped answering")), 2 * this.keepalive * 1000))),
        ]);
      } catch (err) {
        if ((err as { code?: unknown }).code === "permission-denied") throw new HttpError(404, "the session is gone");
        throw err;
      } finally {
        clearTimeout(timer);
      }
      if (Date.now() - expiryBeat > EXPIRY_BEAT_MS) {
        expiryBeat = Date.now();
        void this.heartbeat();
      }
      await sleep(this.keepalive * 1000, this.wake.signal);
    }
    if (this.listenBroken) throw new Error(`the Firestore listener stopped (${describeError(this.listenBroken)})`);
  }

  /**
   * Claims the pending commands oldest first, one at a time, and queues each one this window took
   * (a claim the rules refuse was taken already, or withdrawn). Commands arriving meanwhile are
   * claimed after them, so they run in the order they were filed.
   */
  private claim(commands: PluginCommand[]): void {
    this.pending = commands;
    if (this.claiming) return;
    this.claiming = true;
    void (async () => {
      try {
        for (let next = this.nextPending(); next && this.listening && this.running; next = this.nextPending()) {
          const took = await this.listening.claim(next.commandId);
          this.taken.add(next.commandId);
          if (this.taken.size > 1000) this.taken.delete(this.taken.values().next().value!);
          if (took) this.enqueue(next);
        }
      } catch {
        this.kick(); // offline, or the listener stopped: reconnect (a new listener claims what is still pending)
      } finally {
        this.claiming = false;
      }
    })();
  }

  private nextPending(): PluginCommand | undefined {
    return this.pending.find((c) => !this.taken.has(c.commandId));
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
