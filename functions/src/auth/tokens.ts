// Access tokens are JWTs (RFC 9068 `at+jwt`) signed by the authorization server with ES256 and
// verified by every protected function against its JWKS. No hand-written crypto: jose does it.
// Signing key: the OAUTH_SIGNING_KEY secret in production (a private JWK); in the emulator one is
// generated once and kept in Firestore so every local function process shares it.
import { randomUUID } from "node:crypto";
import { createRemoteJWKSet, exportJWK, generateKeyPair, importJWK, jwtVerify, SignJWT, type JWK, type JWTPayload } from "jose";
import { firestore } from "../platform/firebase.js";
import type { DeviceKind } from "./policy.js";
import { envNumber } from "../mcp/env.js";
import { isEmulator } from "./urls.js";

/**
 * How long an access token lives: a working day by default, so a connector that never refreshes
 * keeps working (ACCESS_TOKEN_SECONDS per deployment). A long life does not delay revocation:
 * every request checks the token's grant and the account (verify.ts).
 */
export const ACCESS_TOKEN_SECONDS = envNumber("ACCESS_TOKEN_SECONDS", 24 * 3600, { min: 60 });
const ALG = "ES256";

export type GrantKind = "client" | "device";

export interface AccessClaims {
  uid: string;
  resource: string;
  scopes: string[];
  clientId: string;
  grantId: string;
  grantKind: GrantKind;
  device?: { id: string; kind: DeviceKind; name: string };
  expiresAt: number;
  issuedAt: number;
}

let privateJwk: Promise<JWK & { kid: string }> | undefined;

/** The private signing key (authorization server only). */
function signingJwk(): Promise<JWK & { kid: string }> {
  return (privateJwk ??= loadSigningJwk().catch((err: unknown) => {
    privateJwk = undefined;
    throw err;
  }));
}

async function loadSigningJwk(): Promise<JWK & { kid: string }> {
  const secret = process.env.OAUTH_SIGNING_KEY;
  if (secret) return { alg: ALG, ...(JSON.parse(secret) as JWK & { kid: string }) };
  if (!isEmulator()) throw new Error("OAUTH_SIGNING_KEY is not set: create it with `firebase functions:secrets:set OAUTH_SIGNING_KEY` (see README)");
  const ref = firestore().collection("oauthKeys").doc("emulator");
  return firestore().runTransaction(async (tx) => {
    const existing = (await tx.get(ref)).data() as { jwk?: JWK & { kid: string } } | undefined;
    if (existing?.jwk) return existing.jwk;
    const { privateKey } = await generateKeyPair(ALG, { extractable: true });
    const jwk = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: ALG, use: "sig" };
    tx.create(ref, { jwk });
    return jwk;
  });
}

/** The public keys, served at the authorization server's /jwks. */
export async function publicJwks(): Promise<{ keys: JWK[] }> {
  const { d: _private, ...pub } = await signingJwk();
  return { keys: [pub] };
}

export async function signAccessToken(issuer: string, c: Omit<AccessClaims, "expiresAt" | "issuedAt">): Promise<{ token: string; expiresIn: number }> {
  const jwk = await signingJwk();
  const key = await importJWK(jwk, ALG);
  const token = await new SignJWT({
    client_id: c.clientId,
    scope: c.scopes.join(" "),
    gid: c.grantId,
    gk: c.grantKind,
    ...(c.device ? { dev: c.device } : {}),
  })
    .setProtectedHeader({ alg: ALG, kid: jwk.kid, typ: "at+jwt" })
    .setIssuer(issuer)
    .setSubject(c.uid)
    .setAudience(c.resource)
    .setIssuedAt()
    .setJti(randomUUID())
    .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
    .sign(key);
  return { token, expiresIn: ACCESS_TOKEN_SECONDS };
}

const jwksByIssuer = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** Verifies signature, issuer, type and expiry; the audience is checked by the caller (SDK helper). */
export async function verifyAccessJwt(token: string, issuer: string, audience?: string): Promise<AccessClaims> {
  let jwks = jwksByIssuer.get(issuer);
  if (!jwks) jwksByIssuer.set(issuer, (jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`), { timeoutDuration: 5000, cooldownDuration: 30_000 })));
  const { payload } = await jwtVerify(token, jwks, { issuer, typ: "at+jwt", algorithms: [ALG], ...(audience ? { audience } : {}) });
  return toClaims(payload);
}

function toClaims(p: JWTPayload): AccessClaims {
  const aud = Array.isArray(p.aud) ? p.aud[0] : p.aud;
  if (!p.sub || !aud || typeof p.gid !== "string" || (p.gk !== "client" && p.gk !== "device")) throw new Error("malformed access token");
  return {
    uid: p.sub,
    resource: aud,
    scopes: typeof p.scope === "string" && p.scope ? p.scope.split(" ") : [],
    clientId: String(p.client_id ?? ""),
    grantId: p.gid,
    grantKind: p.gk,
    device: p.dev as AccessClaims["device"],
    expiresAt: p.exp ?? 0,
    issuedAt: p.iat ?? 0,
  };
}

/** Our tokens name our issuer; Firebase ID tokens name securetoken.google.com. */
export function issuerOf(token: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as { iss?: unknown };
    return typeof payload.iss === "string" ? payload.iss : undefined;
  } catch {
    return undefined;
  }
}
