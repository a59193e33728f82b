// `fotos-agent run`: registers this computer with the fotos function, keeps a heartbeat, listens
// to the capture requests addressed to it (Firestore listener, client SDK, signed in with the
// device's own token: the rules let it read only its own requests), and answers each one once:
// claim (a transaction on the server: a request seen twice is captured once), wait delay_ms,
// capture, upload, or report why not. It captures nothing it was not asked for.
import { randomUUID } from "node:crypto";
import { watchFile, unwatchFile } from "node:fs";
import { initializeApp, deleteApp, type FirebaseApp } from "firebase/app";
import { connectAuthEmulator, getAuth, signInWithCustomToken } from "firebase/auth";
import { collection, connectFirestoreEmulator, initializeFirestore, onSnapshot, orderBy, query, terminate, where, type Firestore, type QueryDocumentSnapshot } from "firebase/firestore";
import { backoff, FotosApi, RefusedError, RevokedError, sleep } from "./api.js";
import { loadState, saveState, statePath, type Credentials } from "./config.js";
import { captureFullscreen, captureMonitor, captureWindow, CaptureError, hasDisplay, listMonitors, NO_DISPLAY, type Monitor } from "./screens.js";
import { AGENT_VERSION } from "./version.js";
import { safeDeviceName } from "../../functions/src/contracts/device-flow.js";
import { AGENT_ROUTES, DEFAULT_HEARTBEAT_MS, redactionParam, type AgentReport, type ClaimedCapture, type UploadQuery } from "../../functions/src/contracts/fotos-agent.js";
import { redactionInfo, redactScreenshot, summarize, TesseractOcr } from "../../functions/src/domains/fotos/published.js";

export interface AgentOptions {
  creds: Credentials;
  /** Where `creds` were loaded from: the rotated device credential is saved there. */
  credentialsFile?: string;
  heartbeatMs?: number;
  log?: (line: string) => void;
  /** Status changes, for the tray. */
  onStatus?: (status: AgentStatus) => void;
}

export interface AgentStatus {
  connected: boolean;
  paused: boolean;
  display: boolean;
  lastCapture?: string;
  detail: string;
}

export class Agent {
  readonly sessionId = randomUUID();
  private readonly api: FotosApi;
  private readonly heartbeatMs: number;
  private readonly log: (line: string) => void;
  private display = false;
  private monitors: Monitor[] = [];
  private paused = loadState().paused;
  private stopped = false;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private firebase: FirebaseApp | undefined;
  private db: Firestore | undefined;
  private unsubscribe: (() => void) | undefined;
  /** Requests this run has taken on (or refused to), so a re-delivered snapshot is not claimed twice. */
  private readonly seen = new Set<string>();
  /** OCR for redaction before upload, started on the first such request (its worker idles out). */
  private ocr: TesseractOcr | undefined;
  private status: AgentStatus = { connected: false, paused: this.paused, display: false, detail: "starting" };

  constructor(private readonly opts: AgentOptions) {
    this.api = new FotosApi(opts.creds, opts.credentialsFile);
    this.heartbeatMs = opts.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
    this.log = opts.log ?? ((line) => process.stdout.write(`${new Date().toISOString()} ${line}\n`));
  }

  /** The device's name as the server keeps it (also for credentials saved before pairing held names to that rule). */
  get name(): string {
    return safeDeviceName(this.opts.creds.deviceName, "Fotos agent");
  }

  private setStatus(patch: Partial<AgentStatus>): void {
    this.status = { ...this.status, ...patch, paused: this.paused, display: this.display };
    this.opts.onStatus?.(this.status);
  }

  private report(): AgentReport {
    return {
      sessionId: this.sessionId,
      version: AGENT_VERSION,
      platform: `${process.platform}-${process.arch}`,
      display: this.display,
      monitors: this.monitors.map(({ screen: _screen, ...m }) => m),
      paused: this.paused,
      heartbeatMs: this.heartbeatMs,
    };
  }

  async start(): Promise<void> {
    this.display = await hasDisplay();
    this.monitors = this.display ? await listMonitors().catch(() => []) : [];
    this.log(
      this.display
        ? `display found: ${this.monitors.map((m) => `${m.index}: ${m.width}×${m.height} at ${m.x},${m.y}`).join("; ") || "monitors unknown"}`
        : "no display: capture requests will be answered with the no-display error",
    );
    // Register until it works: the server may be restarting.
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await this.api.call(AGENT_ROUTES.register, this.report());
        break;
      } catch (err) {
        if (err instanceof RevokedError) throw err;
        const wait = backoff(attempt);
        this.setStatus({ connected: false, detail: `cannot reach the server (${(err as Error).message})` });
        this.log(`register failed (${(err as Error).message}); retrying in ${Math.round(wait)} ms`);
        await sleep(wait);
      }
    }
    this.log(`online as "${this.name}" (device ${this.opts.creds.deviceId}), session ${this.sessionId}`);
    this.setStatus({ connected: true, detail: this.paused ? "captures paused" : "waiting for capture requests" });
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.heartbeatMs);
    watchFile(statePath(), { interval: 1000 }, () => this.setPaused(loadState().paused, false));
    await this.listen();
  }

  private beating = false;

  private async heartbeat(): Promise<void> {
    // One beat at a time: a slow server must not pile up calls.
    if (this.beating) return;
    this.beating = true;
    try {
      await this.beat();
    } finally {
      this.beating = false;
    }
  }

  private async beat(): Promise<void> {
    // Monitors change (a laptop docks): re-read them with every beat, so a capture need not.
    if (this.display) this.monitors = await listMonitors().catch(() => this.monitors);
    try {
      await this.api.call(AGENT_ROUTES.heartbeat, this.report());
      if (!this.status.connected) this.setStatus({ connected: true, detail: "reconnected" });
    } catch (err) {
      if (err instanceof RevokedError) return void this.fatal(err);
      this.setStatus({ connected: false, detail: `heartbeat failed: ${(err as Error).message}` });
    }
  }

  /** Pause or resume captures (tray menu, `fotos-agent pause|resume`, or this API). */
  setPaused(paused: boolean, persist = true): void {
    if (paused === this.paused) return;
    this.paused = paused;
    if (persist) saveState({ paused });
    this.log(paused ? "captures paused" : "captures resumed");
    this.setStatus({ detail: paused ? "captures paused" : "waiting for capture requests" });
    void this.heartbeat();
  }

  // The Firestore listener, signed in as this device. It is rebuilt (fresh sign-in, backoff) when
  // it fails: an expired sign-in, a restarted emulator, a revoked-then-repaired device.
  private async listen(): Promise<void> {
    for (let attempt = 0; !this.stopped; attempt++) {
      try {
        await this.subscribe();
        return;
      } catch (err) {
        if (err instanceof RevokedError) throw err;
        const wait = backoff(attempt);
        this.log(`listener could not start (${(err as Error).message}); retrying in ${Math.round(wait)} ms`);
        await sleep(wait);
      }
    }
  }

  private async subscribe(): Promise<void> {
    await this.closeFirestore();
    const fb = this.opts.creds.firebase;
    if (!fb) throw new Error("the pairing carried no Firebase settings: pair again");
    const app = initializeApp({ projectId: fb.projectId, apiKey: fb.apiKey }, `fotos-agent-${randomUUID()}`);
    this.firebase = app;
    const auth = getAuth(app);
    if (fb.authEmulatorHost) connectAuthEmulator(auth, `http://${fb.authEmulatorHost}`, { disableWarnings: true });
    await signInWithCustomToken(auth, await this.api.firebaseCustomToken());
    const db = initializeFirestore(app, {});
    if (fb.firestoreEmulatorHost) {
      const [host, port] = fb.firestoreEmulatorHost.split(":");
      connectFirestoreEmulator(db, host!, Number(port));
    }
    this.db = db;
    const { deviceId } = this.opts.creds;
    const owner = await this.ownerUid(auth);
    const q = query(
      collection(db, "fotosCaptureRequests"),
      where("device", "==", deviceId),
      where("owner", "==", owner),
      where("status", "==", "pending"),
      orderBy("createdAt"),
    );
    this.unsubscribe = onSnapshot(
      q,
      { includeMetadataChanges: false },
      (snap) => {
        // A listener the rules deny fires once from the local cache first: only server data counts.
        if (snap.metadata.fromCache) return;
        for (const doc of snap.docs) this.consider(doc);
      },
      (err) => {
        this.log(`listener stopped (${err.code ?? err.message}); reconnecting`);
        this.setStatus({ connected: false, detail: "reconnecting" });
        if (!this.stopped) void sleep(backoff(0)).then(() => this.listen()).catch((e: Error) => this.fatal(e));
      },
    );
  }

  private async ownerUid(auth: ReturnType<typeof getAuth>): Promise<string> {
    const result = await auth.currentUser!.getIdTokenResult();
    const owner = result.claims.owner;
    if (typeof owner !== "string") throw new Error("the device token has no owner claim");
    return owner;
  }

  private consider(doc: QueryDocumentSnapshot): void {
    if (this.seen.has(doc.id)) return;
    this.seen.add(doc.id);
    const expiresAt = doc.get("expiresAt")?.toMillis?.() ?? 0;
    if (expiresAt && expiresAt <= Date.now()) return; // asked long ago, while this agent was away: not captured
    void this.handle(doc.id);
  }

  private async handle(requestId: string): Promise<void> {
    let claimed: ClaimedCapture;
    try {
      claimed = await this.api.callRetrying(AGENT_ROUTES.claim, { requestId, sessionId: this.sessionId }, { until: Date.now() + 30_000, log: this.log });
    } catch (err) {
      if (!(err instanceof RefusedError)) this.log(`could not claim ${requestId}: ${(err as Error).message}`);
      return; // claimed elsewhere, expired or cancelled: nothing to do
    }
    const until = Date.parse(claimed.expiresAt) + 30_000;
    const started = Date.now();
    this.log(`capture ${requestId}: ${claimed.mode}${claimed.windowTitle ? ` "${claimed.windowTitle}"` : ""}${claimed.monitorIndex !== undefined ? ` #${claimed.monitorIndex}` : ""}${claimed.delayMs ? ` after ${claimed.delayMs} ms` : ""}`);
    let png: Buffer;
    try {
      if (this.paused) throw new CaptureError(`Captures are paused on "${this.name}": resume them in the Fotos agent (tray menu, or \`fotos-agent resume\`) and try again`);
      if (!this.display) throw new CaptureError(NO_DISPLAY);
      if (claimed.delayMs > 0) await sleep(claimed.delayMs);
      png =
        claimed.mode === "window"
          ? await captureWindow(claimed.windowTitle ?? "")
          : claimed.mode === "monitor"
            ? await captureMonitor(claimed.monitorIndex ?? 0, this.monitors)
            : await captureFullscreen(this.monitors);
    } catch (err) {
      const message = err instanceof CaptureError ? err.message : `The capture failed on "${this.name}": ${(err as Error).message}`;
      this.log(`capture ${requestId} failed: ${message}`);
      await this.api.callRetrying(AGENT_ROUTES.fail, { requestId, error: message }, { until, log: this.log }).catch((e) => this.log(`could not report the failure: ${(e as Error).message}`));
      return;
    }
    const captureMs = Date.now() - started - claimed.delayMs;
    const query: UploadQuery = { request: requestId };
    if (claimed.redact) {
      // The same OCR, detection and redaction as the function's (functions/src, bundled): the
      // unredacted image never leaves this computer. If it cannot be redacted, nothing is uploaded.
      try {
        const t = Date.now();
        const out = await redactScreenshot((this.ocr ??= new TesseractOcr()), png, { region: claimed.redact.region });
        png = out.png;
        const { detections, recheck } = redactionInfo("device", out);
        query.redaction = redactionParam({ detections, recheck });
        this.log(`capture ${requestId} redacted on this computer in ${Date.now() - t} ms: ${detections.length ? summarize(detections) : "nothing found"}, re-check ${recheck}`);
      } catch (err) {
        const message = `The capture could not be redacted on "${this.name}" (${(err as Error).message}), so nothing was uploaded`;
        this.log(`capture ${requestId} failed: ${message}`);
        await this.api.callRetrying(AGENT_ROUTES.fail, { requestId, error: message }, { until, log: this.log }).catch((e) => this.log(`could not report the failure: ${(e as Error).message}`));
        return;
      }
    }
    try {
      // Retried until it is answered: the function stores one screenshot per capture request however often it arrives.
      const res = await this.api.callRetrying(AGENT_ROUTES.upload, undefined, { binary: png, query, until, log: this.log, idempotencyKey: `capture-${requestId}` });
      this.log(`capture ${requestId} uploaded as ${res.screenshotId} (${png.length} bytes, captured in ${captureMs} ms)`);
      this.setStatus({ lastCapture: new Date().toISOString() });
    } catch (err) {
      this.log(`upload of ${requestId} failed: ${(err as Error).message}`);
    }
  }

  private fatal(err: Error): void {
    this.log(err.message);
    void this.stop().then(() => process.exit(2));
  }

  private async closeFirestore(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.db) await terminate(this.db).catch(() => undefined);
    if (this.firebase) await deleteApp(this.firebase).catch(() => undefined);
    this.db = undefined;
    this.firebase = undefined;
  }

  /** Goes offline cleanly: the server is told at once, so take_screenshot fails fast. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    clearInterval(this.heartbeatTimer);
    unwatchFile(statePath());
    await Promise.race([this.api.call(AGENT_ROUTES.offline, { sessionId: this.sessionId }).catch(() => undefined), sleep(3000)]);
    await this.closeFirestore();
    await this.ocr?.close();
  }
}

