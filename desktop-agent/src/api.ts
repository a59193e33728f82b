// The agent's calls to the fotos function: short-lived access tokens from the device credential
// (refreshed before they expire, and once more on a 401), retries with backoff on network
// failures and 5xx, so a dropped connection or a restarting emulator delays an answer but never
// loses it.
import { AccessTokens, DeviceFlowError, type AccessToken } from "../../functions/src/contracts/device-flow.js";
import { IDEMPOTENCY_KEY_HEADER, type AgentCalls } from "../../functions/src/contracts/fotos-agent.js";
import { loadCredentials, saveCredentials, type Credentials } from "./config.js";
import { deviceClient } from "./pairing.js";

export class RevokedError extends Error {
  override readonly name = "RevokedError";
}

/** A refusal the server meant (4xx other than 401/408/429): retrying would not help. */
export class RefusedError extends Error {
  override readonly name = "RefusedError";
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Route = keyof AgentCalls;
interface CallOptions<P extends Route> {
  /** A binary body (a PNG) instead of JSON. */
  binary?: Buffer;
  query?: AgentCalls[P]["query"];
  /** Sent as the Idempotency-Key header, the same on every retry: an upload retried is stored once. */
  idempotencyKey?: string;
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** 0.5 s, 1 s, 2 s … up to `max`, with jitter. */
export const backoff = (attempt: number, max = 15_000) => Math.min(max, 500 * 2 ** attempt) * (0.75 + Math.random() * 0.5);

export class FotosApi {
  private readonly tokens: AccessTokens;

  /**
   * `file`: where `creds` were loaded from. The device credential rotates: each new one is saved
   * there, and read back before each refresh (`fotos-agent status` may have rotated it while
   * `run` was running). Without a file it is kept in memory only.
   */
  constructor(readonly creds: Credentials, file?: string) {
    this.tokens = new AccessTokens(creds.tokenEndpoint, deviceClient(creds.clientId, creds.server), creds.credential, undefined, {
      load: () => (file ? loadCredentials(file)?.credential : undefined),
      save: (credential) => {
        this.creds.credential = credential;
        if (file) saveCredentials(this.creds, file);
      },
    });
  }

  /** A fresh access token (and a desktop agent's Firebase custom token), from the device credential. */
  async refresh(): Promise<AccessToken> {
    try {
      return await this.tokens.refresh();
    } catch (err) {
      if (err instanceof DeviceFlowError && err.revoked) throw new RevokedError(err.message);
      throw err;
    }
  }

  private async accessToken(): Promise<string> {
    try {
      return await this.tokens.get();
    } catch (err) {
      if (err instanceof DeviceFlowError && err.revoked) throw new RevokedError(err.message);
      throw err;
    }
  }

  /** A custom token to sign in to Firestore with (fresh: it is valid for one hour). */
  async firebaseCustomToken(): Promise<string> {
    const token = await this.refresh();
    if (!token.firebaseCustomToken) throw new Error("The server sent no Firebase token for this agent");
    return token.firebaseCustomToken;
  }
  /** One call of a route of the contract; throws RefusedError for meant refusals, Error for anything worth retrying. */
  async call<P extends Route>(path: P, body: AgentCalls[P]["body"], opts: CallOptions<P> = {}): Promise<AgentCalls[P]["answer"]> {
    for (let authAttempt = 0; ; authAttempt++) {
      const url = new URL(this.creds.server.replace(/\/+$/, "") + path);
      for (const [k, v] of Object.entries((opts.query ?? {}) as Record<string, string | undefined>)) if (v !== undefined) url.searchParams.set(k, v);
      const res = await fetch(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${await this.accessToken()}`,
          "content-type": opts.binary ? "image/png" : "application/json",
          accept: "application/json",
          ...(opts.idempotencyKey ? { [IDEMPOTENCY_KEY_HEADER]: opts.idempotencyKey } : {}),
        },
        body: opts.binary ? new Uint8Array(opts.binary) : JSON.stringify(body ?? {}),
        signal: AbortSignal.timeout(60_000),
      });
      const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      if (res.ok) return json as AgentCalls[P]["answer"];
      if (res.status === 401 && authAttempt === 0) {
        this.tokens.invalidate();
        continue;
      }
      const message = String(json.error ?? `HTTP ${res.status}`);
      if (res.status >= 400 && res.status < 500 && res.status !== 408 && res.status !== 429) throw new RefusedError(res.status, message);
      throw new Error(message);
    }
  }

  /** call() retried with backoff until it succeeds, is refused, or `until` (epoch ms) passes. */
  async callRetrying<P extends Route>(
    path: P,
    body: AgentCalls[P]["body"],
    opts: CallOptions<P> & { until?: number; log?: (m: string) => void } = {},
  ): Promise<AgentCalls[P]["answer"]> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.call(path, body, opts);
      } catch (err) {
        if (err instanceof RefusedError || err instanceof RevokedError) throw err;
        const wait = backoff(attempt);
        if (opts.until !== undefined && Date.now() + wait > opts.until) throw err;
        opts.log?.(`${path} failed (${(err as Error).message}); retrying in ${Math.round(wait)} ms`);
        await sleep(wait);
      }
    }
  }
}
