// Who is calling: a Firebase Auth ID token (the Auth emulator locally) becomes a Caller.
// OAuth 2.1 access tokens for Claude's remote connectors will be verified here too (later issue):
// `verifyBearer` is the one seam every protected domain goes through.
import { getAuth } from "firebase-admin/auth";
import { adminApp } from "../platform/firebase.js";
import { unauthenticated } from "../mcp/errors.js";

export interface Caller {
  uid: string;
  /** Custom claims on the token, e.g. `{clinician: true}` or `{admin: true}`. */
  claims: Record<string, unknown>;
}

const RESERVED_CLAIMS = new Set([
  "aud", "auth_time", "exp", "firebase", "iat", "iss", "sub", "uid", "user_id", "email", "email_verified", "name", "picture",
]);

// Verified tokens, so a client's every request does not pay for verification again (an agent
// sends many calls with one token). Entries end with the token's own expiry; revocation is not
// checked per request either way (verifyIdToken without checkRevoked).
const verified = new Map<string, { caller: Caller; expiresAt: number }>();
const MAX_CACHED = 1000;

/** Reads `Authorization: Bearer <token>`; throws an unauthenticated error when absent or invalid. */
export async function verifyBearer(authorization: string | undefined): Promise<Caller> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  const token = match?.[1];
  if (!token) throw unauthenticated();
  const hit = verified.get(token);
  if (hit && hit.expiresAt > Date.now()) return hit.caller;
  try {
    const decoded = await getAuth(adminApp()).verifyIdToken(token, false);
    const claims: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(decoded)) if (!RESERVED_CLAIMS.has(k)) claims[k] = v;
    const caller: Caller = { uid: decoded.uid, claims };
    if (verified.size >= MAX_CACHED) verified.delete(verified.keys().next().value!);
    verified.set(token, { caller, expiresAt: decoded.exp * 1000 });
    return caller;
  } catch {
    verified.delete(token);
    throw unauthenticated("The bearer token is invalid or expired: sign in again and send a fresh Firebase ID token");
  }
}

export const hasClaim = (caller: Caller, claim: string): boolean => caller.claims[claim] === true;
