// Signing a person in with Firebase Auth from the server (the Identity Toolkit REST API the
// Firebase client SDKs use), so the sign-in pages need no JavaScript. Locally the Auth emulator;
// in production the project's Web API key (FIREBASE_WEB_API_KEY param, not a secret).
const emulatorHost = () => process.env.FIREBASE_AUTH_EMULATOR_HOST;

function endpoint(method: string): string {
  const host = emulatorHost();
  const base = host ? `http://${host}/identitytoolkit.googleapis.com/v1` : "https://identitytoolkit.googleapis.com/v1";
  const key = host ? "emulator" : process.env.FIREBASE_WEB_API_KEY;
  if (!key) throw new Error("FIREBASE_WEB_API_KEY is not set (Project settings → General → Web API key)");
  return `${base}/${method}?key=${encodeURIComponent(key)}`;
}

async function call<T>(method: string, body: unknown): Promise<{ ok: true; value: T } | { ok: false; reason: string }> {
  const res = await fetch(endpoint(method), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const json = (await res.json().catch(() => ({}))) as T & { error?: { message?: string } };
  if (!res.ok) return { ok: false, reason: String(json.error?.message ?? `HTTP ${res.status}`) };
  return { ok: true, value: json };
}

export type SignInResult = { ok: true; idToken: string } | { ok: false; reason: string };

export async function signInWithPassword(email: string, password: string): Promise<SignInResult> {
  const r = await call<{ idToken: string }>("accounts:signInWithPassword", { email, password, returnSecureToken: true });
  return r.ok ? { ok: true, idToken: r.value.idToken } : r;
}

/** Sends a sign-in link; the link leads back to `continueUrl` with `oobCode` in its query. */
export async function sendSignInLink(email: string, continueUrl: string): Promise<{ ok: boolean; reason?: string }> {
  return call("accounts:sendOobCode", { requestType: "EMAIL_SIGNIN", email, continueUrl, canHandleCodeInApp: true });
}

export async function signInWithEmailLink(email: string, oobCode: string): Promise<SignInResult> {
  const r = await call<{ idToken: string }>("accounts:signInWithEmailLink", { email, oobCode });
  return r.ok ? { ok: true, idToken: r.value.idToken } : r;
}

/** Where to send the browser for Google sign-in, and the session id to finish it with. */
export async function googleAuthUri(continueUri: string): Promise<{ ok: true; authUri: string; sessionId: string } | { ok: false; reason: string }> {
  const r = await call<{ authUri: string; sessionId: string }>("accounts:createAuthUri", { providerId: "google.com", continueUri });
  return r.ok ? { ok: true, authUri: r.value.authUri, sessionId: r.value.sessionId } : r;
}

export async function signInWithGoogle(requestUri: string, sessionId: string): Promise<SignInResult> {
  const r = await call<{ idToken: string }>("accounts:signInWithIdp", { requestUri, sessionId, returnSecureToken: true, returnIdpCredential: false });
  return r.ok ? { ok: true, idToken: r.value.idToken } : r;
}
