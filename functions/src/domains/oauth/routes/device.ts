// Pairing a device (RFC 8628): the desktop agent or Figma plugin asks for a code, shows it, and
// polls /token; the person opens /device, signs in, checks the code and the device's name, and
// confirms. The device then holds a long-lived credential of its own (revocable on /apps).
import { randomInt } from "node:crypto";
import { FieldValue } from "firebase-admin/firestore";
import type { HttpReply, HttpRequest } from "../../../http/route.js";
import { attempt, limited, waitText, type Limit } from "../limits.js";
import { safeDeviceName } from "../../../core/device-name.js";
import { escapeHtml, hidden, page } from "../pages.js";
import { DEVICE_CLIENTS, isDeviceClient } from "../scopes.js";
import { csrfToken, csrfValid, readSession } from "../session.js";
import { col, expiresIn, secret, sha256 } from "../store.js";
import { fields, noStore, oauthError, route } from "./route.js";
import { signInRedirect } from "./signin.js";
import { OAUTH_PATHS, type DeviceAuthorizationResponse } from "../../../contracts/oauth.js";

const CODE_SECONDS = 600;
const POLL_SECONDS = 2;
// No vowels or look-alikes: codes never spell words and survive being read aloud.
const ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

const newUserCode = () => Array.from({ length: 8 }, (_, i) => (i === 4 ? "-" : "") + ALPHABET[randomInt(ALPHABET.length)]).join("");
const normalize = (code: string) => code.toUpperCase().replace(/[^A-Z]/g, "").replace(/^(.{4})(.{4})$/, "$1-$2");

const deviceAuthorization = route(
  "POST",
  OAUTH_PATHS.deviceAuthorization,
  async (req) => {
    const f = fields(req.body);
    if (!f.client_id || !isDeviceClient(f.client_id)) {
      return oauthError(400, "invalid_client", `client_id must be one of ${Object.keys(DEVICE_CLIENTS).join(", ")}`);
    }
    const wait = await limited(req, { bucket: "device", limit: 30, windowSeconds: 3600 });
    if (wait) return oauthError(429, "slow_down", `Too many pairing attempts; try again in ${waitText(wait)}`);
    const name = safeDeviceName(f.device_name, DEVICE_CLIENTS[f.client_id].title);
    const deviceCode = secret("mcpdc");
    const userCode = newUserCode();
    await col("deviceAuthorizations")
      .doc(sha256(deviceCode))
      .create({ clientId: f.client_id, name, userCode, status: "pending", interval: POLL_SECONDS, createdAt: FieldValue.serverTimestamp(), expiresAt: expiresIn(CODE_SECONDS) });
    const verification = req.baseUrl + OAUTH_PATHS.device;
    return {
      status: 200,
      headers: noStore,
      body: {
        device_code: deviceCode,
        user_code: userCode,
        verification_uri: verification,
        verification_uri_complete: `${verification}?user_code=${userCode}`,
        expires_in: CODE_SECONDS,
        interval: POLL_SECONDS,
      } satisfies DeviceAuthorizationResponse,
    };
  },
  { allowNullOrigin: true },
);

async function pendingByCode(userCode: string) {
  const snap = await col("deviceAuthorizations").where("userCode", "==", normalize(userCode)).where("status", "==", "pending").limit(1).get();
  const doc = snap.docs[0];
  if (!doc || doc.get("status") !== "pending" || doc.get("expiresAt").toMillis() < Date.now()) return undefined;
  return doc;
}

function enterCodePage(error?: string, status = 400): HttpReply {
  return page(
    "Pair a device",
    `<h1>Pair a device</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<p class="muted">Enter the code your desktop agent or Figma plugin shows.</p>
<form method="get" action="device"><label for="user_code">Code</label><input id="user_code" name="user_code" type="text" autocomplete="off" required placeholder="ABCD-EFGH">
<button class="primary" type="submit">Continue</button></form>`,
    { status: error ? status : 200 },
  );
}

// Wrong codes are what guessing looks like: a few per person and per address, then a wait. Each
// entry is counted before the code is looked up (a burst gets no extra tries) and a right code
// gives its count back: only failures stay counted, so a person pairing many devices is never slowed.
const WRONG_CODE_LIMITS = (req: HttpRequest, uid: string): Limit[] => [
  { bucket: "device-code-person", limit: 10, windowSeconds: 3600, key: uid },
  { bucket: "device-code-address", limit: 20, windowSeconds: 3600, scaled: false },
];

/** The pending authorization a code names, or the page to show instead (unknown code, too many wrong ones). */
async function lookUp(req: HttpRequest, uid: string, code: string): Promise<{ pending: FirebaseFirestore.QueryDocumentSnapshot } | { refusal: HttpReply }> {
  const counted = await attempt(req, ...WRONG_CODE_LIMITS(req, uid));
  if ("wait" in counted) return { refusal: enterCodePage(`Too many wrong codes were entered. Try again in ${waitText(counted.wait)}.`, 429) };
  const pending = await pendingByCode(code);
  if (pending) {
    await counted.succeeded();
    return { pending };
  }
  return { refusal: enterCodePage("That code is unknown or expired. Check it, or start pairing again on the device.") };
}

const showDevice = route(
  "GET",
  OAUTH_PATHS.device,
  async (req) => {
    const session = await readSession(req.headers);
    const code = req.query.user_code ?? "";
    if (!session) return signInRedirect(req, `${OAUTH_PATHS.device}${code ? `?user_code=${encodeURIComponent(code)}` : ""}`);
    if (!code) return enterCodePage();
    const found = await lookUp(req, session.uid, code);
    if ("refusal" in found) return found.refusal;
    const { pending } = found;
    const client = DEVICE_CLIENTS[pending.get("clientId") as keyof typeof DEVICE_CLIENTS];
    return page(
      "Pair a device",
      `<h1>Pair a ${escapeHtml(client.noun)}?</h1>
<p>A <b>${escapeHtml(client.title)}</b> named <b>&ldquo;${escapeHtml(pending.get("name"))}&rdquo;</b> asks to connect to your account <b>${escapeHtml(session.email)}</b>.</p>
<p>Check that the device shows this code:</p><p class="code">${escapeHtml(pending.get("userCode"))}</p>
<p class="error">Confirm only a code you started yourself, on your own device. If someone sent you this code or link, cancel: they would get access to your account.</p>
<p>The ${escapeHtml(client.title)} will be able to ${escapeHtml(client.does)}, as you, until you unpair it on the connected-apps page.</p>
<form method="post" action="device">${hidden({ user_code: pending.get("userCode"), csrf: csrfToken(session) })}
<div class="row"><button class="primary" type="submit" name="decision" value="approve">Pair device</button>
<button class="secondary" type="submit" name="decision" value="deny">Cancel</button></div></form>`,
    );
  },
  { body: "none" },
);

const decideDevice = route("POST", OAUTH_PATHS.device, async (req: HttpRequest) => {
  const session = await readSession(req.headers);
  const f = fields(req.body);
  if (!session) return signInRedirect(req, `${OAUTH_PATHS.device}?user_code=${encodeURIComponent(f.user_code ?? "")}`);
  if (!csrfValid(session, f.csrf)) return enterCodePage("This form expired. Enter the code again.");
  const found = await lookUp(req, session.uid, f.user_code ?? "");
  if ("refusal" in found) return found.refusal;
  const { pending } = found;
  const approve = f.decision === "approve";
  await pending.ref.update({ status: approve ? "approved" : "denied", uid: session.uid, decidedAt: FieldValue.serverTimestamp() });
  return approve
    ? page("Device paired", `<h1>Device paired</h1><p><b>&ldquo;${escapeHtml(pending.get("name"))}&rdquo;</b> is now connected to your account. You can close this page.</p><p class="muted"><a href="apps">Connected apps and devices</a></p>`)
    : page("Pairing cancelled", `<h1>Pairing cancelled</h1><p>The device was not paired.</p>`);
});

export const deviceRoutes = [deviceAuthorization, showDevice, decideDevice];

