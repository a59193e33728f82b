// Turns a bearer token into a Caller under a policy. The MCP SDK's `verifyBearerToken` does the
// framing (header parsing, audience = this function's URL per RFC 8707, expiry, scopes) with this
// verifier; the shared layer answers failures with the SDK's challenge (`resource_metadata`).
// Two kinds of token arrive: Firebase ID tokens (programmatic clients, where the deployment accepts
// them: auth/id-tokens.ts) and our own access tokens (OAuth clients and paired devices), told apart
// by their header (ours are RFC 9068 `at+jwt`). Each is decoded and its audience checked once, here,
// with its signature; the endpoint asks the SDK for no second audience check.
import { decodeProtectedHeader } from "jose";
import { getAuth, type DecodedIdToken } from "firebase-admin/auth";
import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from "@modelcontextprotocol/server";
import { ToolError } from "../core/errors.js";
import { DependencyUnavailable } from "../platform/deadline.js";
import { adminApp } from "../platform/firebase.js";
import { accountState } from "./accounts.js";
import type { Caller } from "./caller.js";
import { grantActive } from "./grants.js";
import { idTokenRefusal, idTokens } from "./id-tokens.js";
import { signUpRefusal } from "./sign-up.js";
import type { AccessPolicy, CredentialKind } from "./policy.js";
import { ACCESS_TOKEN_TYPE, verifyAccessJwt } from "./tokens.js";

const refuse = (message: string) => new OAuthError(OAuthErrorCode.InvalidToken, message);

const KIND_NAMES: Record<CredentialKind, string> = {
  "id-token": "a Firebase ID token",
  oauth: "an OAuth access token",
  device: "a device token",
};

/**
 * One request's verifier: the caller it verified is kept here (`caller`), for the endpoint to put
 * in the request's scope; the AuthInfo the SDK sees carries no caller.
 */
export class CallerVerifier implements OAuthTokenVerifier {
  /** Who the verified token is for, once verifyAccessToken has succeeded. */
  caller: Caller | undefined;

  constructor(
    private readonly policy: AccessPolicy,
    private readonly issuer: string,
    private readonly resource: string,
  ) {}

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    try {
      return isAccessToken(token) ? await this.fromAccessToken(token) : await this.fromIdToken(token);
    } catch (err) {
      if (err instanceof OAuthError) throw err;
      if (err instanceof ToolError && err.kind === "unauthenticated") throw refuse(err.message);
      if (err instanceof DependencyUnavailable) throw new OAuthError(OAuthErrorCode.TemporarilyUnavailable, err.message);
      // Firestore or Auth unreachable: a temporary failure on our side, not a bad token (clients
      // that got "invalid_token" would throw their tokens away and make the person sign in again).
      throw new OAuthError(OAuthErrorCode.TemporarilyUnavailable, "Sign-in could not be checked right now: try again in a few seconds");
    }
  }

  private accepts(kind: CredentialKind): void {
    if (this.policy.accept.includes(kind)) return;
    const wanted = this.policy.accept.map((k) => KIND_NAMES[k]).join(" or ");
    throw refuse(`This endpoint does not accept ${KIND_NAMES[kind]}; send ${wanted}`);
  }

  private async fromIdToken(token: string): Promise<AuthInfo> {
    const decoded = await verifyIdToken(token).catch(() => {
      throw refuse("The bearer token is invalid or expired: sign in again and send a fresh token");
    });
    // A paired desktop agent's own Firebase identity (uid device_…, claim `device`) exists only for
    // the Firestore documents its rules open; at a function it is refused wherever it is sent.
    if (isDeviceIdentity(decoded)) throw refuse("This endpoint does not accept a device's Firebase sign-in; a device uses its device token, a person their own sign-in");
    this.accepts("id-token");
    // Only the ID tokens the deployment accepts (auth/id-tokens.ts), judged on the account's current claims.
    if (idTokens.accept === "none") throw refuse(idTokenRefusal({})!);
    const account = await accountState(decoded.uid);
    if (decoded.iat < account.validAfterSeconds) throw refuse("This token was revoked: sign in again");
    const refusal = idTokenRefusal(account.claims) ?? (await signUpRefusal({ email: decoded.email, emailVerified: decoded.email_verified }));
    if (refusal) throw refuse(refusal);
    // An ID token is the user themself, valid for every function of the project.
    this.caller = { uid: decoded.uid, claims: account.claims, credential: "id-token", scopes: ["*"] };
    return { token, clientId: "firebase", scopes: this.policy.scopes ?? [], expiresAt: decoded.exp, resource: new URL(this.resource) };
  }

  private async fromAccessToken(token: string): Promise<AuthInfo> {
    // Issuer and audience (this function's URL, RFC 8707) are checked here, before any read for the grant.
    const claims = await verifyAccessJwt(token, this.issuer, this.resource).catch(() => {
      throw refuse("The access token is invalid, expired or not issued for this resource: refresh it or sign in again");
    });
    const kind: CredentialKind = claims.grantKind === "device" ? "device" : "oauth";
    this.accepts(kind);
    if (kind === "device" && (!claims.device || !this.policy.devices?.includes(claims.device.kind))) {
      throw refuse(`This endpoint does not accept a ${claims.device?.kind ?? "device"} token`);
    }
    // One read of the grant on every request (so revocation works at once), beside the account check.
    const [active, account] = await Promise.all([grantActive(claims.grantKind, claims.grantId, claims.uid), accountState(claims.uid)]);
    if (!active) throw refuse(kind === "device" ? "This device was unpaired: pair it again" : "Access for this app was revoked: connect it again");
    // "Sign out everywhere" (revokeRefreshTokens) ends app and device access too.
    if (claims.issuedAt < account.validAfterSeconds) throw refuse("Your sessions were signed out: connect again");
    this.caller = {
      uid: claims.uid,
      claims: account.claims,
      credential: kind,
      scopes: claims.scopes,
      clientId: claims.clientId,
      ...(claims.device ? { device: claims.device } : {}),
    };
    return { token, clientId: claims.clientId, scopes: claims.scopes, expiresAt: claims.expiresAt, resource: new URL(claims.resource) };
  }
}

/** Our access tokens say so in their header (`typ: at+jwt`); anything else is taken for a Firebase ID token. */
function isAccessToken(token: string): boolean {
  try {
    return decodeProtectedHeader(token).typ === ACCESS_TOKEN_TYPE;
  } catch {
    return false;
  }
}

const isDeviceIdentity = (decoded: DecodedIdToken): boolean => decoded.device !== undefined || decoded.kind !== undefined || decoded.uid.startsWith("device_");

// Verified ID tokens, so an agent's many calls with one token pay for verification once. The
// account itself is re-checked through accountState (disabled, revoked, claims changed).
const verifiedIdTokens = new Map<string, DecodedIdToken>();
async function verifyIdToken(token: string): Promise<DecodedIdToken> {
  const hit = verifiedIdTokens.get(token);
  if (hit && hit.exp * 1000 > Date.now()) return hit;
  const decoded = await getAuth(adminApp()).verifyIdToken(token, false);
  if (verifiedIdTokens.size >= 1000) verifiedIdTokens.delete(verifiedIdTokens.keys().next().value!);
  verifiedIdTokens.set(token, decoded);
  return decoded;
}
