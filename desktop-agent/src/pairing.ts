// Pairing with the user's account: the OAuth device flow (RFC 8628). The agent shows a code and
// a URL; the user opens it signed in and confirms; the agent receives its device credential.
// The endpoints are discovered from the fotos URL (RFC 9728 protected-resource metadata, then
// RFC 8414 authorization-server metadata).
import { hostname } from "node:os";
import { saveCredentials, type Credentials, type FirebaseSettings } from "./config.js";

export const CLIENT_ID = "fotos-agent";
/** The client `fotos-agent mcp` pairs as (bridged mode). */
export const MCP_CLIENT_ID = "fotos-mcp";

interface Endpoints {
  deviceAuthorization: string;
  token: string;
}

async function getJson(url: string): Promise<Record<string, unknown> | undefined> {
  const res = await fetch(url, { headers: { accept: "application/json" } }).catch(() => undefined);
  if (!res?.ok) return undefined;
  return (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
}

// Metadata may sit under the resource's own path (how the functions serve it) or at the host
// root with the path appended (RFC 9728 / RFC 8414 form); both are tried.
function wellKnown(base: string, name: string): string[] {
  const url = new URL(base);
  const path = url.pathname.replace(/\/+$/, "");
  return [`${url.origin}${path}/.well-known/${name}`, `${url.origin}/.well-known/${name}${path}`];
}

export async function discover(server: string): Promise<Endpoints> {
  let resource: Record<string, unknown> | undefined;
  for (const url of wellKnown(server, "oauth-protected-resource")) if ((resource ??= await getJson(url))) break;
  const issuer = (resource?.authorization_servers as string[] | undefined)?.[0];
  if (!issuer) throw new Error(`${server} does not look like a Fotos server (no /.well-known/oauth-protected-resource): check the URL`);
  let meta: Record<string, unknown> | undefined;
  for (const url of wellKnown(issuer, "oauth-authorization-server")) if ((meta ??= await getJson(url))) break;
  if (typeof meta?.device_authorization_endpoint !== "string" || typeof meta.token_endpoint !== "string") {
    throw new Error(`The sign-in server ${issuer} does not offer device pairing`);
  }
  return { deviceAuthorization: meta.device_authorization_endpoint, token: meta.token_endpoint };
}

async function postForm(url: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, body: ((await res.json().catch(() => ({}))) as Record<string, unknown>) ?? {} };
}

export interface PairOptions {
  server: string;
  name?: string;
  /** fotos-agent (the capturing agent, default) or fotos-mcp (the stdio server's grant). */
  clientId?: string;
  /** Where the credential is saved (default: the agent's credential file). */
  path?: string;
  /** Where the code and URL are shown (the console by default). */
  show?: (userCode: string, url: string, urlComplete: string) => void;
  signal?: AbortSignal;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), reject(new Error("Pairing cancelled"))), { once: true });
  });

/** Runs the device flow to the end and saves the credential. */
export async function pair(opts: PairOptions): Promise<Credentials> {
  const server = opts.server.replace(/\/+$/, "");
  const endpoints = await discover(server);
  const deviceName = opts.name ?? `Fotos agent on ${hostname()}`;
  const clientId = opts.clientId ?? CLIENT_ID;
  const start = await postForm(endpoints.deviceAuthorization, { client_id: clientId, device_name: deviceName });
  if (start.status !== 200 || typeof start.body.device_code !== "string") {
    throw new Error(`Pairing could not start: ${String(start.body.error_description ?? start.body.error ?? start.status)}`);
  }
  const { device_code, user_code, verification_uri, verification_uri_complete } = start.body as Record<string, string>;
  let interval = Number(start.body.interval ?? 5) * 1000;
  const deadline = Date.now() + Number(start.body.expires_in ?? 600) * 1000;
  (opts.show ?? showOnConsole)(user_code!, verification_uri!, verification_uri_complete ?? verification_uri!);

  while (Date.now() < deadline) {
    await sleep(interval, opts.signal);
    const res = await postForm(endpoints.token, {
      grant_type: "urn:ietf:params:oauth:grant-type:device_code",
      device_code: device_code!,
      client_id: clientId,
    }).catch(() => undefined);
    if (!res) continue; // network hiccup: try again at the next interval
    const error = res.body.error;
    if (res.status === 200 && typeof res.body.refresh_token === "string") {
      const creds: Credentials = {
        server: typeof res.body.resource === "string" ? res.body.resource : server,
        tokenEndpoint: endpoints.token,
        clientId,
        deviceId: String(res.body.device_id ?? ""),
        deviceName,
        credential: res.body.refresh_token,
        ...(res.body.firebase ? { firebase: res.body.firebase as FirebaseSettings } : {}),
        pairedAt: new Date().toISOString(),
      };
      saveCredentials(creds, opts.path);
      return creds;
    }
    if (error === "authorization_pending") continue;
    if (error === "slow_down") {
      interval += 5000;
      continue;
    }
    if (error === "access_denied") throw new Error("Pairing was declined in the browser");
    if (error === "expired_token") break;
    throw new Error(`Pairing failed: ${String(res.body.error_description ?? error ?? res.status)}`);
  }
  throw new Error("The pairing code expired before it was confirmed: run `fotos-agent pair` again");
}

function showOnConsole(userCode: string, url: string, urlComplete: string): void {
  process.stdout.write(
    `\nTo pair this computer with your account, open\n\n    ${urlComplete}\n\n` +
      `and confirm the code\n\n    ${userCode}\n\n(or open ${url} and enter the code). Waiting…\n`,
  );
}
