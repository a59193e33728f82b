// Pairing a device (RFC 8628): the desktop agent or Figma plugin asks for a code, shows it, and
// polls /token; the person opens /device, signs in, checks the code and the device's name, and
// confirms. The device then holds a long-lived credential of its own (revocable on /apps).
import { randomInt } from "node:crypto";
import { FieldValue } from "firebase-admin/firestore";
import type { HttpReply, HttpRequest } from "../../../http/route.js";
import { limited } from "../limits.js";
import { escapeHtml, hidden, page } from "../pages.js";
import { DEVICE_CLIENTS, isDeviceClient } from "../scopes.js";
import { csrfToken, csrfValid, readSession } from "../session.js";
import { col, expiresIn, secret, sha256 } from "../store.js";
import { fields, noStore, oauthError, route } from "./route.js";
import { signInRedirect } from "./signin.js";

const CODE_SECONDS = 600;
const POLL_SECONDS = 2;
// No vowels or look-alikes: codes never spell words and survive being read aloud.
const ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

const newUserCode = () => Array.from({ length: 8 }, (_, i) => (i === 4 ? "-" : "") + ALPHABET[randomInt(ALPHABET.length)]).join("");
const normalize = (code: string) => code.toUpperCase().replace(/[^A-Z]/g, "").replace(/^(.{4})(.{4})$/, "$1-$2");

const deviceAuthorization = route(
  "POST",
  "/device_authorization",
  async (req) => {
    const f = fields(req.body);
    if (!f.client_id || !isDeviceClient(f.client_id)) {
      return oauthError(400, "invalid_client", `client_id must be one of ${Object.keys(DEVICE_CLIENTS).join(", ")}`);
    }
    const wait = await limited(req, "device", 30, 3600);
    if (wait) return oauthError(429, "slow_down", `Too many pairing attempts; try again in ${wait} seconds`);
    const name = (f.device_name ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, 60) || DEVICE_CLIENTS[f.client_id].title;
    const deviceCode = secret("mcpdc");
    const userCode = newUserCode();
    await col("deviceAuthorizations")
      .doc(sha256(deviceCode))
      .create({ clientId: f.client_id, name, userCode, status: "pending", interval: POLL_SECONDS, createdAt: FieldValue.serverTimestamp(), expiresAt: expiresIn(CODE_SECONDS) });
    const verification = `${req.baseUrl}/device`;
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
      },
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

function enterCodePage(error?: string): HttpReply {
  return page(
    "Pair a device",
    `<h1>Pair a device</h1>${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<p class="muted">Enter the code your desktop agent or Figma plugin shows.</p>
<form method="get" action="device"><label for="user_code">Code</label><input id="user_code" name="user_code" type="text" autocomplete="off" required placeholder="ABCD-EFGH">
<button class="primary" type="submit">Continue</button></form>`,
    { status: error ? 400 : 200 },
  );
}

const showDevice = route(
  "GET",
  "/device",
  async (req) => {
    const session = await readSession(req.headers);
    const code = req.query.user_code ?? "";
    if (!session) return signInRedirect(req, `/device${code ? `?user_code=${encodeURIComponent(code)}` : ""}`);
    if (!code) return enterCodePage();
    const pending = await pendingByCode(code);
    if (!pending) return enterCodePage("That code is unknown or expired. Check it, or start pairing again on the device.");
    const client = DEVICE_CLIENTS[pending.get("clientId") as keyof typeof DEVICE_CLIENTS];
    return page(
      "Pair a device",
      `<h1>Pair ${escapeHtml(pending.get("name"))}?</h1>
<p>Signed in as <b>${escapeHtml(session.email)}</b>.</p>
<p>Check that the device shows this code:</p><p class="code">${escapeHtml(pending.get("userCode"))}</p>
<p>The ${escapeHtml(client.title)} will be able to ${escapeHtml(client.does)}, as you, until you unpair it on the connected-apps page.</p>
<form method="post" action="device">${hidden({ user_code: pending.get("userCode"), csrf: csrfToken(session) })}
<div class="row"><button class="primary" type="submit" name="decision" value="approve">Pair device</button>
<button class="secondary" type="submit" name="decision" value="deny">Cancel</button></div></form>`,
    );
  },
  { body: "none" },
);

const decideDevice = route("POST", "/device", async (req: HttpRequest) => {
  const session = await readSession(req.headers);
  const f = fields(req.body);
  if (!session) return signInRedirect(req, `/device?user_code=${encodeURIComponent(f.user_code ?? "")}`);
  if (!csrfValid(session, f.csrf)) return enterCodePage("This form expired. Enter the code again.");
  const pending = await pendingByCode(f.user_code ?? "");
  if (!pending) return enterCodePage("That code is unknown or expired. Start pairing again on the device.");
  const approve = f.decision === "approve";
  await pending.ref.update({ status: approve ? "approved" : "denied", uid: session.uid, decidedAt: FieldValue.serverTimestamp() });
  return approve
    ? page("Device paired", `<h1>Device paired</h1><p><b>${escapeHtml(pending.get("name"))}</b> is now connected to your account. You can close this page.</p><p class="muted"><a href="apps">Connected apps and devices</a></p>`)
    : page("Pairing cancelled", `<h1>Pairing cancelled</h1><p>The device was not paired.</p>`);
});

export const deviceRoutes = [deviceAuthorization, showDevice, decideDevice];

