// GET /authorize starts the authorization-code flow: checks the client and its redirect URI, PKCE
// S256 and the resource (one of our protected functions), keeps the request, and sends the browser
// to /consent, which signs the person in if needed, asks (or remembers) their consent, and
// redirects back with a single-use code and `iss` (RFC 9207).
import { FieldValue } from "firebase-admin/firestore";
import { functionOf, functionUrl, issuerUrl } from "../../../auth/urls.js";
import type { HttpReply, HttpRequest } from "../../../http/route.js";
import { firestore } from "../../../platform/firebase.js";
import { ClientError, redirectAllowed, resolveClient, unverifiableRedirect } from "../clients.js";
import { errorPage, escapeHtml, hidden, page } from "../pages.js";
import { resourceByName } from "../scopes.js";
import { csrfToken, csrfValid, readSession, type Session } from "../session.js";
import { col, expiresIn, randomId, secret, sha256 } from "../store.js";
import { limited } from "../limits.js";
import { fields, redirect, route } from "./route.js";
import { signInRedirect } from "./signin.js";
import { OAUTH_PATHS } from "../../../contracts/oauth.js";

const REQUEST_SECONDS = 600;
const CODE_SECONDS = 60;

interface PendingRequest {
  clientId: string;
  clientName: string;
  clientHost: string;
  /** Where the code goes, shown on the consent page whatever the client's description says: the host of an https redirect, else its scheme and host. */
  redirectHost: string;
  registration: string;
  redirectUri: string;
  state: string | null;
  codeChallenge: string;
  resource: string;
  resourceUrl: string;
  scopes: string[];
  mayRefresh: boolean;
}

function backToClient(req: HttpRequest, redirectUri: string, params: Record<string, string | null | undefined>): HttpReply {
  const url = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v != null) url.searchParams.set(k, v);
  url.searchParams.set("iss", issuerUrl(req.headers));
  return redirect(url.toString());
}

/**
 * Where a redirect URI sends the code, as the consent page names it: the host of an https URI; for
 * any other, its scheme too, since `com.evil.app://claude.ai/cb` goes to whichever app claims that
 * scheme, not to claude.ai.
 */
function redirectShown(uri: string): string {
  const u = new URL(uri);
  if (u.protocol === "https:") return u.host;
  return u.host ? `${u.protocol}//${u.host}` : u.protocol;
}

const authorize = route(
  "GET",
  OAUTH_PATHS.authorize,
  async (req) => {
    const q = req.query;
    const wait = await limited(req, { bucket: "authorize", limit: 60, windowSeconds: 600 });
    if (wait) return errorPage("Too many requests", `Too many sign-in attempts from your network. Try again in ${wait} seconds.`, 429);
    if (!q.client_id) return errorPage("Cannot connect", "The app did not say who it is (client_id is missing).");
    let client;
    try {
      client = await resolveClient(q.client_id);
    } catch (err) {
      return errorPage("Cannot connect", err instanceof ClientError ? err.message : "The app could not be identified.");
    }
    // Until the redirect URI is known to be the client's, errors are shown here, never redirected.
    if (!q.redirect_uri || !redirectAllowed(client, q.redirect_uri)) {
      return errorPage("Cannot connect", "The app asked to return to an address it has not registered (redirect_uri mismatch).");
    }
    // Malformed requests are shown here rather than redirected: anyone can register a client, and
    // redirecting errors without the person's consent would make this an open redirector.
    const fail = (error: string, description: string) => errorPage("Cannot connect", `The app sent an invalid request (${error}): ${description}.`);
    if (q.response_type !== "code") return fail("unsupported_response_type", "response_type must be code");
    if (!q.code_challenge || q.code_challenge_method !== "S256") return fail("invalid_request", "PKCE is required: send code_challenge with code_challenge_method=S256");
    if (!/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge)) return fail("invalid_request", "code_challenge must be a base64url SHA-256 (43 characters)");
    if (!q.resource) return fail("invalid_target", "resource is required: the URL of the MCP server to access");
    const name = functionOf(q.resource, req.headers);
    const target = name ? resourceByName(name) : undefined;
    if (!target) return fail("invalid_target", "resource is not an MCP server of this authorization server");
    const available = Object.keys(target.scopes);
    // offline_access asks for a refresh token, which every client that may refresh gets anyway.
    const asked = q.scope ? q.scope.split(" ").filter((s) => s && s !== "offline_access") : [];
    const scopes = asked.length ? asked : available;
    if (!scopes.length || scopes.some((s) => !available.includes(s))) return fail("invalid_scope", `scope must be among: ${available.join(" ")}`);
    const pending: PendingRequest = {
      clientId: client.clientId,
      clientName: client.name,
      clientHost: client.host,
      redirectHost: redirectShown(q.redirect_uri),
      registration: client.registration,
      redirectUri: q.redirect_uri,
      state: q.state ?? null,
      codeChallenge: q.code_challenge,
      resource: target.name,
      resourceUrl: functionUrl(target.name, req.headers),
      scopes,
      mayRefresh: client.mayRefresh,
    };
    const rid = randomId();
    await col("requests").doc(rid).create({ ...pending, createdAt: FieldValue.serverTimestamp(), expiresAt: expiresIn(REQUEST_SECONDS) });
    return redirect(`${req.baseUrl}/consent?rid=${rid}`);
  },
  { body: "none" },
);

async function loadRequest(rid: string | undefined): Promise<PendingRequest | undefined> {
  if (!rid || !/^[0-9a-f]{32}$/.test(rid)) return undefined;
  const doc = await col("requests").doc(rid).get();
  if (!doc.exists || doc.get("expiresAt").toMillis() < Date.now()) return undefined;
  return doc.data() as PendingRequest;
}

const consentId = (uid: string, clientId: string) => sha256(`${uid}\n${clientId}`);

async function approve(req: HttpRequest, session: Session, rid: string, p: PendingRequest): Promise<HttpReply> {
  const code = secret("mcpac");
  const fresh = await firestore().runTransaction(async (tx) => {
    const ref = col("requests").doc(rid);
    if (!(await tx.get(ref)).exists) return false; // a second click on Allow
    tx.delete(ref);
    tx.create(col("codes").doc(sha256(code)), { ...p, uid: session.uid, createdAt: FieldValue.serverTimestamp(), expiresAt: expiresIn(CODE_SECONDS) });
    tx.set(col("consents").doc(consentId(session.uid, p.clientId)), {
      uid: session.uid,
      clientId: p.clientId,
      approved: FieldValue.arrayUnion(...p.scopes.map((s) => `${p.resource}:${s}`)),
      redirectUris: FieldValue.arrayUnion(p.redirectUri),
      updatedAt: FieldValue.serverTimestamp(),
    }, { merge: true });
    return true;
  });
  if (!fresh) return errorPage("Already answered", "This request was already answered. Go back to the app.");
  return backToClient(req, p.redirectUri, { code, state: p.state });
}

function consentPage(session: Session, rid: string, p: PendingRequest): HttpReply {
  const target = resourceByName(p.resource)!;
  const source =
    p.registration === "metadata-document"
      ? `described by ${p.clientHost}${p.redirectHost === p.clientHost ? "" : `; it returns to ${p.redirectHost}`}`
      : `registered by the app itself; it returns to ${p.redirectHost}`;
  return page(
    "Allow access?",
    `<h1>Allow ${escapeHtml(p.clientName)} to use ${escapeHtml(target.title)}?</h1>
<p class="muted">${escapeHtml(p.clientName)} (${escapeHtml(source)}) asks for access to your account <b>${escapeHtml(session.email)}</b>.</p>
<p>It will be able to:</p><ul class="scopes">${p.scopes.map((s) => `<li>${escapeHtml(target.scopes[s] ?? s)}</li>`).join("")}</ul>
<p class="muted">Only allow apps you trust. You can revoke access at any time on the <a href="apps">connected apps</a> page.</p>
<form method="post" action="consent">${hidden({ rid, csrf: csrfToken(session) })}
<div class="row"><button class="primary" type="submit" name="decision" value="allow">Allow</button>
<button class="secondary" type="submit" name="decision" value="deny">Deny</button></div></form>`,
  );
}

/**
 * A remembered consent answers without a page only for the exact redirect URI the person approved
 * for this client, and only where that URI identifies who gets the code (https): a loopback port or
 * a custom scheme could be any program on the computer, whatever client asked, a dynamically
 * registered one or one described by a metadata document (one click on the consent page again).
 */
async function silentlyApproved(session: Session, p: PendingRequest): Promise<boolean> {
  if (unverifiableRedirect(p.redirectUri)) return false;
  const consent = await col("consents").doc(consentId(session.uid, p.clientId)).get();
  const approved = (consent.get("approved") as string[] | undefined) ?? [];
  const redirects = (consent.get("redirectUris") as string[] | undefined) ?? [];
  return redirects.includes(p.redirectUri) && p.scopes.every((s) => approved.includes(`${p.resource}:${s}`));
}

const showConsent = route(
  "GET",
  "/consent",
  async (req) => {
    const rid = req.query.rid ?? "";
    const p = await loadRequest(rid);
    if (!p) return errorPage("Request expired", "This sign-in request is unknown or expired. Start connecting again from the app.");
    const session = await readSession(req.headers);
    if (!session) return signInRedirect(req, `/consent?rid=${rid}`);
    if (await silentlyApproved(session, p)) return approve(req, session, rid, p);
    return consentPage(session, rid, p);
  },
  { body: "none" },
);

const decideConsent = route("POST", "/consent", async (req) => {
  const f = fields(req.body);
  const p = await loadRequest(f.rid);
  if (!p) return errorPage("Request expired", "This sign-in request is unknown or expired. Start connecting again from the app.");
  const session = await readSession(req.headers);
  if (!session) return signInRedirect(req, `/consent?rid=${f.rid}`);
  if (!csrfValid(session, f.csrf)) return errorPage("Form expired", "Reload the page and try again.", 403);
  if (f.decision !== "allow") {
    await col("requests").doc(f.rid!).delete();
    return backToClient(req, p.redirectUri, { error: "access_denied", error_description: "The user denied access", state: p.state });
  }
  return approve(req, session, f.rid!, p);
});

export const authorizeRoutes = [authorize, showConsent, decideConsent];
