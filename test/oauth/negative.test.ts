// What the authorization server and the protected functions refuse, each with an error a client
// can act on: tokens for another server, replayed codes, wrong PKCE verifiers, redirect
// mismatches, expired and revoked tokens, reused refresh tokens, bad metadata documents, devices
// at the wrong door, and accounts that were disabled or lost a claim.
import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Server } from "node:http";
import { afterAll, describe, expect, test } from "vitest";
import { importJWK, SignJWT } from "jose";
import { adminAuth, adminDb, createUser, emailFor, functionUrl, PROJECT, type TestUser } from "../support/emulators.js";
import { oauthUrl, pairDevice } from "../support/devices.js";
import { authorizeInBrowser, REDIRECT_URI, serveDocument } from "../support/oauth.js";

const servers: Server[] = [];
afterAll(() => servers.forEach((s) => s.close()));

const post = (path: string, fields: Record<string, string>) =>
  fetch(oauthUrl(path), { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

async function register(redirectUris = [REDIRECT_URI]): Promise<string> {
  const res = await fetch(oauthUrl("/register"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ client_name: "Negative tests", redirect_uris: redirectUris }) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

const pkce = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

function authorizeUrl(clientId: string, challenge: string, extra: Record<string, string> = {}): URL {
  const url = new URL(oauthUrl("/authorize"));
  const params = { response_type: "code", client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", state: "s1", resource: functionUrl("dermal"), ...extra };
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url;
}

async function codeFor(user: TestUser, clientId: string, resource = functionUrl("dermal")) {
  const { verifier, challenge } = pkce();
  const back = await authorizeInBrowser(authorizeUrl(clientId, challenge, { resource }), user);
  expect(back.searchParams.get("iss")).toBe(functionUrl("oauth"));
  expect(back.searchParams.get("state")).toBe("s1");
  return { code: back.searchParams.get("code")!, verifier };
}

const exchange = (clientId: string, code: string, verifier: string, redirectUri = REDIRECT_URI) =>
  post("/token", { grant_type: "authorization_code", code, code_verifier: verifier, client_id: clientId, redirect_uri: redirectUri });

const mcpList = (domain: string, token: string) =>
  fetch(functionUrl(domain), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
  });

async function expectRefused(domain: string, token: string, text: RegExp) {
  const res = await mcpList(domain, token);
  expect(res.status).toBe(401);
  expect(res.headers.get("www-authenticate")).toContain(`resource_metadata="${functionUrl(domain)}/.well-known/oauth-protected-resource"`);
  expect(JSON.stringify(await res.json())).toMatch(text);
}

describe("tokens and codes", () => {
  test("a token issued for dermal is refused by knowledge", async () => {
    const user = await createUser();
    const clientId = await register();
    const { code, verifier } = await codeFor(user, clientId);
    const tokens = await (await exchange(clientId, code, verifier)).json();
    expect((await mcpList("dermal", tokens.access_token)).status).toBe(200);
    await expectRefused("knowledge", tokens.access_token, /not issued for this resource/);
  });

  test("a replayed code is refused and revokes the tokens issued for it", async () => {
    const user = await createUser();
    const clientId = await register();
    const { code, verifier } = await codeFor(user, clientId);
    const first = await (await exchange(clientId, code, verifier)).json();
    const replay = await exchange(clientId, code, verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already used/) });
    await expectRefused("dermal", first.access_token, /revoked/);
  });

  test("a wrong PKCE verifier, another client or another redirect_uri is invalid_grant", async () => {
    const user = await createUser();
    const clientId = await register([REDIRECT_URI, "http://127.0.0.1:33418/other"]);
    const { code, verifier } = await codeFor(user, clientId);
    const wrong = await exchange(clientId, code, pkce().verifier);
    expect(await wrong.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/PKCE/) });
    const { code: code2, verifier: v2 } = await codeFor(user, clientId);
    const redirect = await exchange(clientId, code2, v2, "http://127.0.0.1:33418/other");
    expect(await redirect.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/redirect_uri/) });
    const { code: code3, verifier: v3 } = await codeFor(user, clientId);
    const otherClient = await exchange(await register(), code3, v3);
    expect(await otherClient.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/another client/) });
  });

  test("an unregistered redirect_uri is shown as an error page, never redirected to", async () => {
    const clientId = await register();
    const res = await fetch(authorizeUrl(clientId, pkce().challenge, { redirect_uri: "https://evil.example/cb" }), { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("redirect_uri mismatch");
  });

  test("a native client's loopback redirect may use any port (RFC 8252)", async () => {
    const clientId = await register(["http://127.0.0.1/callback"]);
    const res = await fetch(authorizeUrl(clientId, pkce().challenge, { redirect_uri: "http://127.0.0.1:51234/callback" }), { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toContain("/consent?rid=");
  });

  test("PKCE is required, S256 only", async () => {
    const clientId = await register();
    const res = await fetch(authorizeUrl(clientId, "x".repeat(43), { code_challenge_method: "plain" }), { redirect: "manual" });
    const back = new URL(res.headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("invalid_request");
    expect(back.searchParams.get("error_description")).toMatch(/S256/);
  });

  test("a reused refresh token revokes the whole family", async () => {
    const user = await createUser();
    const clientId = await register();
    const { code, verifier } = await codeFor(user, clientId);
    const first = await (await exchange(clientId, code, verifier)).json();
    const second = await (await post("/token", { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: clientId })).json();
    expect(second.refresh_token).toMatch(/^mcprt_/);
    const reuse = await post("/token", { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: clientId });
    expect(await reuse.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already used/) });
    const next = await post("/token", { grant_type: "refresh_token", refresh_token: second.refresh_token, client_id: clientId });
    expect(await next.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/revoked/) });
    await expectRefused("dermal", second.access_token, /revoked/);
  });

  test("an expired access token is refused with invalid_token", async () => {
    const user = await createUser();
    // Signed with the emulator's real key, but expired a minute ago.
    const line = readFileSync(new URL("../../functions/.secret.local", import.meta.url), "utf8").split("\n").find((l) => l.startsWith("OAUTH_SIGNING_KEY="))!;
    const jwk = JSON.parse(JSON.parse(line.slice("OAUTH_SIGNING_KEY=".length))) as Record<string, string>;
    const key = await importJWK(jwk, "ES256");
    const token = await new SignJWT({ client_id: "x", scope: "dermal", gid: "nope", gk: "client" })
      .setProtectedHeader({ alg: "ES256", kid: jwk.kid!, typ: "at+jwt" })
      .setIssuer(functionUrl("oauth"))
      .setSubject(user.uid)
      .setAudience(functionUrl("dermal"))
      .setIssuedAt(Math.floor(Date.now() / 1000) - 700)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    await expectRefused("dermal", token, /invalid or expired/);
  });
});

describe("client metadata documents", () => {
  const authorizeWith = async (clientId: string) => {
    const res = await fetch(authorizeUrl(clientId, pkce().challenge), { redirect: "manual" });
    return { status: res.status, text: await res.text() };
  };

  test("a document whose client_id is not its own URL is refused", async () => {
    const doc = await serveDocument(() => ({ body: JSON.stringify({ client_id: "https://claude.ai/oauth/client.json", client_name: "Impostor", redirect_uris: [REDIRECT_URI] }) }));
    servers.push(doc.server);
    const res = await authorizeWith(doc.url);
    expect(res.status).toBe(400);
    expect(res.text).toContain("client_id does not match the URL");
  });

  test("a document on a private or link-local address is never fetched", async () => {
    for (const url of ["https://10.1.2.3/client.json", "https://169.254.169.254/latest/meta-data", "https://[fd00::1]/client.json"]) {
      const res = await authorizeWith(url);
      expect(res.status).toBe(400);
      expect(res.text).toContain("private or reserved address");
    }
  });

  test("an oversized document is refused", async () => {
    const doc = await serveDocument((url) => ({ body: JSON.stringify({ client_id: url, client_name: "Big", redirect_uris: [REDIRECT_URI], padding: "x".repeat(40_000) }) }));
    servers.push(doc.server);
    const res = await authorizeWith(doc.url);
    expect(res.text).toContain("larger than 16 KB");
  });
});

describe("devices and accounts", () => {
  test("a device token is refused at the MCP root of every domain, and by functions it was not issued for", async () => {
    const user = await createUser();
    const plugin = await pairDevice(user, "figma-plugin");
    await expectRefused("dermal", plugin.accessToken, /does not accept a device token/);
    await expectRefused("knowledge", plugin.accessToken, /does not accept a device token/);
  });

  test("an unpaired device's credential stops working", async () => {
    const user = await createUser();
    const agent = await pairDevice(user, "desktop-agent");
    await adminDb().collection("devices").doc(agent.deviceId).update({ revokedAt: new Date() });
    const res = await post("/token", { grant_type: "refresh_token", refresh_token: agent.credential, client_id: "fotos-agent" });
    expect(await res.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/unpaired/) });
  });

  test("a disabled account and a removed clinician claim lose access within the account-check interval", async () => {
    const clinician = await createUser({ claims: { clinician: true } });
    const patient = await createUser();
    await adminDb().collection("users").doc(patient.uid).set({ displayName: "P", tier: "free", skinType: "II", createdAt: new Date(), sharedWith: [clinician.uid] });
    const status = async () => {
      const res = await fetch(functionUrl("dermal"), {
        method: "POST",
        headers: { authorization: `Bearer ${clinician.token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_user_status", arguments: { uid: patient.uid } } }),
      });
      return `${res.status} ${await res.text()}`;
    };
    expect(await status()).toMatch(/^200 [\s\S]*displayName/);
    await adminAuth().setCustomUserClaims(clinician.uid, {});
    await expect.poll(status, { timeout: 30_000, interval: 500 }).toMatch(/403/);
    await adminAuth().updateUser(clinician.uid, { disabled: true });
    await expect.poll(status, { timeout: 30_000, interval: 500 }).toMatch(/^401 [\s\S]*disabled/);
  });
});

describe("sign-in methods and remembered consent", () => {
  test("a sign-in link sent by email signs the person in (the Auth emulator holds the email)", async () => {
    const user = await createUser();
    const email = emailFor(user.uid);
    const sent = await post("/signin/email-link", { email, next: "/apps" });
    expect(await sent.text()).toContain("Check your email");
    const codes = (await (await fetch(`http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/emulator/v1/projects/${PROJECT}/oobCodes`)).json()) as { oobCodes: { email: string; oobLink: string; requestType: string }[] };
    const mail = codes.oobCodes.filter((c) => c.email === email && c.requestType === "EMAIL_SIGNIN").at(-1)!;
    // The emulator's link carries the continue URL; the person's browser ends up there with the code.
    const link = new URL(mail.oobLink);
    const back = new URL(link.searchParams.get("continueUrl")!);
    back.searchParams.set("oobCode", link.searchParams.get("oobCode")!);
    const res = await fetch(back, { redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(oauthUrl("/apps"));
    expect(res.headers.get("set-cookie")).toMatch(/^__session=.+HttpOnly; SameSite=Lax/);
    // The link works once.
    expect((await fetch(back, { redirect: "manual" })).status).toBe(400);
  });

  test("consent is remembered per user and client: the second authorization goes straight back", async () => {
    const user = await createUser();
    const clientId = await register();
    await codeFor(user, clientId);
    const { challenge } = pkce();
    const { signInCookie } = await import("../support/devices.js");
    const cookie = await signInCookie(user);
    const first = await fetch(authorizeUrl(clientId, challenge), { redirect: "manual" });
    const consent = await fetch(new URL(first.headers.get("location")!), { redirect: "manual", headers: { cookie } });
    expect(consent.status).toBe(303);
    const back = new URL(consent.headers.get("location")!);
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get("code")).toMatch(/^mcpac_/);
  });
});
