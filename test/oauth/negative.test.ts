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
import { oauthUrl, pairDevice, postSignIn } from "../support/devices.js";
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
    // Presented again after the minute in which a repeat of the same exchange gets its answer back.
    await adminDb().collection("oauthCodes").doc(createHash("sha256").update(code).digest("base64url")).update({ usedAt: new Date(Date.now() - 120_000) });
    const replay = await exchange(clientId, code, verifier);
    expect(replay.status).toBe(400);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already used/) });
    await expectRefused("dermal", first.access_token, /revoked/);
  });

  test("the same exchange sent again at once (it was saved, its answer lost) gets the same grant and refresh token; the grant works", async () => {
    const user = await createUser();
    const clientId = await register();
    const { code, verifier } = await codeFor(user, clientId);
    // The first exchange is committed, but its answer never reaches the client (dropped unread).
    const lost = await exchange(clientId, code, verifier);
    expect(lost.status).toBe(200);
    const firstRefresh = ((await lost.json()) as { refresh_token: string }).refresh_token;
    const retry = await exchange(clientId, code, verifier);
    expect(retry.status).toBe(200);
    const tokens = await retry.json();
    expect(tokens.refresh_token).toBe(firstRefresh);
    expect((await mcpList("dermal", tokens.access_token)).status).toBe(200);
    const refreshed = await post("/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    expect(refreshed.status).toBe(200);
    expect((await mcpList("dermal", (await refreshed.json()).access_token)).status).toBe(200);
    // Once the refresh token has been used, the code presented again is a replay: everything is revoked.
    const replay = await exchange(clientId, code, verifier);
    expect(await replay.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already used/) });
    await expectRefused("dermal", tokens.access_token, /revoked/);
  });

  test("a used code presented by another client, or without the right verifier, is a replay even at once: the tokens are revoked", async () => {
    const user = await createUser();
    const clientId = await register();
    const otherClient = await register();
    const replays = [(code: string, verifier: string) => exchange(otherClient, code, verifier), (code: string) => exchange(clientId, code, pkce().verifier)];
    for (const replay of replays) {
      const { code, verifier } = await codeFor(user, clientId);
      const first = await (await exchange(clientId, code, verifier)).json();
      const res = await replay(code, verifier);
      expect(await res.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already used/) });
      await expectRefused("dermal", first.access_token, /revoked/);
    }
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

  test("PKCE is required, S256 only; a malformed request is shown, never redirected (no open redirector)", async () => {
    const clientId = await register();
    const res = await fetch(authorizeUrl(clientId, "x".repeat(43), { code_challenge_method: "plain" }), { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("location")).toBeNull();
    expect(await res.text()).toContain("PKCE is required: send code_challenge with code_challenge_method=S256");
  });

  test("the consent page names the host the code will be sent to, not just the client's first address", async () => {
    const user = await createUser();
    const clientId = await register([REDIRECT_URI, "https://evil.example/cb"]);
    const { signInCookie } = await import("../support/devices.js");
    const cookie = await signInCookie(user);
    const start = await fetch(authorizeUrl(clientId, pkce().challenge, { redirect_uri: "https://evil.example/cb" }), { redirect: "manual" });
    const page = await (await fetch(new URL(start.headers.get("location")!), { headers: { cookie } })).text();
    expect(page).toContain("it returns to evil.example");
  });

  test("consent, device and revoke forms without their CSRF token change nothing", async () => {
    const user = await createUser();
    const clientId = await register();
    const { signInCookie } = await import("../support/devices.js");
    const cookie = await signInCookie(user);
    const start = await fetch(authorizeUrl(clientId, pkce().challenge), { redirect: "manual" });
    const rid = new URL(start.headers.get("location")!).searchParams.get("rid")!;
    const forged = (path: string, fields: Record<string, string>) =>
      fetch(oauthUrl(path), { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", cookie }, body: new URLSearchParams(fields).toString() });
    const consent = await forged("/consent", { rid, decision: "allow", csrf: "forged" });
    expect(consent.status).toBe(403);
    expect(consent.headers.get("location")).toBeNull();
    const device = await (await import("../support/devices.js")).startDeviceAuthorization("desktop-agent", "forged");
    expect(await (await forged("/device", { user_code: device.user_code, decision: "approve", csrf: "" })).text()).toContain("This form expired");
    expect((await (await import("../support/devices.js")).pollDeviceToken("desktop-agent", device.device_code)).status).toBe(400);
  });

  test("a person cannot revoke another person's app or device from the apps page", async () => {
    const alice = await createUser();
    const mallory = await createUser();
    const device = await pairDevice(alice, "figma-plugin");
    const { signInCookie, csrfOf } = await import("../support/devices.js");
    const cookie = await signInCookie(mallory);
    const csrf = csrfOf(await (await fetch(oauthUrl("/apps"), { headers: { cookie } })).text());
    const res = await fetch(oauthUrl("/apps/revoke"), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ kind: "device", id: device.deviceId, csrf }).toString(),
    });
    expect(res.status).toBe(303);
    expect((await adminDb().collection("devices").doc(device.deviceId).get()).get("revokedAt")).toBeUndefined();
  });

  test("sign-in forms refuse a sandboxed page's Origin: null; discovery documents are readable from any origin", async () => {
    const res = await fetch(oauthUrl("/signin"), { method: "POST", headers: { origin: "null", "content-type": "application/x-www-form-urlencoded" }, body: "email=a%40b.c&password=x" });
    expect(res.status).toBe(403);
    for (const url of [oauthUrl("/.well-known/oauth-authorization-server"), oauthUrl("/jwks"), functionUrl("dermal", "/.well-known/oauth-protected-resource")]) {
      const doc = await fetch(url, { headers: { origin: "https://inspector.example" } });
      expect(doc.status).toBe(200);
      expect(doc.headers.get("access-control-allow-origin")).toBe("*");
    }
  });

  test("a reused refresh token revokes the whole family", async () => {
    const user = await createUser();
    const clientId = await register();
    const { code, verifier } = await codeFor(user, clientId);
    const first = await (await exchange(clientId, code, verifier)).json();
    const second = await (await post("/token", { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: clientId })).json();
    expect(second.refresh_token).toMatch(/^mcprt_/);
    // Presented again a minute later (a parallel refresh within 30 s is not reuse: see below).
    await adminDb().collection("oauthRefreshTokens").doc(createHash("sha256").update(first.refresh_token).digest("base64url")).update({ usedAt: new Date(Date.now() - 60_000) });
    const reuse = await post("/token", { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: clientId });
    expect(await reuse.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/already used/) });
    const next = await post("/token", { grant_type: "refresh_token", refresh_token: second.refresh_token, client_id: clientId });
    expect(await next.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/revoked/) });
    await expectRefused("dermal", second.access_token, /revoked/);
  });

  test("two refreshes with one token at the same moment both succeed (a client's parallel requests)", async () => {
    const user = await createUser();
    const clientId = await register();
    const { code, verifier } = await codeFor(user, clientId);
    const first = await (await exchange(clientId, code, verifier)).json();
    const both = await Promise.all([1, 2].map(() => post("/token", { grant_type: "refresh_token", refresh_token: first.refresh_token, client_id: clientId })));
    const bodies = await Promise.all(both.map((r) => r.json()));
    expect(bodies.map((b) => b.error ?? "ok")).toEqual(["ok", "ok"]);
    for (const b of bodies) expect((await mcpList("dermal", b.access_token)).status).toBe(200);
  });

  test("signing the user out everywhere ends OAuth access too", async () => {
    const user = await createUser();
    const clientId = await register();
    const { code, verifier } = await codeFor(user, clientId);
    const tokens = await (await exchange(clientId, code, verifier)).json();
    await new Promise((r) => setTimeout(r, 1100)); // tokensValidAfterTime has one-second resolution
    await adminAuth().revokeRefreshTokens(user.uid);
    // Account state is cached for ACCOUNT_CHECK_SECONDS (2 s in tests): after that, every instance sees the sign-out.
    await new Promise((r) => setTimeout(r, (Number(process.env.ACCOUNT_CHECK_SECONDS ?? 2) + 0.5) * 1000));
    const refresh = await post("/token", { grant_type: "refresh_token", refresh_token: tokens.refresh_token, client_id: clientId });
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant", error_description: expect.stringMatching(/signed out/) });
    await expectRefused("dermal", tokens.access_token, /signed out/);
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
    await expectRefused("dermal", token, /invalid, expired/);
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
    await expectRefused("dermal", plugin.accessToken, /not issued for this resource/);
    await expectRefused("knowledge", plugin.accessToken, /not issued for this resource/);
    await expectRefused("fotos", plugin.accessToken, /not issued for this resource/);
    // Even at the function it was issued for, a device token cannot act as the user's MCP client
    // (only the grant made for that, `fotos-agent mcp pair`'s fotos-mcp, can).
    const agent = await pairDevice(user, "desktop-agent");
    await expectRefused("fotos", agent.accessToken, /does not accept a desktop-agent token/);
    await expectRefused("figma", plugin.accessToken, /does not accept a device token/);
  });

  test("an unpaired device's credential stops working, and a desktop agent's Firebase sign-in is disabled", async () => {
    const user = await createUser();
    const agent = await pairDevice(user, "desktop-agent");
    const revoked = await fetch(oauthUrl("/revoke"), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: agent.credential, client_id: "fotos-agent" }).toString() });
    expect(revoked.status).toBe(200);
    expect((await adminAuth().getUser(`device_${agent.deviceId}`).catch(() => ({ disabled: "no such user" }))).disabled).not.toBe(false);
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
    const { signInForm } = await import("../support/devices.js");
    const signInPage = await signInForm();
    const sent = await fetch(oauthUrl("/signin/email-link"), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: signInPage.cookie },
      body: new URLSearchParams({ email, next: "/apps", csrf: signInPage.csrf }).toString(),
    });
    expect(await sent.text()).toContain("Check your email");
    const nonce = sent.headers.get("set-cookie")!.split(";")[0]!;
    const codes = (await (await fetch(`http://${process.env.FIREBASE_AUTH_EMULATOR_HOST}/emulator/v1/projects/${PROJECT}/oobCodes`)).json()) as { oobCodes: { email: string; oobLink: string; requestType: string }[] };
    const mail = codes.oobCodes.filter((c) => c.email === email && c.requestType === "EMAIL_SIGNIN").at(-1)!;
    // The emulator's link carries the continue URL; the person's browser ends up there with the code.
    const link = new URL(mail.oobLink);
    const back = new URL(link.searchParams.get("continueUrl")!);
    back.searchParams.set("oobCode", link.searchParams.get("oobCode")!);
    // Opened in another browser (no nonce cookie), the link does not sign anyone in: login CSRF.
    expect((await fetch(back, { redirect: "manual" })).status).toBe(403);
    const res = await fetch(back, { redirect: "manual", headers: { cookie: nonce } });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(oauthUrl("/apps"));
    expect(res.headers.get("set-cookie")).toMatch(/^__session=.+HttpOnly; SameSite=Lax/);
    // The link works once.
    expect((await fetch(back, { redirect: "manual", headers: { cookie: nonce } })).status).toBe(400);
  });

  test("consent is remembered per user, client and exact https redirect: the second authorization goes straight back", async () => {
    const user = await createUser();
    const https = "https://app.example/oauth/callback";
    const clientId = await register([https]);
    const { signInCookie, csrfOf } = await import("../support/devices.js");
    const cookie = await signInCookie(user);
    const ask = async () => {
      const start = await fetch(authorizeUrl(clientId, pkce().challenge, { redirect_uri: https }), { redirect: "manual" });
      return fetch(new URL(start.headers.get("location")!), { redirect: "manual", headers: { cookie } });
    };
    const first = await ask();
    expect(first.status).toBe(200); // the consent page
    const html = await first.text();
    await fetch(oauthUrl("/consent"), {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie },
      body: new URLSearchParams({ rid: /name="rid" value="([^"]+)"/.exec(html)![1]!, csrf: csrfOf(html), decision: "allow" }).toString(),
    });
    const second = await ask();
    expect(second.status).toBe(303);
    const back = new URL(second.headers.get("location")!);
    expect(back.origin + back.pathname).toBe(https);
    expect(back.searchParams.get("code")).toMatch(/^mcpac_/);
  });
});

test("password guessing on one account from one address is stopped after 10 tries in 10 minutes, with the wait named", async () => {
  const user = await createUser();
  const from = { "x-forwarded-for": "198.51.100.7" };
  const attempt = async (password: string) => (await postSignIn(emailFor(user.uid), password, from)).text();
  for (let i = 0; i < 10; i++) expect(await attempt(`wrong-${i}`)).toContain("Wrong email or password.");
  const refused = await attempt("test-password-123"); // even the right password waits now, from this address
  expect(refused).toMatch(/Too many attempts\. Try again in \d+ (seconds|minutes)\./);
});
