// Access tokens are JWTs (RFC 9068 `at+jwt`) signed by the authorization server with ES256 (the
// oauth function: domains/oauth/signing.ts) and verified here, by every protected function,
// against its JWKS. No hand-written crypto: jose does it.
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import type { DeviceKind } from "./policy.js";

/** The one signature algorithm of our access tokens. */
export const ALG = "ES256";
/** The header type of our access tokens (RFC 9068), how a verifier tells them from ID tokens. */
export const ACCESS_TOKEN_TYPE = "at+jwt";

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

const jwksByIssuer = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

/** Verifies signature, issuer, type and expiry, and the audience when given (decoding the token once). */
export async function verifyAccessJwt(token: string, issuer: string, audience?: string): Promise<AccessClaims> {
  let jwks = jwksByIssuer.get(issuer);
  if (!jwks) jwksByIssuer.set(issuer, (jwks = createRemoteJWKSet(new URL(`${issuer}/jwks`), { timeoutDuration: 5000, cooldownDuration: 30_000 })));
  const { payload } = await jwtVerify(token, jwks, { issuer, typ: ACCESS_TOKEN_TYPE, algorithms: [ALG], ...(audience ? { audience } : {}) });
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
