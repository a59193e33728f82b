// POST /token: authorization code (PKCE S256), refresh token (rotated; a reused one revokes its
// whole family) and device code (RFC 8628); a device's credential is a refresh token rotated the
// same way (a reused one unpairs the device). Public clients only: no client secrets.
import { createHash, randomBytes } from "node:crypto";
import { FieldValue, type DocumentData, type Transaction } from "firebase-admin/firestore";
import { accountState } from "../../../auth/accounts.js";
import { DEVICES, grantRef } from "../../../auth/grants.js";
import type { HttpReply, HttpRequest } from "../../../http/route.js";
import { ToolError } from "../../../core/errors.js";
import { firestore } from "../../../platform/firebase.js";
import { writesSafeToRepeat } from "../../../platform/deadline.js";
import { accessTokenFor, firebaseSignInFor, openSuccessor, refreshTokenRecord, resourceUrl, sealSuccessor, type GrantRef } from "../issue.js";
import { functionOf, functionUrl } from "../../../auth/urls.js";
import { DEVICE_CLIENTS, isDeviceClient } from "../scopes.js";
import { revokeGrant } from "../grants.js";
import { col, sha256 } from "../store.js";
import { fields, noStore, oauthError, route } from "./route.js";
import { DEVICE_CODE_GRANT, OAUTH_PATHS, type DeviceTokenResponse } from "../../../contracts/oauth.js";

const invalidGrant = (why: string) => oauthError(400, "invalid_grant", why);
/**
 * How long a repeated refresh with the same token gets the same successor back (while that
 * successor is unused). Parallel requests can wait out a cold start of several seconds before
 * they run; the same successor is never a second chain, so the grace can cover that.
 */
const REFRESH_GRACE_MS = 60_000;
/**
 * How long the same code (or device-code) exchange sent again gets its first answer back, while
 * that answer is unused: a client whose exchange timed out after it was saved retries at once.
 */
const EXCHANGE_RETRY_MS = 60_000;
// Every exchange and refresh runs in writesSafeToRepeat: a repeat within its window gets the first
// answer back, so one that timed out says that sending it again is safe.

export const tokenRoute = route(
  "POST",
  OAUTH_PATHS.token,
  async (req) => {
    const f = fields(req.body);
    switch (f.grant_type) {
      case "authorization_code":
        return exchangeCode(req, f);
      case "refresh_token":
        return refresh(req, f);
      case DEVICE_CODE_GRANT:
        return exchangeDeviceCode(req, f);
      case undefined:
        return oauthError(400, "invalid_request", "grant_type is required");
      default:
        return oauthError(400, "unsupported_grant_type", `grant_type ${f.grant_type} is not supported; use authorization_code, refresh_token or ${DEVICE_CODE_GRANT}`);
    }
  },
  { allowNullOrigin: true },
);

async function exchangeCode(req: HttpRequest, f: Record<string, string>): Promise<HttpReply> {
  for (const name of ["code", "redirect_uri", "client_id", "code_verifier"]) {
    if (!f[name]) return oauthError(400, "invalid_request", `${name} is required`);
  }
  const ref = col("codes").doc(sha256(f.code!));
  const grantId = randomBytes(16).toString("hex");
  // Only whoever holds the code and its verifier can open the answer kept for a retry.
  const answerKey = `${f.code}\n${f.code_verifier}`;
  const outcome = await writesSafeToRepeat(() =>
    firestore().runTransaction(async (tx) => {
      const code = (await tx.get(ref)).data();
      if (!code) return { error: invalidGrant("The authorization code is invalid or expired: start the sign-in again") };
      const challenge = createHash("sha256").update(f.code_verifier!).digest("base64url");
      if (code.usedAt) {
        // The same exchange sent again moments later (its answer was lost, or it timed out after
        // it was saved): the same grant and refresh token, while neither has been used or revoked.
        const repeat =
          code.clientId === f.client_id && code.redirectUri === f.redirect_uri && challenge === code.codeChallenge && Date.now() - code.usedAt.toMillis() < EXCHANGE_RETRY_MS
            ? await repeatedAnswer(tx, code, answerKey)
            : undefined;
        if (repeat) return repeat;
        // A replayed code: revoke everything it produced (RFC 6749 §4.1.2).
        if (code.grantId) tx.update(grantRef("client", code.grantId), { revokedAt: FieldValue.serverTimestamp() });
        return { error: invalidGrant("The authorization code was already used; the tokens issued for it are revoked") };
      }
      if (code.expiresAt.toMillis() < Date.now()) return { error: invalidGrant("The authorization code expired: start the sign-in again") };
      if (code.clientId !== f.client_id) return { error: invalidGrant("The authorization code was issued to another client") };
      if (code.redirectUri !== f.redirect_uri) return { error: invalidGrant("redirect_uri does not match the one of the authorization request") };
      if (challenge !== code.codeChallenge) return { error: invalidGrant("code_verifier does not match the code_challenge (PKCE)") };
      if (f.resource && !sameResource(req, f.resource, code.resourceUrl)) {
        return { error: oauthError(400, "invalid_target", "resource does not match the one of the authorization request") };
      }
      const client = code.registration === "dynamic" ? await tx.get(col("clients").doc(code.clientId)) : undefined;
      const grant = { uid: code.uid, grantId, grantKind: "client", clientId: code.clientId, resource: code.resourceUrl, scopes: code.scopes } as GrantRef;
      // Every client that may refresh gets a refresh token, whether or not it asked for offline_access
      // (some connectors never ask, and would otherwise lose access when the access token expires).
      // Saved with the grant, in one commit, and kept sealed for a retry of this exchange.
      const refreshToken = code.mayRefresh !== false ? refreshTokenRecord(grant, { rotating: true }) : undefined;
      if (refreshToken) tx.create(col("refreshTokens").doc(refreshToken.id), refreshToken.data);
      tx.update(ref, { usedAt: FieldValue.serverTimestamp(), grantId, answer: sealSuccessor(answerKey, refreshToken?.token ?? "") });
      tx.create(grantRef("client", grantId), {
        uid: code.uid,
        clientId: code.clientId,
        clientName: code.clientName,
        clientHost: code.clientHost,
        resource: code.resource,
        resourceUrl: code.resourceUrl,
        scopes: code.scopes,
        createdAt: FieldValue.serverTimestamp(),
      });
      // A client's first use: it is no longer a never-used registration for the cleanup to remove.
      if (client?.exists && !client.get("firstUsedAt")) tx.update(client.ref, { expiresAt: null, firstUsedAt: FieldValue.serverTimestamp() });
      return { grant, refreshToken: refreshToken?.token };
    }),
  );
  if ("error" in outcome) return outcome.error!;
  const body: Record<string, unknown> = { ...(await accessTokenFor(req, outcome.grant)) };
  if (outcome.refreshToken) body.refresh_token = outcome.refreshToken;
  return { status: 200, body, headers: noStore };
}

/**
 * The first answer to a code exchange, for the same exchange sent again: its grant (not revoked)
 * and its refresh token (not yet used). Undefined when there is none to give: then it is a replay.
 */
async function repeatedAnswer(tx: Transaction, code: DocumentData, answerKey: string): Promise<{ grant: GrantRef; refreshToken?: string } | undefined> {
  const sealed = typeof code.answer === "string" && code.grantId ? openSuccessor(answerKey, code.answer) : undefined;
  if (sealed === undefined) return undefined;
  const grantDoc = await tx.get(grantRef("client", code.grantId));
  if (!grantDoc.exists || grantDoc.get("revokedAt")) return undefined;
  if (sealed) {
    const token = await tx.get(col("refreshTokens").doc(sha256(sealed)));
    if (!token.exists || token.get("usedAt")) return undefined;
  }
  const grant = { uid: code.uid, grantId: code.grantId, grantKind: "client", clientId: code.clientId, resource: code.resourceUrl, scopes: code.scopes } as GrantRef;
  return sealed ? { grant, refreshToken: sealed } : { grant };
}

async function refresh(req: HttpRequest, f: Record<string, string>): Promise<HttpReply> {
  if (!f.refresh_token) return oauthError(400, "invalid_request", "refresh_token is required");
  const presented = f.refresh_token;
  const ref = col("refreshTokens").doc(sha256(presented));
  const outcome = await writesSafeToRepeat(() =>
    firestore().runTransaction(async (tx) => {
      const token = (await tx.get(ref)).data();
      if (!token) return { error: invalidGrant("The refresh token is invalid: sign in again") };
      const grantDoc = await tx.get(grantRef(token.grantKind, token.grantId));
      const grant = {
        uid: token.uid,
        grantId: token.grantId,
        grantKind: token.grantKind,
        clientId: token.clientId,
        resource: token.resource,
        scopes: token.scopes,
        ...(token.device ? { device: token.device } : {}),
      } as GrantRef;
      const revokeFamily = () => {
        // Reuse of a rotated refresh token means it leaked: revoke the whole family (RFC 9700 §4.14.2);
        // a device's copied credential unpairs the device.
        if (grantDoc.exists) tx.update(grantDoc.ref, { revokedAt: FieldValue.serverTimestamp() });
        return token.grantKind === "device"
          ? { error: invalidGrant("This device credential was already used (a copy of it?); for safety the device was unpaired: pair it again"), unpair: token.grantId as string }
          : { error: invalidGrant("This refresh token was already used; for safety the app's access is revoked: connect it again") };
      };
      let successor: string | undefined;
      if (token.usedAt) {
        // A client refreshing from several requests at once presents one token twice within
        // moments: it gets the same successor again, never a second chain. Anything else is reuse.
        const sealed = typeof token.successor === "string" ? openSuccessor(presented, token.successor) : undefined;
        const inGrace = token.clientId === f.client_id && Date.now() - token.usedAt.toMillis() < REFRESH_GRACE_MS;
        if (!sealed || !inGrace) return revokeFamily();
        const next = (await tx.get(col("refreshTokens").doc(sha256(sealed)))).data();
        if (!next || next.usedAt) return revokeFamily(); // the chain has moved on since
        successor = sealed;
      }
      if (token.clientId !== f.client_id) return { error: invalidGrant("The refresh token was issued to another client") };
      if (!grantDoc.exists || grantDoc.get("revokedAt")) {
        return { error: invalidGrant(token.grantKind === "device" ? "This device was unpaired: pair it again" : "Access was revoked: connect the app again") };
      }
      if (token.expiresAt && token.expiresAt.toMillis() < Date.now()) return { error: invalidGrant("The refresh token expired: sign in again") };
      if (f.resource && !sameResource(req, f.resource, token.resource)) return { error: oauthError(400, "invalid_target", "resource does not match this grant") };
      // Device credentials paired before they rotated start rotating at their next use.
      if ((token.rotating || token.grantKind === "device") && !successor) {
        const next = refreshTokenRecord(grant, { rotating: true });
        tx.create(col("refreshTokens").doc(next.id), next.data);
        tx.update(ref, { usedAt: FieldValue.serverTimestamp(), successor: sealSuccessor(presented, next.token) });
        successor = next.token;
      }
      return { grant, successor, grantCreatedSeconds: (grantDoc.get("createdAt")?.toMillis() ?? 0) / 1000 };
    }),
  );
  if ("error" in outcome) {
    // An unpaired desktop agent also loses its Firebase sign-in (outside the transaction: Auth, not Firestore).
    if ("unpair" in outcome && outcome.unpair) await revokeGrant("device", outcome.unpair);
    return outcome.error!;
  }
  const { grant, successor, grantCreatedSeconds } = outcome;
  try {
    const account = await accountState(grant.uid);
    // "Sign out everywhere" (revokeRefreshTokens) ends apps' and devices' grants made before it.
    if (grantCreatedSeconds < account.validAfterSeconds) return invalidGrant("Your sessions were signed out: connect again");
  } catch (err) {
    if (err instanceof ToolError && err.kind === "unavailable") return oauthError(503, "temporarily_unavailable", err.message);
    return invalidGrant(err instanceof ToolError ? err.message : "The account is disabled or gone: sign in again");
  }
  const body: Record<string, unknown> = { ...(await accessTokenFor(req, grant)) };
  if (successor) body.refresh_token = successor;
  if (grant.device?.kind === "desktop-agent") Object.assign(body, await firebaseSignInFor(grant));
  return { status: 200, body, headers: noStore };
}

/** Whether a `resource` parameter names the same function as a grant's canonical URL. */
const sameResource = (req: HttpRequest, asked: string, canonical: string): boolean => {
  const name = functionOf(asked, req.headers);
  return name !== undefined && functionUrl(name, req.headers) === canonical;
};

async function exchangeDeviceCode(req: HttpRequest, f: Record<string, string>): Promise<HttpReply> {
  if (!f.device_code || !f.client_id) return oauthError(400, "invalid_request", "device_code and client_id are required");
  if (!isDeviceClient(f.client_id)) return oauthError(400, "invalid_client", `Unknown device client ${f.client_id}`);
  const client = DEVICE_CLIENTS[f.client_id];
  const ref = col("deviceAuthorizations").doc(sha256(f.device_code));
  const deviceId = randomBytes(12).toString("hex");
  const outcome = await writesSafeToRepeat(() =>
    firestore().runTransaction(async (tx) => {
      const auth = (await tx.get(ref)).data();
      if (!auth || auth.clientId !== f.client_id) return { error: invalidGrant("Unknown device_code: start pairing again") };
      if (auth.status === "consumed") {
        // The same exchange sent again moments later (its answer was lost): the same device and credential.
        const repeat = auth.consumedAt && Date.now() - auth.consumedAt.toMillis() < EXCHANGE_RETRY_MS ? await repeatedPairing(tx, req, auth, f.device_code!) : undefined;
        return repeat ?? { error: invalidGrant("This device_code was already exchanged: start pairing again") };
      }
      if (auth.expiresAt.toMillis() < Date.now()) return { error: oauthError(400, "expired_token", "The code expired before it was confirmed: start pairing again") };
      if (auth.status === "denied") return { error: oauthError(400, "access_denied", "The user declined to pair this device") };
      if (auth.status === "pending") {
        const tooSoon = auth.lastPolledAt && Date.now() - auth.lastPolledAt.toMillis() < (auth.interval * 1000) / 2;
        // RFC 8628 §3.5: each slow_down adds 5 seconds to the interval the device must keep.
        tx.update(ref, { lastPolledAt: FieldValue.serverTimestamp(), ...(tooSoon ? { interval: auth.interval + 5 } : {}) });
        return tooSoon
          ? { error: oauthError(400, "slow_down", `Poll at most every ${auth.interval + 5} seconds`) }
          : { error: oauthError(400, "authorization_pending", "Waiting for the user to confirm the code") };
      }
      const grant = pairedGrant(req, auth, deviceId);
      // The credential is saved with the device, in one commit, and kept sealed for a retry of this exchange.
      const credential = refreshTokenRecord(grant, { rotating: true });
      tx.create(col("refreshTokens").doc(credential.id), credential.data);
      tx.update(ref, { status: "consumed", deviceId, consumedAt: FieldValue.serverTimestamp(), answer: sealSuccessor(f.device_code!, credential.token) });
      tx.create(firestore().collection(DEVICES).doc(deviceId), {
        uid: auth.uid,
        kind: client.kind,
        name: auth.name,
        clientId: f.client_id,
        createdAt: FieldValue.serverTimestamp(),
      });
      return { grant, credential: credential.token };
    }),
  );
  if ("error" in outcome) return outcome.error!;
  const grant = outcome.grant;
  const body: DeviceTokenResponse = {
    ...(await accessTokenFor(req, grant)),
    refresh_token: outcome.credential,
    device_id: grant.grantId,
    resource: grant.resource,
    ...(grant.device?.kind === "desktop-agent" ? await firebaseSignInFor(grant) : {}),
  };
  return { status: 200, body, headers: noStore };
}

const pairedGrant = (req: HttpRequest, auth: DocumentData, deviceId: string): GrantRef => {
  const client = DEVICE_CLIENTS[auth.clientId as keyof typeof DEVICE_CLIENTS];
  return { uid: auth.uid as string, grantId: deviceId, grantKind: "device", clientId: auth.clientId, resource: resourceUrl(req, client.resource), scopes: [...client.scopes], device: { id: deviceId, kind: client.kind, name: auth.name as string } };
};

/** The first answer to a device-code exchange, while the device is paired and its first credential unused. */
async function repeatedPairing(tx: Transaction, req: HttpRequest, auth: DocumentData, deviceCode: string): Promise<{ grant: GrantRef; credential: string } | undefined> {
  const credential = typeof auth.answer === "string" && auth.deviceId ? openSuccessor(deviceCode, auth.answer) : undefined;
  if (!credential) return undefined;
  const device = await tx.get(grantRef("device", auth.deviceId));
  const token = await tx.get(col("refreshTokens").doc(sha256(credential)));
  if (!device.exists || device.get("revokedAt") || !token.exists || token.get("usedAt")) return undefined;
  return { grant: pairedGrant(req, auth, auth.deviceId), credential };
}
