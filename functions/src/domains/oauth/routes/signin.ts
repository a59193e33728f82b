// Signing in on the authorization server's pages: email + password, a sign-in link by email, or
// Google (when enabled), all through Firebase Auth; then a session cookie and back to `next`.
import { randomBytes } from "node:crypto";
import { FieldValue } from "firebase-admin/firestore";
import { decodeJwt } from "jose";
import type { HttpReply, HttpRequest } from "../../../http/route.js";
import { signUpRefusal } from "../../../auth/sign-up.js";
import { googleAuthUri, sendSignInLink, signInWithEmailLink, signInWithGoogle, signInWithPassword, type SignInResult } from "../../../platform/identity.js";
import { firestore } from "../../../platform/firebase.js";
import { errorPage, escapeHtml, page, signInPage } from "../pages.js";
import { csrfValid, endSession, readSession, signInCsrf, signInCsrfValid, signInDevice, signInDeviceCookie, signInNonceCookie, signInNonceValid, startSession } from "../session.js";
import { addressOf, attempt, limited, waitText, type Limit } from "../limits.js";
import { expiresIn } from "../store.js";
import { fields, redirect, route } from "./route.js";

const PURPOSE = "Sign in to connect an app or device to your account.";
const STATE = /^[0-9a-f]{32}$/;
const methods = () => new Set((process.env.SIGN_IN_METHODS ?? "password,email-link").split(",").map((s) => s.trim()));
const pending = () => firestore().collection("oauthSignIns");

/** Only our own pages may be returned to after sign-in (no open redirect). */
const safeNext = (next: string | undefined): string => (next && /^\/(consent|device|apps|home)(\?|$)/.test(next) ? next : "/apps");

export const signInRedirect = (req: HttpRequest, next: string): HttpReply => redirect(`${req.baseUrl}/signin?next=${encodeURIComponent(next)}`);

function form(req: HttpRequest, next: string, error?: string, email?: string, status?: number): HttpReply {
  const csrf = signInCsrf(req.headers, req.baseUrl);
  return signInPage({
    action: `${req.baseUrl}/signin`,
    next,
    csrf: csrf.token,
    ...(csrf.setCookie ? { setCookie: csrf.setCookie } : {}),
    purpose: PURPOSE,
    emailLink: methods().has("email-link"),
    google: methods().has("google"),
    ...(error ? { error } : {}),
    ...(email ? { email } : {}),
    ...(status ? { status } : {}),
  });
}

/** Every sign-in form carries the pre-session CSRF token; one posted from elsewhere changes nothing. */
const forged = (req: HttpRequest, f: Record<string, string>): HttpReply | undefined =>
  signInCsrfValid(req.headers, f.csrf) ? undefined : form(req, safeNext(f.next), "This form expired. Sign in again.", undefined, 403);

// Password guessing is slowed per address, per account from one address (IPv6: per /64), and per
// account from everywhere with a much higher ceiling: spreading guesses over many addresses still
// meets a limit. A browser that signed in to the account before (its device cookie) has its own
// allowance instead, so strangers failing from elsewhere do not lock the owner out of it. Only
// wrong passwords stay counted.
const PASSWORD_FAILURES = (req: HttpRequest, email: string, device: string | undefined): Limit[] =>
  device
    ? [{ bucket: "signin-device", limit: 10, windowSeconds: 600, key: device }]
    : [
        { bucket: "signin-account-address", limit: 10, windowSeconds: 600, key: `${email}\n${addressOf(req)}` },
        { bucket: "signin-account", limit: 100, windowSeconds: 600, key: email },
      ];

// Sign-in emails are limited per address, per account from one address, and per account from
// everywhere with a higher ceiling: a stranger asking for links to someone's address uses up their
// own allowance, not the owner's, and cannot fill an inbox; the owner's own browser (its device
// cookie) has its own allowance beside the account's.
const EMAIL_LINKS = (req: HttpRequest, email: string, device: string | undefined): Limit[] => [
  { bucket: "email-link", limit: 10, windowSeconds: 3600 },
  ...(device
    ? [{ bucket: "email-link-device", limit: 3, windowSeconds: 3600, key: device }]
    : [
        { bucket: "email-link-account-address", limit: 3, windowSeconds: 3600, key: `${email}\n${addressOf(req)}` },
        { bucket: "email-link-account", limit: 10, windowSeconds: 3600, key: email },
      ]),
];

async function finish(req: HttpRequest, next: string, result: SignInResult, failure: string, email?: string): Promise<HttpReply> {
  if (!result.ok) return form(req, next, failure, email);
  const account = decodeJwt(result.idToken) as { email?: string; email_verified?: boolean };
  const refused = await signUpRefusal({ email: account.email, emailVerified: account.email_verified });
  if (refused) return errorPage("Not open to this account", refused, 403);
  const cookies = [await startSession(result.idToken, req.baseUrl)];
  if (account.email) cookies.push(await signInDeviceCookie(account.email, req.baseUrl));
  return redirect(`${req.baseUrl}${safeNext(next)}`, { "set-cookie": cookies });
}

const REASONS: Record<string, string> = {
  USER_DISABLED: "This account is disabled.",
  TOO_MANY_ATTEMPTS_TRY_LATER: "Too many attempts. Wait a few minutes and try again.",
};

export const signInRoutes = [
  route("GET", "/signin", async (req) => form(req, safeNext(req.query.next)), { body: "none" }),
  route("POST", "/signin", async (req) => {
    const f = fields(req.body);
    const next = safeNext(f.next);
    const refused = forged(req, f);
    if (refused) return refused;
    if (!methods().has("password")) return form(req, next, "Password sign-in is not enabled here.");
    if (!f.email || !f.password) return form(req, next, "Enter your email and password.", f.email);
    const email = f.email.toLowerCase();
    const tooMany = (wait: number) => form(req, next, `Too many attempts. Try again in ${waitText(wait)}.`, f.email, 429);
    const wait = await limited(req, { bucket: "signin", limit: 30, windowSeconds: 600 });
    if (wait) return tooMany(wait);
    const counted = await attempt(req, ...PASSWORD_FAILURES(req, email, await signInDevice(req.headers, email)));
    if ("wait" in counted) return tooMany(counted.wait);
    const result = await signInWithPassword(f.email, f.password);
    if (result.ok) await counted.succeeded();
    const reason = result.ok ? "" : (REASONS[result.reason.split(" ")[0] ?? ""] ?? "Wrong email or password.");
    return finish(req, next, result, reason, f.email);
  }),
  route("POST", "/signin/email-link", async (req) => {
    const f = fields(req.body);
    const next = safeNext(f.next);
    const refused = forged(req, f);
    if (refused) return refused;
    if (!methods().has("email-link") || !f.email) return form(req, next, "Enter your email to get a sign-in link.");
    const email = f.email.toLowerCase();
    const wait = await limited(req, ...EMAIL_LINKS(req, email, await signInDevice(req.headers, email)));
    if (wait) return form(req, next, `Too many sign-in links requested. Try again in ${waitText(wait)}.`, f.email, 429);
    // No sign-in email to an address that could not get in anyway (the link itself verifies it),
    // and the same page either way: asking for links tells no one who may sign up.
    const state = randomBytes(16).toString("hex");
    if (!(await signUpRefusal({ email, emailVerified: true }))) {
      await pending().doc(state).create({ email: f.email, next, createdAt: FieldValue.serverTimestamp(), expiresAt: expiresIn(3600) });
      const sent = await sendSignInLink(f.email, `${req.baseUrl}/signin/email-link?state=${state}`);
      if (!sent.ok) return form(req, next, "The sign-in link could not be sent. Check the address or use your password.", f.email);
    }
    // The link only works in this browser (a nonce cookie): someone else's link cannot sign you in as them.
    return page("Check your email", `<h1>Check your email</h1><p>If <b>${escapeHtml(f.email)}</b> may sign in here, we sent it a sign-in link. Open it in this browser to continue.</p>`, {
      headers: { "set-cookie": signInNonceCookie(state, req.baseUrl) },
    });
  }),
  route(
    "GET",
    "/signin/email-link",
    async (req) => {
      const state = req.query.state ?? "";
      if (!STATE.test(state) || !req.query.oobCode) return errorPage("Sign-in link expired", "Request a new sign-in link.");
      if (!signInNonceValid(req.headers, state)) return errorPage("Open the link in the same browser", "This sign-in link was requested in another browser. Request a new link here.", 403);
      const doc = await pending().doc(state).get();
      if (!doc.exists || doc.get("expiresAt").toMillis() < Date.now()) return errorPage("Sign-in link expired", "Request a new sign-in link.");
      await doc.ref.delete();
      return finish(req, doc.get("next"), await signInWithEmailLink(doc.get("email"), req.query.oobCode), "This sign-in link is invalid or was already used.");
    },
    { body: "none" },
  ),
  route("POST", "/signin/google", async (req) => {
    const f = fields(req.body);
    const next = safeNext(f.next);
    const refused = forged(req, f);
    if (refused) return refused;
    if (!methods().has("google")) return form(req, next, "Google sign-in is not enabled here.");
    const state = randomBytes(16).toString("hex");
    const started = await googleAuthUri(`${req.baseUrl}/signin/google/callback?state=${state}`);
    if (!started.ok) return form(req, next, "Google sign-in is not available right now. Use your email instead.");
    await pending().doc(state).create({ sessionId: started.sessionId, next, createdAt: FieldValue.serverTimestamp(), expiresAt: expiresIn(600) });
    return redirect(started.authUri, { "set-cookie": signInNonceCookie(state, req.baseUrl) });
  }),
  route(
    "GET",
    "/signin/google/callback",
    async (req) => {
      const state = req.query.state ?? "";
      if (!STATE.test(state) || !signInNonceValid(req.headers, state)) return errorPage("Sign-in expired", "Start again from the app you were connecting.");
      const doc = await pending().doc(state).get();
      if (!doc.exists) return errorPage("Sign-in expired", "Start again from the app you were connecting.");
      await doc.ref.delete();
      const requestUri = `${req.baseUrl}/signin/google/callback?${new URLSearchParams(req.query).toString()}`;
      return finish(req, doc.get("next"), await signInWithGoogle(requestUri, doc.get("sessionId")), "Google sign-in failed. Try again or use your email.");
    },
    { body: "none" },
  ),
  route("POST", "/signout", async (req) => {
    const session = await readSession(req.headers);
    if (session && !csrfValid(session, fields(req.body).csrf)) return redirect(`${req.baseUrl}/apps`);
    return redirect(`${req.baseUrl}/signin`, { "set-cookie": endSession(req.baseUrl) });
  }),
];
