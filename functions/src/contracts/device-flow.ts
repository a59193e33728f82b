// The device side of pairing, one client for the desktop agent, `fotos-agent mcp` and the Figma
// plugin: find the sign-in server from the function's URL, ask for a code, poll until the person
// confirms it (OAuth device authorization grant, RFC 8628), then keep a fresh access token from the
// device credential (a refresh token, rotated: each refresh hands a new one, which the device saves;
// an old one presented again later unpairs the device). Only fetch and timers: it runs in Node
// and in the plugin's window alike. The oauth function is the other side (domains/oauth/routes).
import type { DeviceClientId } from "../core/catalog.js";

// What a device needs of the suite beside the flow: its client id, and the name the server keeps.
export type { DeviceClientId } from "../core/catalog.js";
export { safeDeviceName } from "../core/device-name.js";
import { DEVICE_CODE_GRANT, OAUTH_PATHS, WELL_KNOWN, type DeviceAuthorizationRequest, type DeviceAuthorizationResponse, type DeviceTokenResponse } from "./oauth.js";

export interface Endpoints {
  deviceAuthorization: string;
  token: string;
}

/** Who is pairing, and the words its errors use for it. */
export interface DeviceClient {
  clientId: DeviceClientId;
  /** The subject of "… is no longer paired", e.g. "This computer". */
  thisDevice: string;
  /** How the person pairs it again, e.g. "run `fotos-agent pair` again". */
  pairAgain: string;
}

/** A code to show the person (RFC 8628 §3.2), in this client's names. */
export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  verificationUriComplete: string;
  expiresIn: number;
  interval: number;
}

export interface AccessToken {
  accessToken: string;
  /** Epoch ms. */
  expiresAt: number;
  /** A desktop agent's Firestore sign-in (valid for one hour from issue). */
  firebaseCustomToken?: string;
}

/** What pairing gives the device: its id, its credential, and a first access token. */
export interface PairedDevice extends AccessToken {
  deviceId: string;
  /** The device credential (an OAuth refresh token, rotated at each refresh); revocable on the account's /apps page. */
  refreshToken: string;
  /** The function the credential is for (its canonical URL). */
  resource?: string;
  response: DeviceTokenResponse;
}

/**
 * A refusal or failure of the flow. `code` is the OAuth error (access_denied, expired_token,
 * invalid_grant…) or one of this client's: not_a_server, no_device_flow, cancelled.
 */
export class DeviceFlowError extends Error {
  override readonly name = "DeviceFlowError";
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }

  /** The credential was revoked or is unknown: only pairing again helps. */
  get revoked(): boolean {
    return REVOKED.has(this.code);
  }
}

/** The token endpoint's errors that mean the device credential no longer counts. */
const REVOKED = new Set(["invalid_grant", "unauthorized_client"]);

type Json = Record<string, unknown>;

async function readJson(res: Response): Promise<Json> {
  const text = await res.text();
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === "object" ? (parsed as Json) : {};
  } catch {
    return { error: "invalid_response", error_description: text.slice(0, 200) };
  }
}

/** The JSON at `url`, undefined when it answers otherwise, or the network error when nothing answers. */
async function getJson(url: string): Promise<Json | undefined | Error> {
  const res = await fetch(url, { headers: { accept: "application/json" } }).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e))));
  if (res instanceof Error) return res;
  return res.ok ? readJson(res) : undefined;
}

/** "fetch failed" says little: its cause (connection refused, unknown host…) says what to fix. */
const networkReason = (err: Error): string => {
  const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? err.message;
};

async function postForm(url: string, form: Record<string, string>, signal?: AbortSignal): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams(form).toString(),
    ...(signal ? { signal } : {}),
  });
  return { status: res.status, body: await readJson(res) };
}

const described = (body: Json, fallback: string | number): string => String(body.error_description ?? body.error ?? fallback);

// Metadata may sit under the resource's own path (how the functions serve it) or at the host root
// with the path appended (RFC 9728 §3.1, RFC 8414 §3.1); both are tried.
function wellKnown(base: string, document: string): string[] {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new DeviceFlowError("not_a_url", `${JSON.stringify(base)} is not a URL: give the function's URL, e.g. https://us-central1-<project>.cloudfunctions.net/<function>`);
  }
  const path = url.pathname.replace(/\/+$/, "");
  return [`${url.origin}${path}${document}`, `${url.origin}${document}${path}`];
}

/** The first of `urls` that answers JSON; the network error when none of them answered at all. */
async function firstJson(urls: string[]): Promise<Json | undefined | Error> {
  let unreachable: Error | undefined;
  let answered = false;
  for (const url of urls) {
    const json = await getJson(url);
    if (json instanceof Error) unreachable ??= json;
    else if (json) return json;
    else answered = true;
  }
  return answered ? undefined : unreachable;
}

/**
 * The pairing endpoints for a function: its protected-resource metadata names the sign-in server,
 * whose metadata names the endpoints. With `fallbackIssuer` (the Figma plugin's build-time sign-in
 * URL), a failed discovery uses that server's standard paths instead of failing.
 */
export async function discoverEndpoints(functionUrl: string, opts: { fallbackIssuer?: string; expected?: string } = {}): Promise<Endpoints> {
  const resource = await firstJson(wellKnown(functionUrl, WELL_KNOWN.protectedResource));
  const issuer = resource instanceof Error ? undefined : (resource?.authorization_servers as string[] | undefined)?.[0];
  const meta = issuer ? await firstJson(wellKnown(issuer, WELL_KNOWN.authorizationServer)) : undefined;
  if (meta && !(meta instanceof Error) && typeof meta.device_authorization_endpoint === "string" && typeof meta.token_endpoint === "string") {
    return { deviceAuthorization: meta.device_authorization_endpoint, token: meta.token_endpoint };
  }
  if (opts.fallbackIssuer) {
    const base = opts.fallbackIssuer.replace(/\/+$/, "");
    return { deviceAuthorization: base + OAUTH_PATHS.deviceAuthorization, token: base + OAUTH_PATHS.token };
  }
  if (resource instanceof Error) throw new DeviceFlowError("unreachable", `Could not reach ${functionUrl} (${networkReason(resource)}): check the URL and that the server is running`);
  const which = opts.expected ? `the URL of your ${opts.expected} function` : "a function that asks for sign-in";
  if (!issuer) throw new DeviceFlowError("not_a_server", `${functionUrl} does not ask for sign-in (it has no ${WELL_KNOWN.protectedResource}): give ${which}`);
  if (meta instanceof Error) throw new DeviceFlowError("unreachable", `Could not reach the sign-in server ${issuer} (${networkReason(meta)}): check your connection`);
  throw new DeviceFlowError("no_device_flow", `The sign-in server ${issuer} does not offer device pairing`);
}

/** Asks for a code to show the person. */
export async function requestDeviceCode(endpoints: Endpoints, client: DeviceClient, deviceName: string): Promise<DeviceCode> {
  const request: DeviceAuthorizationRequest = { client_id: client.clientId, device_name: deviceName };
  const { status, body } = await postForm(endpoints.deviceAuthorization, { ...request });
  const answer = body as Partial<DeviceAuthorizationResponse>;
  if (status !== 200 || typeof answer.device_code !== "string") {
    throw new DeviceFlowError(String(body.error ?? "pairing_failed"), `Pairing could not start: ${described(body, `HTTP ${status}`)}`);
  }
  const verificationUri = String(answer.verification_uri);
  return {
    deviceCode: answer.device_code,
    userCode: String(answer.user_code),
    verificationUri,
    verificationUriComplete: typeof answer.verification_uri_complete === "string" ? answer.verification_uri_complete : verificationUri,
    expiresIn: Number(answer.expires_in ?? 600),
    interval: Number(answer.interval ?? 5),
  };
}

const cancelled = () => new DeviceFlowError("cancelled", "Pairing was cancelled");

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const onAbort = () => (clearTimeout(timer), reject(cancelled()));
    const timer = setTimeout(() => (signal?.removeEventListener("abort", onAbort), resolve()), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function accessTokenOf(body: DeviceTokenResponse): AccessToken {
  return {
    accessToken: body.access_token,
    expiresAt: Date.now() + Number(body.expires_in ?? 900) * 1000,
    ...(typeof body.firebase_custom_token === "string" ? { firebaseCustomToken: body.firebase_custom_token } : {}),
  };
}

/**
 * Polls the token endpoint at the server's interval until the person confirmed the code (or
 * declined it, or it expired). A network failure or a passing server error is retried at the next
 * interval; once `signal` aborts, nothing more is sent and nothing is returned.
 */
export async function awaitConfirmation(endpoints: Endpoints, client: DeviceClient, code: DeviceCode, opts: { signal?: AbortSignal } = {}): Promise<PairedDevice> {
  let interval = code.interval * 1000;
  const deadline = Date.now() + code.expiresIn * 1000;
  while (Date.now() < deadline) {
    await wait(interval, opts.signal);
    const res = await postForm(endpoints.token, { grant_type: DEVICE_CODE_GRANT, device_code: code.deviceCode, client_id: client.clientId }, opts.signal).catch(() => undefined);
    if (opts.signal?.aborted) throw cancelled();
    if (!res || res.status >= 500 || res.body.error === "invalid_response") continue;
    const { status, body } = res;
    const answer = body as Partial<DeviceTokenResponse>;
    if (status === 200 && typeof answer.access_token === "string" && typeof answer.refresh_token === "string") {
      const response = answer as DeviceTokenResponse;
      return {
        ...accessTokenOf(response),
        deviceId: String(answer.device_id ?? ""),
        refreshToken: answer.refresh_token,
        ...(typeof answer.resource === "string" ? { resource: answer.resource } : {}),
        response,
      };
    }
    if (body.error === "authorization_pending") continue;
    // RFC 8628 §3.5: each slow_down adds 5 seconds to the interval.
    if (body.error === "slow_down") {
      interval += 5000;
      continue;
    }
    if (body.error === "access_denied") throw new DeviceFlowError("access_denied", "Pairing was declined in the browser");
    if (body.error === "expired_token") break;
    throw new DeviceFlowError(String(body.error ?? "pairing_failed"), `Pairing failed: ${described(body, `HTTP ${status}`)}`);
  }
  throw new DeviceFlowError("expired_token", `The pairing code expired before it was confirmed: ${client.pairAgain}`);
}

/**
 * Where a device keeps its credential (a file, the plugin's storage), shared by every process or
 * window of that device: read before each refresh, so one that another rotated meanwhile presents
 * the newest (an old one presented later would unpair the device), and written with each new one
 * before the refresh counts as done.
 */
export interface CredentialStore {
  load?(): string | undefined | Promise<string | undefined>;
  save(credential: string): void | Promise<void>;
}

/**
 * Access tokens for a paired device from its credential, refreshed a minute before they expire.
 * Each refresh hands a new credential, used from then on and kept in `store`.
 */
export class AccessTokens {
  private current: AccessToken | undefined;
  private refreshing: Promise<AccessToken> | undefined;

  constructor(
    private readonly tokenEndpoint: string,
    private readonly client: DeviceClient,
    private credential: string,
    initial?: AccessToken,
    private readonly store?: CredentialStore,
  ) {
    this.current = initial;
  }

  /** An access token with at least a minute left. */
  async get(): Promise<string> {
    if (this.current && this.current.expiresAt - Date.now() > 60_000) return this.current.accessToken;
    return (await this.refresh()).accessToken;
  }

  /** After a 401: the token was refused, the next get() asks for another one. */
  invalidate(): void {
    this.current = undefined;
  }

  /**
   * A new access token now. Concurrent callers share one request: two requests with one credential
   * would spend it twice (the server answers a repeat within a short grace with the same successor,
   * but never relies on a client doing so). Network failures are thrown as they are.
   */
  refresh(): Promise<AccessToken> {
    this.refreshing ??= (async () => {
      try {
        this.credential = (await this.store?.load?.()) ?? this.credential;
        const { status, body } = await postForm(this.tokenEndpoint, { grant_type: "refresh_token", refresh_token: this.credential, client_id: this.client.clientId });
        if (status === 200 && typeof body.access_token === "string") {
          if (typeof body.refresh_token === "string" && body.refresh_token !== this.credential) {
            this.credential = body.refresh_token;
            await this.store?.save(body.refresh_token);
          }
          return (this.current = accessTokenOf(body as unknown as DeviceTokenResponse));
        }
        const code = String(body.error ?? "refresh_failed");
        if (REVOKED.has(code)) {
          // The server's sentences say what happened, then what to do: keep what happened, say what to do here.
          const said = typeof body.error_description === "string" ? body.error_description.split(": ")[0]!.trim() : "";
          const why = said ? said[0]!.toLowerCase() + said.slice(1) : "the pairing was revoked, or is unknown to the server";
          throw new DeviceFlowError(code, `${this.client.thisDevice} is no longer paired (${why}): ${this.client.pairAgain}`);
        }
        throw new DeviceFlowError(code, `The sign-in server answered ${status}: ${described(body, code)}`);
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }
}
