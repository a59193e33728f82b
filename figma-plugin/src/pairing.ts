// Pairing the plugin with the user's account (OAuth device authorization grant, RFC 8628) and
// keeping a fresh access token. Only `fetch` is used, so the plugin UI and the test harness share it.

export const CLIENT_ID = "figma-plugin";

export interface Endpoints {
  deviceAuthorization: string;
  token: string;
}

export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string;
  expiresIn: number;
  interval: number;
}

export interface Credential {
  deviceId: string;
  /** The long-lived device credential (OAuth refresh token); stored with figma.clientStorage. */
  refreshToken: string;
}

export class PairingError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function json(res: Response): Promise<Record<string, unknown>> {
  const text = await res.text();
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { error: "invalid_response", error_description: text.slice(0, 200) };
  }
}

function form(values: Record<string, string>): RequestInit {
  return { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(values).toString() };
}

/**
 * Where to pair: the function's protected-resource metadata names the authorization server, whose
 * metadata names the endpoints. Falls back to `fallbackOauthUrl` (the build's) when discovery fails.
 */
export async function discover(functionUrl: string, fallbackOauthUrl: string): Promise<Endpoints> {
  try {
    const resource = await json(await fetch(`${functionUrl}/.well-known/oauth-protected-resource`));
    const issuer = (resource.authorization_servers as string[] | undefined)?.[0];
    if (issuer) {
      const meta = await json(await fetch(`${issuer.replace(/\/$/, "")}/.well-known/oauth-authorization-server`));
      if (typeof meta.device_authorization_endpoint === "string" && typeof meta.token_endpoint === "string") {
        return { deviceAuthorization: meta.device_authorization_endpoint, token: meta.token_endpoint };
      }
    }
  } catch {
    // offline or an older server: use the build's URL below
  }
  return { deviceAuthorization: `${fallbackOauthUrl}/device_authorization`, token: `${fallbackOauthUrl}/token` };
}

export async function startPairing(endpoints: Endpoints, deviceName: string): Promise<DeviceCode> {
  const body = await json(await fetch(endpoints.deviceAuthorization, form({ client_id: CLIENT_ID, device_name: deviceName })));
  if (typeof body.device_code !== "string") throw new PairingError(String(body.error ?? "pairing_failed"), String(body.error_description ?? body.error ?? "Pairing could not start"));
  return {
    deviceCode: body.device_code,
    userCode: String(body.user_code),
    verificationUri: String(body.verification_uri),
    verificationUriComplete: String(body.verification_uri_complete ?? body.verification_uri),
    expiresIn: Number(body.expires_in ?? 600),
    interval: Number(body.interval ?? 2),
  };
}

export interface Tokens {
  accessToken: string;
  expiresAt: number;
}

/** Polls the token endpoint until the user confirmed (or refused, or the code expired). */
export async function finishPairing(
  endpoints: Endpoints,
  code: DeviceCode,
  opts: { sleep?: (ms: number) => Promise<void>; signal?: AbortSignal } = {},
): Promise<Credential & Tokens> {
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let interval = code.interval;
  const deadline = Date.now() + code.expiresIn * 1000;
  while (Date.now() < deadline) {
    if (opts.signal?.aborted) throw new PairingError("cancelled", "Pairing was cancelled");
    await sleep(interval * 1000);
    const res = await fetch(endpoints.token, form({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: code.deviceCode, client_id: CLIENT_ID }));
    const body = await json(res);
    if (res.ok && typeof body.access_token === "string") {
      return {
        deviceId: String(body.device_id),
        refreshToken: String(body.refresh_token),
        accessToken: body.access_token,
        expiresAt: Date.now() + Number(body.expires_in ?? 900) * 1000,
      };
    }
    if (body.error === "authorization_pending") continue;
    if (body.error === "slow_down") {
      interval += 5;
      continue;
    }
    if (body.error === "access_denied") throw new PairingError("access_denied", "Pairing was refused in the browser");
    if (body.error === "expired_token") break;
    throw new PairingError(String(body.error ?? "pairing_failed"), String(body.error_description ?? body.error ?? "Pairing failed"));
  }
  throw new PairingError("expired_token", "The pairing code expired: start again");
}

/** Access tokens for a paired device, refreshed shortly before they expire. */
export class TokenSource {
  private tokens: Tokens | undefined;
  private refreshing: Promise<Tokens> | undefined;

  constructor(
    private readonly endpoints: Endpoints,
    private readonly credential: Credential,
    initial?: Tokens,
  ) {
    this.tokens = initial;
  }

  async get(): Promise<string> {
    if (this.tokens && this.tokens.expiresAt - Date.now() > 60_000) return this.tokens.accessToken;
    return (await this.refresh()).accessToken;
  }

  /** After a 401: the token was refused, get another one. */
  invalidate(): void {
    this.tokens = undefined;
  }

  private refresh(): Promise<Tokens> {
    this.refreshing ??= (async () => {
      try {
        const res = await fetch(this.endpoints.token, form({ grant_type: "refresh_token", refresh_token: this.credential.refreshToken, client_id: CLIENT_ID }));
        const body = await json(res);
        if (!res.ok || typeof body.access_token !== "string") {
          const code = String(body.error ?? "refresh_failed");
          throw new PairingError(code, code === "invalid_grant" ? "This plugin's pairing was revoked: pair it again" : String(body.error_description ?? code));
        }
        this.tokens = { accessToken: body.access_token, expiresAt: Date.now() + Number(body.expires_in ?? 900) * 1000 };
        return this.tokens;
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }
}
