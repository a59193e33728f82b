// "Your data" on the home page, in a real headless Chromium (JavaScript off): one download of
// everything the suite keeps for the person, and deleting all of it, confirmed with the password.
// Afterwards every collection and the person's bucket prefix are scanned: nothing of theirs is
// left but DermalVision's records (that app's), and their old tokens are refused.
import { afterAll, beforeAll, expect, test } from "vitest";
import puppeteer, { type Browser } from "puppeteer-core";
import { getStorage } from "firebase-admin/storage";
import { adminAuth, adminDb, createUser, emailFor, functionUrl, PROJECT, type TestUser } from "../support/emulators.js";
import { callTool, connect } from "../support/mcp.js";
import { oauthUrl, pairDevice, signInCookie, signInOnPage, TEST_PASSWORD } from "../support/devices.js";
import { registerClient, tokensFor } from "../support/oauth.js";

let browser: Browser;
let alice: TestUser;
let bob: TestUser;
let aliceAccess = "";
let deviceId = "";
const bucket = () => getStorage().bucket(`${PROJECT}.appspot.com`);

// Pages of documents bounded in size (a knowledge chunk carries its embedding): one response for
// all of them could outgrow a string.
const PAGE = 2000;

/** Every document path in the database whose path or data names one of `ids`, per id. */
async function traces(...ids: string[]): Promise<string[][]> {
  // Every document of every collection, at every depth: a query of all descendants of the
  // database's root with no collection named (what recursiveDelete uses below a document), read in
  // pages in path order. The shared emulator holds every earlier file's data too.
  const found: string[][] = ids.map(() => []);
  let seenBob = false;
  let after: string | undefined;
  for (;;) {
    const res = await fetch(`http://${process.env.FIRESTORE_EMULATOR_HOST}/v1/projects/${PROJECT}/databases/(default)/documents:runQuery`, {
      method: "POST",
      headers: { authorization: "Bearer owner", "content-type": "application/json" },
      body: JSON.stringify({
        structuredQuery: {
          from: [{ allDescendants: true }],
          orderBy: [{ field: { fieldPath: "__name__" }, direction: "ASCENDING" }],
          limit: PAGE,
          ...(after ? { startAt: { values: [{ referenceValue: after }], before: false } } : {}),
        },
      }),
    });
    expect(res.status).toBe(200);
    const page = ((await res.json()) as { document?: { name: string; fields?: unknown } }[]).flatMap((r) => (r.document ? [r.document] : []));
    for (const doc of page) {
      const path = doc.name.replace(/^projects\/[^/]+\/databases\/[^/]+\/documents\//, "");
      const data = JSON.stringify(doc.fields ?? {});
      seenBob ||= data.includes(bob.uid);
      ids.forEach((id, i) => (path.includes(id) || data.includes(id)) && found[i]!.push(path));
    }
    if (page.length < PAGE) break;
    after = page.at(-1)!.name;
  }
  // The query reached the data too: what this file wrote for bob is among it.
  expect(seenBob).toBe(true);
  return found.map((paths) => paths.sort());
}

beforeAll(async () => {
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  [alice, bob] = await Promise.all([createUser(), createUser()]);
  const db = adminDb();
  // Alice's data in every function: a note, a screenshot with its OCR and image, settings, a Figma
  // room with a command, an app, a paired device, an agent record, a capture request, a quota count.
  const k = await connect("knowledge", { token: alice.token });
  expect((await callTool(k, "save_note", { title: "Keep me", content: "The lighthouse keeper logs every passing ship.", tags: ["sea"] })).isError).toBeFalsy();
  await k.close();
  const shot = db.doc(`users/${alice.uid}/screenshots/s1`);
  await bucket().file(`users/${alice.uid}/screenshots/s1.png`).save(Buffer.from("png bytes"), { contentType: "image/png" });
  await shot.set({ owner: alice.uid, mode: "fullscreen", width: 10, height: 10, storagePath: `users/${alice.uid}/screenshots/s1.png`, createdAt: new Date() });
  await shot.collection("ocr").doc("eng").set({ text: "hello" });
  await db.doc(`users/${alice.uid}/fotos/settings`).set({ capture: { redactBeforeUpload: true } });
  const room = db.collection("figma_sessions").doc(`room-${alice.uid}`);
  await room.set({ ownerUid: alice.uid, deviceId: "x", fileName: "Design" });
  await room.collection("figma_commands").doc("c1").set({ command: "get_selection" });
  aliceAccess = (await tokensFor(alice, await registerClient(), { resource: functionUrl("knowledge") })).access_token;
  const device = await pairDevice(alice, "desktop-agent", "Alice PC");
  deviceId = device.deviceId;
  await db.collection("fotosAgents").doc(deviceId).set({ owner: alice.uid, name: "Alice PC" });
  await db.collection("fotosCaptureRequests").doc(`r-${alice.uid}`).set({ owner: alice.uid, status: "done" });
  await db.collection("usageQuotas").doc(`q-${alice.uid}`).set({ uid: alice.uid, quota: "visionLlm", count: 1 });
  // DermalVision writes its records into the same project: they are that app's.
  await db.doc(`users/${alice.uid}`).set({ displayName: "Alice", subscriptionTier: "free" });
  await db.doc(`users/${alice.uid}/sessions/d1`).set({ capturedAt: new Date(), status: "analysed" });
  // Bob's note must survive alice's erase.
  const b = await connect("knowledge", { token: bob.token });
  expect((await callTool(b, "save_note", { title: "Bob's", content: "Bob keeps bees on the roof." })).isError).toBeFalsy();
  await b.close();
});
afterAll(async () => browser?.close());

test("the export is one download with the knowledge base as Markdown, screenshots with metadata and image, settings, apps and devices", async () => {
  const cookie = await signInCookie(alice);
  const res = await fetch(oauthUrl("/home/export"), { headers: { cookie } });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-disposition")).toBe('attachment; filename="my-data.json"');
  const data = (await res.json()) as Record<string, any>;
  expect(data.account).toEqual({ uid: alice.uid, email: emailFor(alice.uid) });
  expect(data.knowledge).toHaveLength(1);
  expect(data.knowledge[0].markdown).toMatch(/^---\ntitle: "Keep me"\nauthor: ""\nsource: "conversation"\ntags: \["sea"\]\n/);
  expect(data.knowledge[0].markdown).toContain("The lighthouse keeper logs every passing ship.");
  expect(data.fotos.settings.capture.redactBeforeUpload).toBe(true);
  expect(data.fotos.screenshots).toHaveLength(1);
  expect(Buffer.from(data.fotos.screenshots[0].image_png_base64, "base64").toString()).toBe("png bytes");
  expect(data.apps.map((a: { resource: string }) => a.resource)).toContain("knowledge");
  expect(data.devices.map((d: { name: string }) => d.name)).toEqual(["Alice PC"]);
  expect(data.figma).toHaveLength(1);
  expect(JSON.stringify(data)).not.toContain("Bob keeps bees");
  expect(JSON.stringify(data)).not.toContain("subscriptionTier"); // DermalVision's, not exported here
  expect((await fetch(oauthUrl("/home/export"), { redirect: "manual" })).status).toBe(303); // signed out: sign in first
});

test("delete everything: a wrong password deletes nothing; the right one leaves no trace but DermalVision's records, and old tokens are refused", async () => {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  await page.goto(oauthUrl("/home"));
  await signInOnPage(page, alice);
  expect(await page.$eval("main", (m) => m.textContent ?? "")).toContain("they are that app's records");

  await page.type("#erase-password", "not-my-password");
  await Promise.all([page.waitForNavigation(), page.click("#erase button.danger")]);
  expect(await page.$eval("[role=alert]", (e) => e.textContent)).toBe("Nothing was deleted: that is not your password.");
  expect((await adminDb().collection("kb_documents").where("owner_uid", "==", alice.uid).get()).size).toBe(1);

  await page.type("#erase-password", TEST_PASSWORD);
  await page.click("#erase input[name=account]");
  await Promise.all([page.waitForNavigation(), page.click("#erase button.danger")]);
  expect(await page.$eval("h1", (h) => h.textContent)).toBe("Everything deleted");
  expect(await page.$eval("[role=status]", (e) => e.textContent)).toContain("Deleted 1 knowledge document(s), 1 screenshot(s), 1 Figma room(s)");
  expect(await page.$eval("[role=status]", (e) => e.textContent)).toContain("and your sign-in account");

  // Nothing of alice's is left in any collection or under her bucket prefix, but DermalVision's.
  const [ofAlice, ofDevice] = await traces(alice.uid, deviceId);
  expect(ofAlice).toEqual([`users/${alice.uid}`, `users/${alice.uid}/sessions/d1`]);
  expect(ofDevice).toEqual([]);
  expect((await bucket().getFiles({ prefix: `users/${alice.uid}/` }))[0]).toEqual([]);
  await expect(adminAuth().getUser(alice.uid)).rejects.toThrow(/no user record/i);
  await expect(adminAuth().getUser(`device_${deviceId}`)).rejects.toThrow(/no user record/i);

  // Her old tokens are refused; bob's knowledge base is untouched.
  const call = (token: string) =>
    fetch(functionUrl("knowledge"), { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }) });
  expect((await call(aliceAccess)).status).toBe(401);
  expect((await call(alice.token)).status).toBe(401);
  const b = await connect("knowledge", { token: bob.token });
  expect((await callTool(b, "search_semantic", { query: "bees", mode: "lexical" })).structuredContent).toMatchObject({ result_count: 1 });
  await b.close();
  // The scan reads every document of the shared emulator, which holds every earlier file's data.
}, 240_000);
