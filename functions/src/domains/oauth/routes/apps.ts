// GET /apps: the apps and devices connected to the signed-in account, each with a button that
// revokes it at once (every protected function checks the grant on every request).
import { FieldValue } from "firebase-admin/firestore";
import { DEVICES, GRANTS } from "../../../auth/grants.js";
import { revokeGrant } from "../grants.js";
import type { HttpReply } from "../../../http/route.js";
import { firestore } from "../../../platform/firebase.js";
import { escapeHtml, hidden, page } from "../pages.js";
import { DEVICE_CLIENTS, resourceByName } from "../scopes.js";
import { csrfToken, csrfValid, readSession, type Session } from "../session.js";
import { col, sha256 } from "../store.js";
import { fields, redirect, route } from "./route.js";
import { signInRedirect } from "./signin.js";

const when = (t: FirebaseFirestore.Timestamp | undefined) => (t ? t.toDate().toISOString().replace("T", " ").slice(0, 16) + " UTC" : "never");

interface Row {
  kind: "client" | "device";
  id: string;
  title: string;
  detail: string;
  created?: FirebaseFirestore.Timestamp;
  lastUsed?: FirebaseFirestore.Timestamp;
}

/** One row per app and server (each sign-in makes a grant; they are revoked together) and per device. */
async function rows(uid: string): Promise<Row[]> {
  const [grants, devices] = await Promise.all([
    firestore().collection(GRANTS).where("uid", "==", uid).get(),
    firestore().collection(DEVICES).where("uid", "==", uid).get(),
  ]);
  const apps = new Map<string, Row>();
  for (const g of grants.docs) {
    if (g.get("revokedAt")) continue;
    const key = `${g.get("clientId")}\n${g.get("resource")}`;
    const row = apps.get(key);
    const lastUsed = g.get("lastUsedAt") ?? g.get("createdAt");
    if (!row) {
      const target = resourceByName(g.get("resource"));
      apps.set(key, { kind: "client", id: g.id, title: g.get("clientName"), detail: `${target?.title ?? g.get("resource")} · via ${g.get("clientHost")}`, created: g.get("createdAt"), lastUsed });
    } else if (lastUsed && (!row.lastUsed || lastUsed.toMillis() > row.lastUsed.toMillis())) row.lastUsed = lastUsed;
  }
  const paired = devices.docs
    .filter((d) => !d.get("revokedAt"))
    .map((d): Row => ({ kind: "device", id: d.id, title: d.get("name"), detail: DEVICE_CLIENTS[d.get("clientId") as keyof typeof DEVICE_CLIENTS]?.title ?? d.get("kind"), created: d.get("createdAt"), lastUsed: d.get("lastUsedAt") }));
  return [...apps.values(), ...paired];
}

async function appsPage(session: Session): Promise<HttpReply> {
  const list = await rows(session.uid);
  const csrf = csrfToken(session);
  const table = list.length
    ? `<table><thead><tr><th>App or device</th><th>Last used</th><th></th></tr></thead><tbody>${list
        .map(
          (r) => `<tr><td><b>${escapeHtml(r.title)}</b><br><span class="muted">${escapeHtml(r.detail)} · since ${when(r.created)}</span></td><td>${when(r.lastUsed)}</td>
<td><form method="post" action="apps/revoke">${hidden({ kind: r.kind, id: r.id, csrf })}<button class="danger" type="submit">${r.kind === "device" ? "Unpair" : "Revoke"}</button></form></td></tr>`,
        )
        .join("")}</tbody></table>`
    : `<p class="muted">No apps or devices are connected.</p>`;
  return page(
    "Connected apps",
    `<h1>Connected apps and devices</h1><p class="muted">Signed in as <b>${escapeHtml(session.email)}</b>. <a href="home">Your home</a>: your settings, knowledge base and data. <a href="connect">Connect an AI app</a></p>${table}
<form method="post" action="signout">${hidden({ csrf })}<button class="secondary" type="submit">Sign out</button></form>`,
    { wide: true },
  );
}

export const appsRoutes = [
  route(
    "GET",
    "/apps",
    async (req) => {
      const session = await readSession(req.headers);
      return session ? appsPage(session) : signInRedirect(req, "/apps");
    },
    { body: "none" },
  ),
  route("POST", "/apps/revoke", async (req) => {
    const session = await readSession(req.headers);
    if (!session) return signInRedirect(req, "/apps");
    const f = fields(req.body);
    if (!csrfValid(session, f.csrf) || (f.kind !== "client" && f.kind !== "device") || !f.id) return redirect(`${req.baseUrl}/apps`);
    const revoked = { revokedAt: FieldValue.serverTimestamp() };
    if (f.kind === "device") {
      if ((await firestore().collection(DEVICES).doc(f.id).get()).get("uid") === session.uid) await revokeGrant("device", f.id);
    } else {
      const grant = await firestore().collection(GRANTS).doc(f.id).get();
      if (grant.get("uid") === session.uid) {
        // Every grant of this app for this server, and the remembered consent: reconnecting asks again.
        const same = await firestore().collection(GRANTS).where("uid", "==", session.uid).where("clientId", "==", grant.get("clientId")).get();
        const batch = firestore().batch();
        for (const g of same.docs) if (g.get("resource") === grant.get("resource") && !g.get("revokedAt")) batch.update(g.ref, revoked);
        batch.delete(col("consents").doc(sha256(`${session.uid}\n${grant.get("clientId")}`)));
        await batch.commit();
      }
    }
    return redirect(`${req.baseUrl}/apps`);
  }),
];
