// Readwise sync from the person's home page, in a real headless Chromium (JavaScript off), against
// a local server that speaks Readwise's wire format (GET /api/v2/auth/, GET /api/v2/export/ with
// updatedAfter and pageCursor, a 429 with Retry-After): the token is checked and kept, never shown
// again; a sync brings every page's highlights into the knowledge base; the next sync asks only for
// what changed since, and a highlight already there is not written twice; the token can be removed.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import puppeteer, { type Browser } from "puppeteer-core";
import { adminDb, createUser, type TestUser } from "../support/emulators.js";
import { callTool, connect } from "../support/mcp.js";
import { oauthUrl, signInOnPage } from "../support/devices.js";

const TOKEN = "rwTestToken0123456789abcdef";
let server: Server;
let browser: Browser;
let alice: TestUser;
const asked: { path: string; updatedAfter: string | null; pageCursor: string | null }[] = [];
let round = 1;
let throttled = false;

const book = (title: string, author: string, highlights: { text: string; note?: string; tags?: string[] }[]) => ({
  user_book_id: title.length,
  title,
  readable_title: title,
  author,
  source: "kindle",
  category: "books",
  book_tags: [{ name: "Reading" }],
  highlights: highlights.map((h, i) => ({ id: i + 1, text: h.text, note: h.note ?? "", location: i, highlighted_at: "2025-02-03T10:00:00Z", updated_at: "2025-02-03T10:00:00Z", tags: (h.tags ?? []).map((name) => ({ name })) })),
});

/** Readwise's export, as its API pages it: round 1 two pages, round 2 (updatedAfter) one changed book. */
function exportPage(cursor: string | null) {
  if (round === 1 && !cursor) return { count: 2, nextPageCursor: "page-2", results: [book("Deep Sea Atlas", "Marina Trench", [{ text: "Anglerfish carry their own lanterns into the abyss.", tags: ["ocean"] }, { text: "Whale falls feed whole communities for decades.", note: "remember this" }])] };
  if (round === 1) return { count: 2, nextPageCursor: null, results: [book("Mountain Notes", "Alpine Guide", [{ text: "Glaciers carve U-shaped valleys over millennia." }])] };
  return { count: 1, nextPageCursor: null, results: [book("Deep Sea Atlas", "Marina Trench", [{ text: "Anglerfish carry their own lanterns into the abyss.", tags: ["ocean"] }, { text: "Hydrothermal vents support life without sunlight." }])] };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (req.headers.authorization !== `Token ${TOKEN}`) return res.writeHead(401, { "content-type": "application/json" }).end('{"detail":"Invalid token."}');
    if (url.pathname === "/api/v2/auth/") return res.writeHead(204).end();
    if (url.pathname === "/api/v2/export/") {
      asked.push({ path: url.pathname, updatedAfter: url.searchParams.get("updatedAfter"), pageCursor: url.searchParams.get("pageCursor") });
      if (!throttled) {
        throttled = true;
        return res.writeHead(429, { "retry-after": "1", "content-type": "application/json" }).end('{"detail":"Request was throttled."}');
      }
      return res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(exportPage(url.searchParams.get("pageCursor"))));
    }
    res.writeHead(404).end();
  });
  const port = Number(new URL(process.env.READWISE_API_URL!).port);
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  alice = await createUser();
});
afterAll(async () => {
  await browser?.close();
  server?.close();
});

test("paste the token once, sync, sync again: highlights arrive, nothing is duplicated, the token never shows", async () => {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  await page.goto(oauthUrl("/home"));
  await signInOnPage(page, alice);

  // Signed in (the sign-in's way back to /home is home.test.ts'): the page under test.
  await page.goto(oauthUrl("/home"));
  expect(await page.$eval("h1", (h) => h.textContent)).toBe("Your home");
  // A token Readwise refuses is not kept.
  await page.type("#readwise-token", "wrongToken0123456789abcdef");
  await Promise.all([page.waitForNavigation(), page.click("#readwise button")]);
  expect(await page.$eval("[role=alert]", (e) => e.textContent)).toBe("The token was not saved: Readwise refused this token: copy a current one from readwise.io/access_token.");
  expect((await adminDb().collection("kb_readwise").doc(alice.uid).get()).exists).toBe(false);

  await page.type("#readwise-token", TOKEN);
  await Promise.all([page.waitForNavigation(), page.click("#readwise button")]);
  expect(await page.$eval("[role=status]", (e) => e.textContent)).toContain("Your Readwise token was saved");
  expect(await page.content()).not.toContain(TOKEN);

  // First sync: a 429 waited out, both pages, everything.
  await Promise.all([page.waitForNavigation(), page.click("form[action$='/home/readwise/sync'] button")]);
  expect(await page.$eval("#readwise-status [role=status]", (e) => e.textContent)).toBe("Synced: 3 new highlight(s) from 2 book(s).");
  expect(asked.map((a) => [a.updatedAfter, a.pageCursor])).toEqual([[null, null], [null, null], [null, "page-2"]]);
  const docs = await page.$eval("#documents", (t) => t.textContent ?? "");
  expect(docs).toContain("Deep Sea Atlas");
  expect(docs).toContain("Mountain Notes");

  // Second sync: only what changed since the first, and the known highlight is not written again.
  round = 2;
  asked.length = 0;
  await Promise.all([page.waitForNavigation(), page.click("form[action$='/home/readwise/sync'] button")]);
  expect(await page.$eval("#readwise-status [role=status]", (e) => e.textContent)).toBe("Synced: 1 new highlight(s) from 1 book(s).");
  expect(asked).toHaveLength(1);
  expect(asked[0]!.updatedAfter).toMatch(/^\d{4}-\d\d-\d\dT/);

  const client = await connect("knowledge", { token: alice.token });
  const vents = (await callTool(client, "search_semantic", { query: "hydrothermal vents", mode: "lexical" })).structuredContent as { results: { title: string; source: string }[] };
  expect(vents.results[0]).toMatchObject({ title: "Deep Sea Atlas", source: "readwise" });
  const whale = (await callTool(client, "search_semantic", { query: "whale falls", mode: "lexical" })).structuredContent as { results: { full_content: string }[] };
  expect(whale.results[0]!.full_content).toBe("Whale falls feed whole communities for decades.\n\nNote: remember this");
  expect((await callTool(client, "get_stats")).structuredContent).toMatchObject({ total_chunks: 4, total_documents: 2 });
  await client.close();

  // Removed: the token is gone, the page offers to paste one again.
  await Promise.all([page.waitForNavigation(), page.click("form[action$='/home/readwise/remove'] button")]);
  expect(await page.$eval("[role=status]", (e) => e.textContent)).toContain("Your Readwise token was removed");
  expect(await page.$("#readwise-token")).not.toBeNull();
  expect((await adminDb().collection("kb_readwise").doc(alice.uid).get()).exists).toBe(false);
});
