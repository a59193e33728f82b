// Delete everything confirmed by a fresh sign-in instead of the password (for accounts that sign in
// with Google or an email link): "Sign in again" ends the session and asks for sign-in; within a
// few minutes of signing in, the erase form needs no password and erases.
import { expect, test } from "vitest";
import { adminDb, createUser } from "../support/emulators.js";
import { csrfOf, oauthUrl, signInCookie } from "../support/devices.js";
import { callTool, connect } from "../support/mcp.js";

test("sign in again, then delete everything without the password", async () => {
  const erin = await createUser();
  const knowledge = await connect("knowledge", { token: erin.token });
  expect((await callTool(knowledge, "save_note", { title: "Pond notes", content: "Frogs spawn in the shallow end of the pond in March." })).isError).toBeFalsy();
  await knowledge.close();
  const post = (path: string, form: Record<string, string>, cookie: string) =>
    fetch(oauthUrl(path), { method: "POST", redirect: "manual", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() });

  const old = await signInCookie(erin);
  const csrf = csrfOf(await (await fetch(oauthUrl("/home"), { headers: { cookie: old } })).text());
  const again = await post("/home/erase/sign-in-again", { csrf }, old);
  expect(again.status).toBe(303);
  expect(again.headers.get("location")).toMatch(/\/signin\?next=%2Fhome$/);
  expect(again.headers.getSetCookie().some((c) => /^__session=;.*Max-Age=0/.test(c))).toBe(true);
  // Without the CSRF token the button does nothing.
  expect((await post("/home/erase/sign-in-again", {}, old)).headers.get("location")).toMatch(/\/home$/);

  const fresh = await signInCookie(erin);
  const home = await (await fetch(oauthUrl("/home"), { headers: { cookie: fresh } })).text();
  expect(home).toContain("You signed in less than 5 minutes ago: that confirms it, no password needed.");
  const erased = await post("/home/erase", { csrf: csrfOf(home) }, fresh);
  expect(erased.status).toBe(200);
  expect(await erased.text()).toContain("Deleted 1 knowledge document(s)");
  expect((await adminDb().collection("kb_documents").where("owner_uid", "==", erin.uid).get()).size).toBe(0);
});
