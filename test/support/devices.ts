// Pairing a device the way a person does it: the device asks the authorization server for a code
// (RFC 8628), the person signs in on the /device page and confirms, the device polls /token.
// Everything goes through the real `oauth` function and the Auth emulator; nothing is minted here.
import { DEVICE_CLIENTS, type DeviceClientId, type DeviceKind } from "../../functions/src/core/catalog.js";
import { DEVICE_CODE_GRANT, OAUTH_PATHS, type DeviceAuthorizationResponse, type FirebaseSettings } from "../../functions/src/contracts/oauth.js";
import type { Page } from "puppeteer-core";
import { emailFor, functionUrl, TEST_PASSWORD, type TestUser } from "./emulators.js";

export type { DeviceKind } from "../../functions/src/core/catalog.js";
const CLIENT_ID = Object.fromEntries(Object.entries(DEVICE_CLIENTS).map(([id, c]) => [c.kind, id])) as Record<DeviceKind, DeviceClientId>;

export interface PairedDevice {
  deviceId: string;
  /** The long-lived device credential (a refresh token that is not rotated). */
  credential: string;
  accessToken: string;
  firebaseCustomToken?: string;
  firebase?: FirebaseSettings;
}

export const oauthUrl = (path = ""): string => functionUrl("oauth", path);
export { TEST_PASSWORD };

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const,
});

/** Opens the sign-in page as a fresh browser: its pre-session cookie and the form's CSRF token. */
export async function signInForm(headers: Record<string, string> = {}): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(oauthUrl("/signin?next=%2Fapps"), { headers });
  const cookie = res.headers.get("set-cookie")?.split(";")[0] ?? "";
  return { cookie, csrf: csrfOf(await res.text()) };
}

/** Posts the sign-in form as a browser would (the page first, then the form with its CSRF token). */
export async function postSignIn(email: string, password: string, headers: Record<string, string> = {}): Promise<Response> {
  const { cookie, csrf } = await signInForm(headers);
  return fetch(oauthUrl("/signin"), { ...form({ email, password, next: "/apps", csrf }), headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers } });
}

/** Signs `user` in on the authorization server's page (as a browser would) and returns its session cookie. */
export async function signInCookie(user: TestUser, headers: Record<string, string> = {}): Promise<string> {
  const res = await postSignIn(emailFor(user.uid), TEST_PASSWORD, headers);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith("__session="))?.split(";")[0];
  if (res.status !== 303 || !cookie) throw new Error(`sign-in failed: HTTP ${res.status} ${await res.text()}`);
  return cookie;
}

/** Signs `user` in on the sign-in form `page` shows, as a person types it, and waits for the page it leads to. */
export async function signInOnPage(page: Page, user: TestUser): Promise<void> {
  await page.type("#email", emailFor(user.uid));
  await page.type("#password", TEST_PASSWORD);
  await Promise.all([page.waitForNavigation(), page.click("button.primary")]);
}

/** The hidden CSRF field of a page's form. */
export const csrfOf = (html: string): string => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

/** Confirms (or denies) a device's user code as `user`, through the /device page. */
export async function confirmUserCode(user: TestUser, userCode: string, decision: "approve" | "deny" = "approve", headers: Record<string, string> = {}): Promise<void> {
  const cookie = await signInCookie(user, headers);
  const page = await fetch(oauthUrl(`${OAUTH_PATHS.device}?user_code=${encodeURIComponent(userCode)}`), { headers: { cookie, ...headers } });
  const html = await page.text();
  if (!html.includes(userCode)) throw new Error(`the device page does not show ${userCode}: ${html.slice(0, 300)}`);
  const res = await fetch(oauthUrl(OAUTH_PATHS.device), { ...form({ user_code: userCode, csrf: csrfOf(html), decision }), headers: { "content-type": "application/x-www-form-urlencoded", cookie, ...headers } });
  if (res.status !== 200) throw new Error(`confirming the code failed: HTTP ${res.status}`);
}

export async function startDeviceAuthorization(kind: DeviceKind, name: string): Promise<DeviceAuthorizationResponse> {
  const res = await fetch(oauthUrl(OAUTH_PATHS.deviceAuthorization), form({ client_id: CLIENT_ID[kind], device_name: name }));
  if (res.status !== 200) throw new Error(`device_authorization failed: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as never;
}

export async function pollDeviceToken(kind: DeviceKind, deviceCode: string): Promise<Response> {
  return fetch(oauthUrl(OAUTH_PATHS.token), form({ grant_type: DEVICE_CODE_GRANT, device_code: deviceCode, client_id: CLIENT_ID[kind] }));
}

/** Drives the whole flow and returns the device's credentials. */
export async function pairDevice(user: TestUser, kind: DeviceKind, name = `test ${kind}`): Promise<PairedDevice> {
  const started = await startDeviceAuthorization(kind, name);
  await confirmUserCode(user, started.user_code);
  const res = await pollDeviceToken(kind, started.device_code);
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`device token failed: ${JSON.stringify(body)}`);
  return {
    deviceId: body.device_id as string,
    credential: body.refresh_token as string,
    accessToken: body.access_token as string,
    ...(body.firebase_custom_token ? { firebaseCustomToken: body.firebase_custom_token as string, firebase: body.firebase as FirebaseSettings } : {}),
  };
}

/** A desktop agent's own Firebase sign-in: its custom token exchanged for an ID token at the Auth emulator. */
export async function deviceIdToken(device: PairedDevice): Promise<string> {
  const res = await fetch(`http://${device.firebase!.authEmulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=demo`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: device.firebaseCustomToken, returnSecureToken: true }),
  });
  const body = (await res.json()) as { idToken?: string; refreshToken?: string };
  if (!body.idToken) throw new Error(`the device could not sign in: ${JSON.stringify(body)}`);
  return body.idToken;
}

/** Exchanges a device credential for a fresh access token. */
export async function refreshDevice(kind: DeviceKind, credential: string): Promise<Response> {
  return fetch(oauthUrl(OAUTH_PATHS.token), form({ grant_type: "refresh_token", refresh_token: credential, client_id: CLIENT_ID[kind] }));
}
