// An MCP client that signs in with OAuth the way Claude's connectors do: the SDK's own
// OAuthClientProvider flow (401 → discovery → authorize → token), with a scripted "browser" that
// follows the redirects, signs the person in and answers the consent page as a form post.
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthClientProvider, OAuthTokens } from "@modelcontextprotocol/client";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { importJWK, SignJWT } from "jose";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { csrfOf, signInCookie } from "./devices.js";
import { functionUrl, PROJECT, type TestUser } from "./emulators.js";
import { OAUTH_PATHS } from "../../functions/src/contracts/oauth.js";

export const REDIRECT_URI = "http://127.0.0.1:33418/callback";

export class MemoryOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  private info: OAuthClientInformationMixed | undefined;
  private saved: OAuthTokens | undefined;
  private verifier = "";
  private discovery: unknown;
  readonly history: OAuthTokens[] = [];

  /** `clientId` set: a metadata-document client (its id is the document's URL); unset: dynamic registration. */
  constructor(private readonly opts: { clientId?: string; name?: string; redirectUri?: string } = {}) {
    if (opts.clientId) this.info = { client_id: opts.clientId };
  }
  get redirectUrl() {
    return this.opts.redirectUri ?? REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return { client_name: this.opts.name ?? "Test MCP client", redirect_uris: [this.redirectUrl], grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none" };
  }
  state() {
    return "state-123";
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
    this.history.push(tokens);
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery as never;
  }
  /** Breaks the saved access token (as if it expired), keeping the refresh token. */
  spoilAccessToken() {
    if (this.saved) this.saved = { ...this.saved, access_token: "expired.token.value" };
  }
}

const cookieJar = new Map<string, string>();

/**
 * Plays the browser: opens the authorization URL, signs `user` in on the sign-in page, answers the
 * consent page, and returns the redirect back to the client (its query has code, state and iss).
 */
export async function authorizeInBrowser(authorizationUrl: URL, user: TestUser, decision: "allow" | "deny" = "allow"): Promise<URL> {
  let cookie = cookieJar.get(user.uid);
  let url = authorizationUrl.toString();
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { redirect: "manual", headers: cookie ? { cookie } : {} });
    const location = res.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (next.pathname.endsWith("/signin")) {
        cookie = await signInCookie(user);
        cookieJar.set(user.uid, cookie);
        url = functionUrl("oauth", decodeURIComponent(next.searchParams.get("next")!));
        continue;
      }
      if (!next.pathname.includes("/oauth/")) return next; // back at the client
      url = next.toString();
      continue;
    }
    const html = await res.text();
    if (res.status !== 200 || !html.includes('name="decision"')) throw new Error(`unexpected page (HTTP ${res.status}): ${html.slice(0, 400)}`);
    const rid = /name="rid" value="([^"]+)"/.exec(html)![1]!;
    const post = await fetch(functionUrl("oauth", "/consent"), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie! },
      body: new URLSearchParams({ rid, csrf: csrfOf(html), decision }).toString(),
    });
    const back = post.headers.get("location");
    if (post.status !== 303 || !back) throw new Error(`consent failed: HTTP ${post.status} ${await post.text()}`);
    return new URL(back);
  }
  throw new Error("too many redirects");
}

/** Connects with OAuth: the first attempt is refused (401), the browser flow runs, the second connects. */
export async function connectWithOAuth(domain: string, user: TestUser, provider: MemoryOAuthProvider): Promise<Client> {
  const url = new URL(functionUrl(domain));
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const probe = new Client({ name: "oauth-test", version: "1.0.0" });
  await probe.connect(first).then(
    () => {
      throw new Error("connected without signing in");
    },
    (err: Error) => {
      if (!/Unauthorized/i.test(err.name + err.message)) throw err;
    },
  );
  const back = await authorizeInBrowser(provider.authorizationUrl!, user);
  await first.finishAuth(back.searchParams);
  return connectWithTokens(domain, provider);
}

export async function connectWithTokens(domain: string, provider: MemoryOAuthProvider): Promise<Client> {
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(functionUrl(domain)), { authProvider: provider }));
  return client;
}

/** Serves a client metadata document (and anything else) on a loopback port for the test. */
export async function serveDocument(build: (url: string) => { status?: number; body: string }): Promise<{ url: string; server: Server }> {
  let base = "";
  const server = createServer((req, res) => {
    const { status = 200, body } = build(`${base}${req.url}`);
    res.writeHead(status, { "content-type": "application/json" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url: `${base}/client.json`, server };
}

// Raw protocol helpers, for tests that play a client (or an attacker) step by step.
export const formPost = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(functionUrl("oauth", path), { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", ...headers }, body: new URLSearchParams(fields).toString() });

/** Registers a client dynamically (RFC 7591) and returns its client_id. */
export async function registerClient(redirectUris: string[] = [REDIRECT_URI], extra: Record<string, unknown> = {}): Promise<string> {
  const res = await fetch(functionUrl("oauth", OAUTH_PATHS.register), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Attack tests", redirect_uris: redirectUris, ...extra }) });
  if (res.status !== 201) throw new Error(`registration failed: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { client_id: string }).client_id;
}

export const pkcePair = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

export function authorizeUrlFor(clientId: string, challenge: string, extra: Record<string, string> = {}): URL {
  const url = new URL(functionUrl("oauth", OAUTH_PATHS.authorize));
  const params = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", state: "s1", resource: functionUrl("dermal"), ...extra };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

/** Signs `user` in, authorizes (consent page answered) and exchanges the code: the token response. */
export async function tokensFor(user: TestUser, clientId: string, extra: Record<string, string> = {}): Promise<Record<string, any>> {
  const { verifier, challenge } = pkcePair();
  const back = await authorizeInBrowser(authorizeUrlFor(clientId, challenge, extra), user);
  const code = back.searchParams.get("code");
  if (!code) throw new Error(`no code: ${back}`);
  const res = await formPost(OAUTH_PATHS.token, { grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId, redirect_uri: extra.redirect_uri ?? REDIRECT_URI });
  const body = (await res.json()) as Record<string, any>;
  if (res.status !== 200) throw new Error(`token exchange failed: ${JSON.stringify(body)}`);
  return body;
}

export const refreshWith = (refreshToken: string, clientId: string) => formPost(OAUTH_PATHS.token, { grant_type: "refresh_token", refresh_token: refreshToken, client_id: clientId });

/** tools/list at a domain's MCP root with a bearer token. */
export const mcpToolsList = (domain: string, token: string, query = "") =>
  fetch(functionUrl(domain, query), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });

/**
 * An access token signed with the emulator's real key (functions/.secret.local), for tokens a test
 * cannot wait for: issued long ago, or already expired.
 */
export async function mintAccessToken(c: { uid: string; domain: string; grantId: string; clientId: string; iat: number; exp: number; scope?: string }): Promise<string> {
  const line = readFileSync(new URL("../../functions/.secret.local", import.meta.url), "utf8").split("\n").find((l) => l.startsWith("OAUTH_SIGNING_KEY="))!;
  const jwk = JSON.parse(JSON.parse(line.slice("OAUTH_SIGNING_KEY=".length))) as Record<string, string>;
  return new SignJWT({ client_id: c.clientId, scope: c.scope ?? c.domain, gid: c.grantId, gk: "client" })
    .setProtectedHeader({ alg: "ES256", kid: jwk.kid!, typ: "at+jwt" })
    .setIssuer(functionUrl("oauth"))
    .setSubject(c.uid)
    .setAudience(functionUrl(c.domain))
    .setIssuedAt(c.iat)
    .setJti(randomBytes(8).toString("hex"))
    .setExpirationTime(c.exp)
    .sign(await importJWK(jwk, "ES256"));
}

/** The claims of one of our access tokens (not verified: the functions do that). */
export const claimsOf = (token: string): Record<string, any> => JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8"));

/**
 * Makes an account's tokens valid since `seconds` ago (the Auth emulator's accounts:update, as an
 * account created long before): tokens issued before an account's validSince are refused.
 */
export async function backdateAccount(uid: string, seconds: number): Promise<void> {
  const res = await fetch(`http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts:update`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer owner" },
    body: JSON.stringify({ localId: uid, validSince: String(Math.floor(Date.now() / 1000) - seconds) }),
  });
  if (!res.ok) throw new Error(`could not backdate ${uid}: HTTP ${res.status} ${await res.text()}`);
}
