// The oauth function's /connect page: for every MCP function of the deployment, "Add to Cursor"
// and "Add to VS Code" links, the `claude mcp add` line, the claude.ai connector URL and (fotos)
// the Claude Desktop extension, each decoding to exactly that function's URL and transport; in a
// real Chromium (JavaScript off) each link navigates to exactly what the page shows; the
// connected-apps page links to it.
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { createUser, functionUrl } from "../support/emulators.js";
import { oauthUrl, signInCookie } from "../support/devices.js";

const SERVERS = ["dermal", "knowledge", "fotos", "figma", "mermaid"];
const SHOTS = new URL("../../test-results/oauth/", import.meta.url);
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  await page.setViewport({ width: 900, height: 900 });
  const res = await page.goto(oauthUrl("/connect"));
  expect(res?.status()).toBe(200);
});
afterAll(async () => browser?.close());

/** What each server's section shows, read from the page as Chromium parsed it. */
async function shown(name: string) {
  return page.$eval(`#connect-${name}`, (el) => ({
    links: Object.fromEntries([...el.querySelectorAll("a")].map((a) => [a.textContent!.trim(), (a as HTMLAnchorElement).href])),
    codes: [...el.querySelectorAll("code")].map((c) => c.textContent!),
    text: (el as HTMLElement).innerText,
  }));
}

describe.each(SERVERS)("%s", (name) => {
  const url = functionUrl(name);

  test("Add to Cursor: cursor://anysphere.cursor-deeplink/mcp/install with the name and base64 {url} of this function", async () => {
    const link = new URL((await shown(name)).links["Add to Cursor"]!);
    expect(`${link.protocol}//${link.host}${link.pathname}`).toBe("cursor://anysphere.cursor-deeplink/mcp/install");
    expect(link.searchParams.get("name")).toBe(name);
    expect(JSON.parse(Buffer.from(link.searchParams.get("config")!, "base64").toString("utf8"))).toEqual({ url });
  });

  test("Add to VS Code: vscode:mcp/install with {name, type http, url} of this function", async () => {
    const href = (await shown(name)).links["Add to VS Code"]!;
    expect(href.startsWith("vscode:mcp/install?")).toBe(true);
    expect(JSON.parse(decodeURIComponent(href.slice("vscode:mcp/install?".length)))).toEqual({ name, type: "http", url });
  });

  test("the claude mcp add line and the connector URL are this function's, over HTTP", async () => {
    const { codes } = await shown(name);
    expect(codes).toContain(`claude mcp add --transport http ${name} ${url}`);
    expect(codes).toContain(url);
  });
});

test("fotos also offers the Claude Desktop extension, with its own URL to enter in the extension's form", async () => {
  const { text, codes } = await shown("fotos");
  expect(text).toContain("fotos-mcp.mcpb");
  expect(text).toContain("Fotos function URL");
  expect(codes.filter((c) => c === functionUrl("fotos")).length).toBe(2);
  expect((await shown("mermaid")).text).not.toContain("mcpb");
});

test("in Chromium each install link opens exactly what the page shows", async () => {
  // A fresh tab per link: Chromium holds back repeated external-app launches from one page.
  for (const name of SERVERS) {
    const { links } = await shown(name);
    for (const label of ["Add to Cursor", "Add to VS Code"]) {
      const tab = await browser.newPage();
      try {
        await tab.setJavaScriptEnabled(false);
        await tab.goto(oauthUrl("/connect"));
        const cdp = await tab.createCDPSession();
        await cdp.send("Page.enable");
        const requested: string[] = [];
        cdp.on("Page.frameRequestedNavigation", (e) => requested.push(e.url));
        await (await tab.$(`#connect-${name} ::-p-text(${label})`))!.click();
        await expect.poll(() => requested.length).toBeGreaterThan(0);
        expect(requested).toEqual([links[label]]);
        // The link hands off to the app; the page stays.
        expect(tab.url()).toBe(oauthUrl("/connect"));
      } finally {
        await tab.close();
      }
    }
  }
  const png = await page.screenshot({ path: new URL("connect.png", SHOTS).pathname as `${string}.png`, fullPage: true });
  expect(png.byteLength).toBeGreaterThan(5_000);
});

test("the connected-apps page links to it", async () => {
  const user = await createUser();
  const html = await (await fetch(oauthUrl("/apps"), { headers: { cookie: await signInCookie(user) } })).text();
  const href = /<a href="([^"]+)">Connect an AI app<\/a>/.exec(html)?.[1];
  expect(new URL(href!, oauthUrl("/apps")).href).toBe(oauthUrl("/connect"));
});
