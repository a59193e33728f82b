// GET /home: the signed-in person's own page (home-page.ts); POST /home/settings saves their Fotos
// settings into the store the fotos tools read; POST /home/documents/delete removes one document
// of their knowledge base; GET /home/export downloads all their data; POST /home/erase deletes it,
// confirmed with their password. The same session cookie and CSRF checks as the connected-apps page.
import { DEVICES, GRANTS } from "../../../auth/grants.js";
import { personData } from "../../../http/person.js";
import type { HttpReply, HttpRequest } from "../../../http/route.js";
import { firestore } from "../../../platform/firebase.js";
import { signInWithPassword } from "../../../platform/identity.js";
import { connectSection } from "../connect.js";
import { erasedPage, homePage, NOTICES, type Notice } from "../home-page.js";
import { attempt, waitText, type Limit } from "../limits.js";
import { csrfToken, csrfValid, endSession, FRESH_SIGN_IN_SECONDS, readSession, signedInFreshly, type Session } from "../session.js";
import { eraseEverything, exportEverything } from "../your-data.js";
import { fields, redirect, route } from "./route.js";
import { signInRedirect } from "./signin.js";

/** Apps (one per app and server) and devices still connected. */
async function connectedCount(uid: string): Promise<number> {
  const [grants, devices] = await Promise.all([firestore().collection(GRANTS).where("uid", "==", uid).get(), firestore().collection(DEVICES).where("uid", "==", uid).get()]);
  const apps = new Set(grants.docs.filter((g) => !g.get("revokedAt")).map((g) => `${g.get("clientId")}\n${g.get("resource")}`));
  return apps.size + devices.docs.filter((d) => !d.get("revokedAt")).length;
}

async function show(req: HttpRequest, session: Session, notice?: Notice, error?: string, synced?: string): Promise<HttpReply> {
  const [fotos, knowledge] = await Promise.all([personData().fotos(), personData().knowledge()]);
  const [apps, settings, documents, readwise] = await Promise.all([connectedCount(session.uid), fotos.settingFields(session.uid), knowledge.listDocuments(session.uid), knowledge.readwise.status(session.uid)]);
  const reply = homePage({ base: req.baseUrl, email: session.email, csrf: csrfToken(session), fresh: signedInFreshly(session), apps, settings, documents, readwise, connect: connectSection(req.headers), ...(synced ? { synced } : {}), ...(notice ? { notice } : {}), ...(error ? { error } : {}) });
  return error ? { ...reply, status: 400 } : reply;
}

/** The session and the form's fields of a POST, or where to send a request that has no valid ones. */
async function posted(req: HttpRequest): Promise<{ session: Session; form: Record<string, string> } | HttpReply> {
  const session = await readSession(req.headers);
  if (!session) return signInRedirect(req, "/home");
  const form = fields(req.body);
  if (!csrfValid(session, form.csrf)) return redirect(`${req.baseUrl}/home`);
  return { session, form };
}

/** Wrong passwords on the erase form, per person: the form is no way around the sign-in's limits. */
const ERASE_PASSWORD = (uid: string): Limit[] => [{ bucket: "erase-password", key: uid, limit: 5, windowSeconds: 15 * 60 }];

export const homeRoutes = [
  route(
    "GET",
    "/home",
    async (req) => {
      const session = await readSession(req.headers);
      if (!session) return signInRedirect(req, "/home");
      const done = req.query.done;
      return show(req, session, done && Object.hasOwn(NOTICES, done) ? (done as Notice) : undefined);
    },
    { body: "none" },
  ),
  route("POST", "/home/settings", async (req) => {
    const p = await posted(req);
    if (!("session" in p)) return p;
    const { csrf: _csrf, ...values } = p.form;
    try {
      await (await personData().fotos()).saveSettingsForm(p.session.uid, values);
    } catch (err) {
      if ((err as Error).name === "SettingError") return show(req, p.session, undefined, `Nothing was saved: ${(err as Error).message}.`);
      throw err;
    }
    return redirect(`${req.baseUrl}/home?done=saved`);
  }),
  route("POST", "/home/documents/delete", async (req) => {
    const p = await posted(req);
    if (!("session" in p)) return p;
    const removed = await (await personData().knowledge()).deleteDocument(p.session.uid, p.form.id ?? "");
    return redirect(`${req.baseUrl}/home?done=${removed ? "deleted" : "gone"}`);
  }),
  route("POST", "/home/readwise", async (req) => {
    const p = await posted(req);
    if (!("session" in p)) return p;
    try {
      await (await personData().knowledge()).readwise.save(p.session.uid, p.form.token ?? "");
    } catch (err) {
      if ((err as Error).name === "ReadwiseError") return show(req, p.session, undefined, `The token was not saved: ${(err as Error).message}.`);
      throw err;
    }
    return redirect(`${req.baseUrl}/home?done=readwise-saved`);
  }),
  route("POST", "/home/readwise/remove", async (req) => {
    const p = await posted(req);
    if (!("session" in p)) return p;
    await (await personData().knowledge()).readwise.remove(p.session.uid);
    return redirect(`${req.baseUrl}/home?done=readwise-removed`);
  }),
  route("POST", "/home/readwise/sync", async (req) => {
    const p = await posted(req);
    if (!("session" in p)) return p;
    try {
      const r = await (await personData().knowledge()).readwise.syncNow(p.session.uid);
      return show(req, p.session, undefined, undefined, `Synced: ${r.highlights} new highlight(s) from ${r.books} book(s).`);
    } catch (err) {
      if ((err as Error).name === "ReadwiseError") return show(req, p.session, undefined, `The sync failed: ${(err as Error).message}.`);
      throw err;
    }
  }),
  route(
    "GET",
    "/home/export",
    async (req) => {
      const session = await readSession(req.headers);
      if (!session) return signInRedirect(req, "/home");
      const data = await exportEverything(session.uid, session.email);
      return { status: 200, body: data, headers: { "content-disposition": 'attachment; filename="my-data.json"', "cache-control": "no-store" } };
    },
    { body: "none" },
  ),
  // Signs the person out and back in (any of the sign-in page's ways): the fresh sign-in confirms the erase form.
  route("POST", "/home/erase/sign-in-again", async (req) => {
    const p = await posted(req);
    if (!("session" in p)) return p;
    return redirect(`${req.baseUrl}/signin?next=${encodeURIComponent("/home")}`, { "set-cookie": endSession(req.baseUrl) });
  }),
  route("POST", "/home/erase", async (req) => {
    const p = await posted(req);
    if (!("session" in p)) return p;
    const { session, form } = p;
    // Confirmed by the password, or by a sign-in of the last few minutes (accounts without a password).
    if (form.password || !signedInFreshly(session)) {
      if (!form.password) return show(req, session, undefined, `Nothing was deleted: enter your password, or sign in again and confirm within ${FRESH_SIGN_IN_SECONDS / 60} minutes.`);
      const counted = await attempt(req, ...ERASE_PASSWORD(session.uid));
      if ("wait" in counted) return show(req, session, undefined, `Too many wrong passwords: try again in ${waitText(counted.wait)}.`);
      const confirmed = await signInWithPassword(session.email, form.password);
      if (!confirmed.ok) return show(req, session, undefined, "Nothing was deleted: that is not your password.");
      await counted.succeeded();
    }
    const erased = await eraseEverything(session.uid, form.account === "delete");
    return { ...erasedPage(erased), headers: { "set-cookie": endSession(req.baseUrl) } };
  }),
];
