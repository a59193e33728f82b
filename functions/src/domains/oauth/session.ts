// The signed-in person on the authorization server's pages: a Firebase session cookie
// (`__session`, the one cookie name Firebase Hosting forwards), HttpOnly, SameSite=Lax, scoped to
// this function's path. Forms carry a CSRF token derived from the cookie (double submit): a page on
// another site can neither read the cookie nor compute the token.
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { getAuth } from "firebase-admin/auth";
import { adminApp } from "../../platform/firebase.js";
import { derivedSecret } from "./signing.js";

const COOKIE = "__session";
const SESSION_DAYS = 7;

export interface Session {
  uid: string;
  email: string;
  cookie: string;
  /** When the person last proved who they are (signed in), seconds since the epoch. */
  authTime: number;
}

/** A sign-in this recent confirms a destructive form without the password (accounts without one sign in again). */
export const FRESH_SIGN_IN_SECONDS = 5 * 60;
export const signedInFreshly = (session: Session, now = Date.now()): boolean => now / 1000 - session.authTime <= FRESH_SIGN_IN_SECONDS;

type Headers = Record<string, string | string[] | undefined>;

function cookieValue(headers: Headers, cookie = COOKIE): string | undefined {
  const raw = headers.cookie;
  const header = Array.isArray(raw) ? raw.join("; ") : (raw ?? "");
  for (const part of header.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === cookie) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

export async function readSession(headers: Headers): Promise<Session | undefined> {
  const cookie = cookieValue(headers);
  if (!cookie) return undefined;
  try {
    const decoded = await getAuth(adminApp()).verifySessionCookie(cookie, true);
    return { uid: decoded.uid, email: decoded.email ?? decoded.uid, cookie, authTime: decoded.auth_time };
  } catch {
    return undefined;
  }
}

function attributes(baseUrl: string, maxAge: number): string {
  const url = new URL(baseUrl);
  return `Path=${url.pathname}; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${url.protocol === "https:" ? "; Secure" : ""}`;
}

/** The Set-Cookie header that starts a session for a freshly signed-in ID token. */
export async function startSession(idToken: string, baseUrl: string): Promise<string> {
  const expiresIn = SESSION_DAYS * 24 * 3600 * 1000;
  const cookie = await getAuth(adminApp()).createSessionCookie(idToken, { expiresIn });
  return `${COOKIE}=${encodeURIComponent(cookie)}; ${attributes(baseUrl, expiresIn / 1000)}`;
}

export const endSession = (baseUrl: string): string => `${COOKIE}=; ${attributes(baseUrl, 0)}`;

// Email-link and Google sign-in leave the page and come back with a `state`: the browser that
// started it holds a nonce cookie bound to that state, so a link made for someone else's account
// cannot sign this browser in as them (login CSRF).
const NONCE = "__signin";
const nonceFor = (state: string) => createHash("sha256").update(`signin:${state}`).digest("base64url");
export const signInNonceCookie = (state: string, baseUrl: string): string => `${NONCE}=${nonceFor(state)}; ${attributes(baseUrl, 3600)}`;
export const signInNonceValid = (headers: Headers, state: string): boolean => cookieValue(headers, NONCE) === nonceFor(state);

export const csrfToken = (session: Session): string => createHash("sha256").update(`csrf:${session.cookie}`).digest("base64url");

export function csrfValid(session: Session, token: unknown): boolean {
  if (typeof token !== "string") return false;
  const a = Buffer.from(csrfToken(session));
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

// Before sign-in there is no session to derive a CSRF token from: the sign-in page sets a random
// cookie and its forms carry a token derived from it, so a page elsewhere (even on a localhost
// port of the person's computer) cannot post a sign-in form and sign this browser into its account.
const PRE_SESSION = "__signin_csrf";
const preSessionToken = (value: string) => createHash("sha256").update(`signin-csrf:${value}`).digest("base64url");

/** The pre-session CSRF token for this browser, and the Set-Cookie header when it has none yet. */
export function signInCsrf(headers: Headers, baseUrl: string): { token: string; setCookie?: string } {
  const existing = cookieValue(headers, PRE_SESSION);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return { token: preSessionToken(existing) };
  const value = randomBytes(32).toString("base64url");
  return { token: preSessionToken(value), setCookie: `${PRE_SESSION}=${value}; ${attributes(baseUrl, 24 * 3600)}` };
}

export function signInCsrfValid(headers: Headers, token: unknown): boolean {
  const value = cookieValue(headers, PRE_SESSION);
  if (!value || typeof token !== "string") return false;
  const a = Buffer.from(preSessionToken(value));
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

// A browser that signed in to an account before holds a signed device cookie for it: its wrong
// passwords and sign-in emails count against that browser's own allowance, not the account's, so
// strangers failing from elsewhere cannot lock the owner out of the browser they use.
const DEVICE = "__signin_device";
const DEVICE_DAYS = 180;
const deviceMac = async (id: string, email: string) =>
  createHmac("sha256", await derivedSecret("signin-device")).update(`${id}\n${email.toLowerCase()}`).digest("base64url");

/** The Set-Cookie header that marks this browser as one that signed in to `email`. */
export async function signInDeviceCookie(email: string, baseUrl: string): Promise<string> {
  const id = randomBytes(16).toString("base64url");
  return `${DEVICE}=${id}.${await deviceMac(id, email)}; ${attributes(baseUrl, DEVICE_DAYS * 24 * 3600)}`;
}

/** The id of this browser's device cookie when it signed in to `email` before, else undefined. */
export async function signInDevice(headers: Headers, email: string): Promise<string | undefined> {
  const [id, mac] = (cookieValue(headers, DEVICE) ?? "").split(".");
  if (!id || !mac || !/^[A-Za-z0-9_-]{22}$/.test(id)) return undefined;
  const a = Buffer.from(await deviceMac(id, email));
  const b = Buffer.from(mac);
  return a.length === b.length && timingSafeEqual(a, b) ? id : undefined;
}
