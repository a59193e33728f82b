// The person's home page in a real headless Chromium (Debian's), JavaScript off, as the other
// pages: reached from the sign-in and connected-apps pages; a Fotos setting changed there is what
// settings://current answers next; a knowledge document deleted there is gone from search; forms
// without the session's CSRF token, or another person's session, change nothing.
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import type { Client } from "@modelcontextprotocol/client";
import { adminDb, createUser, functionUrl, type TestUser } from "../support/emulators.js";
import { callTool, connect } from "../support/mcp.js";
import { csrfOf, oauthUrl, signInCookie, signInOnPage } from "../support/devices.js";

const SHOTS = new URL("../../test-results/oauth/", import.meta.url);
let browser: Browser;
let alice: TestUser;
const clients: Client[] = [];
const outside: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  alice = await createUser();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await browser?.close();
});

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  await page.setViewport({ width: 900, height: 900 });
  const origin = new URL(functionUrl("oauth")).origin;
  page.on("request", (r) => {
    if (!r.url().startsWith(origin)) outside.push(r.url());
  });
  return page;
}

const mcp = async (user: TestUser): Promise<Client> => {
  const c = await connect("knowledge", { token: user.token });
  clients.push(c);
  return c;
};
const text = (page: Page) => page.$eval("main", (m) => m.textContent ?? "");
const settingsOf = async (user: TestUser) => {
  const fotos = await connect("fotos", { token: user.token });
  clients.push(fotos);
  const res = await fotos.readResource({ uri: "settings://current" });
  return JSON.parse((res.contents[0] as { text: string }).text) as { capture: { redactBeforeUpload: boolean; delayMs: number }; ui: { region: string } };
};

test("signed in from the sign-in page, the person changes a Fotos setting and deletes a document; the tools follow", async () => {
  const knowledge = await mcp(alice);
  for (const [title, content] of [
    ["Tomato notes", "Tomatoes want six hours of sun and deep watering twice a week."],
    ["Bread notes", "A long cold proof gives sourdough its open crumb and sour taste."],
  ]) expect((await callTool(knowledge, "save_note", { title, content })).isError).toBeFalsy();
  expect((await settingsOf(alice)).capture.redactBeforeUpload).toBe(false);

  const page = await newPage();
  await page.goto(oauthUrl("/home"));
  expect(await page.$eval("h1", (h) => h.textContent)).toBe("Sign in");
  expect(await page.$eval("a[href=home]", (a) => a.textContent)).toBe("your home page");
  await signInOnPage(page, alice);
  expect(await page.$eval("h1", (h) => h.textContent)).toBe("Your home");

  // Every setting with its default and what it does.
  const row = await page.$eval("label[for=s-capture-redactBeforeUpload]", (l) => l.closest("tr")!.textContent ?? "");
  expect(row).toContain("blacks it out before the image leaves your computer");
  expect(row).toContain("Default: no");
  expect(await page.$$eval("#settings tbody tr", (rows) => rows.length)).toBe(19);
  expect(await text(page)).toContain("they are that app's records, and this page does not export, change or delete them");
  await page.screenshot({ path: new URL("7-home.png", SHOTS).pathname as `${string}.png`, fullPage: true });

  await page.select("#s-capture-redactBeforeUpload", "true");
  await page.$eval("#s-ui-region", (i) => ((i as HTMLInputElement).value = ""));
  await page.type("#s-ui-region", "DE");
  await Promise.all([page.waitForNavigation(), page.click("#settings button.primary")]);
  expect(await page.$eval("[role=status]", (e) => e.textContent)).toContain("Your Fotos settings were saved");
  expect(await page.$eval("#s-capture-redactBeforeUpload", (s) => (s as HTMLSelectElement).value)).toBe("true");
  const after = await settingsOf(alice);
  expect(after.capture.redactBeforeUpload).toBe(true);
  expect(after.ui.region).toBe("DE");
  expect(after.capture.delayMs).toBe(0); // the others keep their values

  // The knowledge base: documents with source and chunk count; delete one.
  const docs = await page.$eval("#documents", (t) => t.textContent ?? "");
  expect(docs).toContain("Tomato notes");
  expect(docs).toContain("Bread notes");
  expect(docs).toContain("conversation");
  const tomato = await page.$$("#documents tbody tr");
  for (const r of tomato) {
    if ((await r.evaluate((x) => x.textContent ?? "")).includes("Tomato notes")) {
      await Promise.all([page.waitForNavigation(), r.$eval("button", (b) => (b as HTMLButtonElement).click())]);
      break;
    }
  }
  expect(await page.$eval("[role=status]", (e) => e.textContent)).toBe("The document was deleted from your knowledge base.");
  expect(await page.$eval("#documents", (t) => t.textContent ?? "")).not.toContain("Tomato notes");
  const found = await callTool(knowledge, "search_semantic", { query: "tomatoes", mode: "lexical" });
  expect((found.structuredContent as { result_count: number }).result_count).toBe(0);
  expect((await callTool(knowledge, "search_semantic", { query: "sourdough", mode: "lexical" })).structuredContent).toMatchObject({ result_count: 1 });

  // From the connected-apps page back home.
  await page.goto(oauthUrl("/apps"));
  await Promise.all([page.waitForNavigation(), page.click("a[href=home]")]);
  expect(page.url()).toBe(oauthUrl("/home"));
  expect(await page.$eval("h1", (h) => h.textContent)).toBe("Your home");
  expect(outside).toEqual([]);
});

test("a wrong value saves nothing and says which; no CSRF token or another person's session changes nothing", async () => {
  const bob = await createUser();
  const cookie = await signInCookie(bob);
  const home = await fetch(oauthUrl("/home"), { headers: { cookie } });
  const csrf = csrfOf(await home.text());
  const post = (path: string, fields: Record<string, string>, c = cookie) =>
    fetch(oauthUrl(path), { method: "POST", redirect: "manual", headers: { cookie: c, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });

  const wrong = await post("/home/settings", { csrf, "ui.region": "GB", "annotation.strokeWidth": "wide" });
  expect(wrong.status).toBe(400);
  expect(await wrong.text()).toContain("Nothing was saved: annotation.strokeWidth must be a number from 0 to 100000.");
  const badChoice = await post("/home/settings", { csrf, "ai.defaultProvider": "skynet" });
  expect(await badChoice.text()).toContain("ai.defaultProvider must be one of claude, openai, gemini, ollama");
  expect((await adminDb().doc(`users/${bob.uid}/fotos/settings`).get()).exists).toBe(false);

  const forged = await post("/home/settings", { "capture.redactBeforeUpload": "true" });
  expect(forged.status).toBe(303);
  expect((await adminDb().doc(`users/${bob.uid}/fotos/settings`).get()).exists).toBe(false);

  // Bob's session cannot delete alice's document.
  const aliceDocs = await adminDb().collection("kb_documents").where("owner_uid", "==", alice.uid).get();
  expect(aliceDocs.size).toBe(1);
  const theirs = await post("/home/documents/delete", { csrf, id: aliceDocs.docs[0]!.id });
  expect(theirs.headers.get("location")).toMatch(/\/home\?done=gone$/);
  expect((await adminDb().collection("kb_documents").doc(aliceDocs.docs[0]!.id).get()).exists).toBe(true);

  // Signed out, the page asks for sign-in first.
  const anon = await fetch(oauthUrl("/home"), { redirect: "manual" });
  expect(anon.status).toBe(303);
  expect(anon.headers.get("location")).toContain("/signin?next=%2Fhome");
});
