// The authorization server's signing key and the access tokens it signs (only the oauth function
// signs; every protected function verifies with auth/tokens.ts against the public /jwks).
// Signing key: the OAUTH_SIGNING_KEY secret in production (a private JWK); in the emulator one is
// generated once and kept in Firestore so every local function process shares it.
import { createHash, randomUUID } from "node:crypto";
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from "jose";
import { ACCESS_TOKEN_TYPE, ALG, type AccessClaims } from "../../auth/tokens.js";
import { isEmulator } from "../../auth/urls.js";
import { envNumber } from "../../core/env.js";
import { firestore } from "../../platform/firebase.js";

/**
 * How long an access token lives: a working day by default, so a connector that never refreshes
 * keeps working (ACCESS_TOKEN_SECONDS per deployment). A long life does not delay revocation:
 * every request checks the token's grant and the account (auth/verify.ts).
 */
export const ACCESS_TOKEN_SECONDS = envNumber("ACCESS_TOKEN_SECONDS", 24 * 3600, { min: 60 });

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
  if (!isEmulator()) throw new Error("OAUTH_SIGNING_KEY is not set: create it with `firebase functions:secrets:set OAUTH_SIGNING_KEY` (see docs/configuration.md)");
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

/** A secret for one purpose (e.g. signing a cookie), derived from the signing key: nothing more to configure. */
export async function derivedSecret(purpose: string): Promise<Buffer> {
  const { d } = await signingJwk();
  return createHash("sha256").update(`${purpose}\n${d}`).digest();
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
    .setProtectedHeader({ alg: ALG, kid: jwk.kid, typ: ACCESS_TOKEN_TYPE })
    .setIssuer(issuer)
    .setSubject(c.uid)
    .setAudience(c.resource)
    .setIssuedAt()
    .setJti(randomUUID())
    .setExpirationTime(`${ACCESS_TOKEN_SECONDS}s`)
    .sign(key);
  return { token, expiresIn: ACCESS_TOKEN_SECONDS };
}
