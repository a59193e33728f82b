// The person imports from their home page in a real headless Chromium (Debian's), JavaScript on:
// a folder of every format chosen in the page is sent file by file and imported in the
// background; each file shows its outcome (imported, unchanged, skipped and why); the text is
// then found by search_semantic over MCP; the same folder again is unchanged; files left queued
// when the tab closed are finished and shown when the page is opened again; another person
// sees none of it and cannot drive it.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import puppeteer, { type Browser, type ElementHandle, type Page } from "puppeteer-core";
import { adminDb, createUser, functionUrl, type TestUser } from "../support/emulators.js";
import { callTool, connect } from "../support/mcp.js";
import { csrfOf, oauthUrl, signInCookie, signInOnPage } from "../support/devices.js";
import { writeCorpus } from "../knowledge/corpus.js";

let browser: Browser;
let alice: TestUser;
const outside: string[] = [];

beforeAll(async () => {
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  alice = await createUser();
});
afterAll(async () => {
  await browser?.close();
});

const LIGHTHOUSE = "The lighthouse keeper trimmed the wick at dusk so that ships could round the headland safely.";

async function signedInHome(user: TestUser): Promise<Page> {
  // Each person in a browser context of their own (cookies are per context).
  const page = await (await browser.createBrowserContext()).newPage();
  const origin = new URL(functionUrl("oauth")).origin;
  page.on("request", (r) => {
    if (!r.url().startsWith(origin)) outside.push(r.url());
  });
  await page.goto(oauthUrl("/home"));
  if ((await page.$eval("h1", (h) => h.textContent)) === "Sign in") await signInOnPage(page, user);
  await page.waitForSelector("#import[data-ready=true]");
  return page;
}

/** Each shown file's outcome by path, once none is queued or importing and `count` are shown. */
async function outcomes(page: Page, count: number): Promise<Record<string, string>> {
  await page.waitForFunction(
    (n) => {
      const rows = [...document.querySelectorAll("#imports tbody tr")] as HTMLElement[];
      return rows.length >= n && rows.every((r) => r.dataset.status !== "queued" && r.dataset.status !== "processing");
    },
    { timeout: 240_000 },
    count,
  );
  const rows = await page.$$eval("#imports tbody tr", (trs) => trs.map((tr) => [(tr as HTMLTableRowElement).cells[0]!.textContent ?? "", (tr as HTMLTableRowElement).cells[1]!.textContent ?? ""]));
  expect(rows.length).toBe(count);
  return Object.fromEntries(rows);
}

async function chooseFolder(page: Page, dir: string): Promise<void> {
  const input = (await page.$("#import-folder")) as ElementHandle<HTMLInputElement>;
  await input.uploadFile(dir);
}

test("a folder of every format chosen in the page: an outcome per file, then found by search; again, unchanged", { timeout: 600_000 }, async () => {
  const { dir } = await writeCorpus();
  await mkdir(join(dir, "notes"));
  await writeFile(join(dir, "notes", "lighthouse.txt"), LIGHTHOUSE);
  await writeFile(join(dir, "notes", "slides.pdf"), "%PDF-1.4 not really");
  const folder = dir.split("/").pop()!;

  const page = await signedInHome(alice);
  await chooseFolder(page, dir);
  const first = await outcomes(page, 7);
  expect(first).toEqual({
    [`${folder}/habit-notes.md`]: "imported: 1 document(s), 2 chunk(s)",
    [`${folder}/My Clippings.txt`]: expect.stringMatching(/^imported: 2 document\(s\), 7 chunk\(s\)$/),
    [`${folder}/readwise.csv`]: "imported: 2 document(s), 6 chunk(s)",
    [`${folder}/numbers.csv`]: expect.stringMatching(/^skipped: not a Readwise export/),
    [`${folder}/broken.txt`]: "skipped: not a text file (binary content)",
    [`${folder}/notes/lighthouse.txt`]: "imported: 1 document(s), 1 chunk(s)",
    [`${folder}/notes/slides.pdf`]: 'skipped: unsupported file type ".pdf" (use .md, .txt or a Readwise .csv)',
  });
  // The page says "Done." once it has asked for more and found none (after the last outcome is shown).
  await page.waitForFunction(() => document.querySelector("#import-status")?.textContent === "Done.", { timeout: 60_000 });

  const knowledge = await connect("knowledge", { token: alice.token });
  const found = (await callTool(knowledge, "search_semantic", { query: "lighthouse keeper trimmed the wick", limit: 3 })).structuredContent as { results: { full_content: string }[] };
  expect(found.results[0]?.full_content).toContain("lighthouse keeper trimmed the wick");
  const kindle = (await callTool(knowledge, "search_semantic", { query: "Caffeine lingers in the blood", mode: "lexical", limit: 3 })).structuredContent as { results: { title: string; source: string }[] };
  expect(kindle.results[0]).toMatchObject({ title: "Sleep Well", source: "kindle" });
  const before = (await callTool(knowledge, "get_stats")).structuredContent as { total_chunks: number };

  // The same folder again: every imported file is unchanged, nothing is duplicated.
  await page.reload();
  await page.waitForSelector("#import[data-ready=true]");
  expect(Object.keys(await outcomes(page, 7))).toHaveLength(7); // the earlier outcomes are shown again
  await chooseFolder(page, dir);
  const rows = await page.$$eval("#imports tbody tr", (trs) => trs.length);
  expect(rows).toBeGreaterThanOrEqual(7);
  await page.waitForFunction(() => [...document.querySelectorAll("#imports tbody tr")].length === 14 && [...document.querySelectorAll("#imports tbody tr")].every((r) => (r as HTMLElement).dataset.status !== "queued" && (r as HTMLElement).dataset.status !== "processing"), { timeout: 240_000 });
  const again = await page.$$eval("#imports tbody tr", (trs) => trs.slice(0, 7).map((tr) => `${(tr as HTMLTableRowElement).cells[0]!.textContent} → ${(tr as HTMLTableRowElement).cells[1]!.textContent}`));
  expect(again.filter((r) => r.includes("→ unchanged:"))).toHaveLength(4);
  expect(again.filter((r) => r.includes("→ skipped:"))).toHaveLength(3);
  expect((await callTool(knowledge, "get_stats")).structuredContent).toMatchObject({ total_chunks: before.total_chunks });
  await knowledge.close();
  await page.close();
  expect(outside).toEqual([]);
});

test("files left queued when the tab closed are imported and shown when the page is opened again; another person sees none and cannot drive them", { timeout: 300_000 }, async () => {
  const [carol, bob] = await Promise.all([createUser(), createUser()]);
  const cookie = await signInCookie(carol);
  const csrf = csrfOf(await (await fetch(oauthUrl("/home"), { headers: { cookie } })).text());
  const post = (path: string, form: Record<string, string>, c = cookie) =>
    fetch(oauthUrl(path), { method: "POST", headers: { cookie: c, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() });
  // As a page does before it is closed: the files are sent, none imported yet.
  for (const [path, content] of <[string, string][]>[
    ["trip/alps.md", "# Alps\n\nThe glacier trail above the hut is only safe before noon, when the snow bridges are still frozen."],
    ["trip/todo.txt", "Pack crampons, a headlamp and spare batteries."],
  ]) {
    const r = await post("/home/imports", { csrf, path, content });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { item: { status: string } }).item.status).toBe("queued");
  }

  // Bob sees none of carol's files, and his polling imports none of them.
  const bobCookie = await signInCookie(bob);
  const bobCsrf = csrfOf(await (await fetch(oauthUrl("/home"), { headers: { cookie: bobCookie } })).text());
  expect(await (await fetch(oauthUrl("/home/imports"), { headers: { cookie: bobCookie } })).json()).toEqual({ items: [] });
  expect(await (await post("/home/imports/next", { csrf: bobCsrf }, bobCookie)).json()).toEqual({ item: null });
  // Without the page's CSRF token, or signed out, nothing is queued or imported.
  const forged = await post("/home/imports", { path: "x.md", content: "# x\n\nforged" });
  expect(forged.status).toBe(403);
  expect(await forged.json()).toEqual({ error: "The page is out of date: reload it and try again." });
  const anon = await fetch(oauthUrl("/home/imports"));
  expect(anon.status).toBe(401);
  const listed = (await (await fetch(oauthUrl("/home/imports"), { headers: { cookie } })).json()) as { items: { path: string; status: string }[] };
  expect(listed.items.map((i) => `${i.path} ${i.status}`).sort()).toEqual(["trip/alps.md queued", "trip/todo.txt queued"]);

  // Carol opens her home page again: it shows the files and finishes them.
  const page = await signedInHome(carol);
  expect(await outcomes(page, 2)).toEqual({ "trip/alps.md": "imported: 1 document(s), 1 chunk(s)", "trip/todo.txt": "imported: 1 document(s), 1 chunk(s)" });
  const knowledge = await connect("knowledge", { token: carol.token });
  const found = (await callTool(knowledge, "search_semantic", { query: "snow bridges glacier trail", limit: 3 })).structuredContent as { results: { title: string }[] };
  expect(found.results[0]?.title).toBe("Alps");
  await knowledge.close();
  const bobs = await connect("knowledge", { token: bob.token });
  expect((await callTool(bobs, "get_stats")).structuredContent).toMatchObject({ total_chunks: 0 });
  await bobs.close();
  await page.close();
});

test("with no page open, the scheduled drain imports the queued files of everyone, each once", { timeout: 300_000 }, async () => {
  const { drainImports } = await import("../../functions/src/domains/knowledge/import-queue.js");
  const { createEmbedder } = await import("../../functions/src/platform/embeddings.js");
  const dave = await createUser();
  const cookie = await signInCookie(dave);
  const csrf = csrfOf(await (await fetch(oauthUrl("/home"), { headers: { cookie } })).text());
  const r = await fetch(oauthUrl("/home/imports"), {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrf, path: "kitchen/bread.md", content: "# Bread\n\nA rye starter fed twice a day smells of green apples when it is ready." }).toString(),
  });
  expect(r.status).toBe(200);
  const embedder = await createEmbedder("local");
  expect(await drainImports(adminDb(), async () => embedder, 120_000)).toBeGreaterThanOrEqual(1);
  expect(await drainImports(adminDb(), () => Promise.reject(new Error("an empty queue made an embedder")), 120_000)).toBe(0); // nothing twice, and no model loaded for nothing
  const listed = (await (await fetch(oauthUrl("/home/imports"), { headers: { cookie } })).json()) as { items: { path: string; status: string; documents: unknown[] }[] };
  expect(listed.items).toEqual([{ id: expect.any(String), path: "kitchen/bread.md", status: "imported", documents: [{ title: "Bread", status: "imported", chunks: 1 }] }]);
  const knowledge = await connect("knowledge", { token: dave.token });
  const found = (await callTool(knowledge, "search_semantic", { query: "rye starter smells of green apples", limit: 3 })).structuredContent as { results: { title: string }[] };
  expect(found.results[0]?.title).toBe("Bread");
  await knowledge.close();
});
