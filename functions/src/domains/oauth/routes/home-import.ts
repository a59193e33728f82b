// The home page's import (import-script.ts runs it in the browser): GET /home/import.js is the
// script; POST /home/imports keeps one dropped file for import; POST /home/imports/next imports
// the person's next queued file and answers its outcome; GET /home/imports lists their recent
// files with their state (a reopened page shows them). Session cookie and CSRF as the forms;
// JSON answers. The knowledge function's own module does the work (http/person.ts).
import { MAX_IMPORT_REQUEST_BYTES } from "../../../contracts/knowledge-import.js";
import { personData } from "../../../http/person.js";
import type { HttpReply, HttpRequest } from "../../../http/route.js";
import { IMPORT_SCRIPT } from "../import-script.js";
import { csrfValid, readSession, type Session } from "../session.js";
import { fields, noStore, route } from "./route.js";

const json = (status: number, body: unknown): HttpReply => ({ status, body, headers: noStore });
const SIGNED_OUT = json(401, { error: "You are signed out: reload the page and sign in again." });

async function caller(req: HttpRequest, posted: boolean): Promise<{ session: Session; form: Record<string, string> } | HttpReply> {
  const session = await readSession(req.headers);
  if (!session) return SIGNED_OUT;
  const form = fields(req.body);
  if (posted && !csrfValid(session, form.csrf)) return json(403, { error: "The page is out of date: reload it and try again." });
  return { session, form };
}

export const homeImportRoutes = [
  route(
    "GET",
    "/home/import.js",
    async () => ({ status: 200, html: IMPORT_SCRIPT, headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" } }),
    { body: "none" },
  ),
  route(
    "GET",
    "/home/imports",
    async (req) => {
      const c = await caller(req, false);
      if (!("session" in c)) return c;
      return json(200, { items: await (await personData().knowledge()).imports.list(c.session.uid) });
    },
    { body: "none" },
  ),
  route(
    "POST",
    "/home/imports",
    async (req) => {
      const c = await caller(req, true);
      if (!("session" in c)) return c;
      const path = c.form.path ?? "";
      const content = c.form.content;
      if (!path || path.length > 1000 || content === undefined) return json(400, { error: "Send the file's path (1 to 1000 characters) and its text." });
      return json(200, { item: await (await personData().knowledge()).imports.enqueue(c.session.uid, path, content) });
    },
    // Form-encoded text may take three bytes per character of the importer's limit.
    { maxBytes: 3 * MAX_IMPORT_REQUEST_BYTES + 64 * 1024 },
  ),
  route("POST", "/home/imports/next", async (req) => {
    const c = await caller(req, true);
    if (!("session" in c)) return c;
    return json(200, { item: (await (await personData().knowledge()).imports.next(c.session.uid)) ?? null });
  }),
];
