// The current state of a user's account: disabled or not, custom claims, when tokens were last
// revoked. Tokens carry claims as they were at sign-in; health data needs them as they are now,
// so every credential is checked against this (cached for ACCOUNT_CHECK_SECONDS, default 60 s:
// a disabled account, a removed `clinician` claim, or an account a narrowed SIGN_UP no longer
// admits loses access within a minute).
import { getAuth } from "firebase-admin/auth";
import { envNumber } from "../core/env.js";
import { unauthenticated, unavailable } from "../core/errors.js";
import { adminApp } from "../platform/firebase.js";
import { signUpRefusal } from "./sign-up.js";

export interface AccountState {
  claims: Record<string, unknown>;
  /** Tokens issued (iat, seconds) before this are revoked. */
  validAfterSeconds: number;
}

const TTL_MS = envNumber("ACCOUNT_CHECK_SECONDS", 60) * 1000;
const MAX_CACHED = 5000;
const cache = new Map<string, { state: Promise<AccountState>; at: number }>();

/** The account's current state; throws unauthenticated when it is gone or disabled. */
export async function accountState(uid: string): Promise<AccountState> {
  const hit = cache.get(uid);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.state;
  const state = load(uid);
  if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
  cache.set(uid, { state, at: Date.now() });
  state.catch(() => cache.delete(uid));
  return state;
}

async function load(uid: string): Promise<AccountState> {
  // Only "no such user" means the account is gone; any other failure is ours and temporary.
  const user = await getAuth(adminApp())
    .getUser(uid)
    .catch((err: { code?: string }) => {
      if (err.code === "auth/user-not-found") return undefined;
      throw unavailable("Sign-in could not be checked right now: try again in a few seconds");
    });
  if (!user) throw unauthenticated("This account no longer exists: sign in again");
  if (user.disabled) throw unauthenticated("This account is disabled: ask the administrator to enable it");
  // Who may use the deployment is checked at every credential, not only at sign-in: an operator who
  // narrows SIGN_UP ends the access that accounts now outside it already had.
  const refused = await signUpRefusal({ email: user.email, emailVerified: user.emailVerified });
  if (refused) throw unauthenticated(refused);
  const validAfter = user.tokensValidAfterTime ? Date.parse(user.tokensValidAfterTime) / 1000 : 0;
  return { claims: { ...(user.customClaims ?? {}) }, validAfterSeconds: Math.floor(validAfter) };
}

/** Forget a user's cached state (after this instance changed it). */
export const forgetAccount = (uid: string): void => void cache.delete(uid);
