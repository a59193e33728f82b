// The sign-in, consent, device and connected-apps pages in a real headless Chromium (Debian's),
// with JavaScript off: a person completes the flow by typing and clicking, nothing is loaded from
// outside the function, and a screenshot of each page is written to test-results/oauth/.
import { mkdirSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { createUser, emailFor, functionUrl } from "../support/emulators.js";
import { oauthUrl, pollDeviceToken, startDeviceAuthorization, TEST_PASSWORD } from "../support/devices.js";

const SHOTS = new URL("../../test-results/oauth/", import.meta.url);
let browser: Browser;
let callback: Server;
let callbackUrl = "";
const outside: string[] = [];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  browser = await puppeteer.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
  callback = createServer((req, res) => res.writeHead(200, { "content-type": "text/html" }).end(`<h1>Back at the app</h1><p>${req.url}</p>`));
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
  callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await browser?.close();
  callback?.close();
});

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.setJavaScriptEnabled(false);
  await page.setViewport({ width: 900, height: 760 });
  const allowed = [new URL(functionUrl("oauth")).origin, new URL(callbackUrl).origin];
  page.on("request", (r) => {
    if (!allowed.some((o) => r.url().startsWith(o))) outside.push(r.url());
  });
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  const png = await page.screenshot({ path: new URL(`${name}.png`, SHOTS).pathname as `${string}.png`, fullPage: true });
  expect(png.byteLength).toBeGreaterThan(5_000); // a rendered page, not a blank one
}

test("a person signs in, allows an app, pairs a device, sees both on the connected-apps page and revokes them", async () => {
  const user = await createUser();
  const email = emailFor(user.uid);
  const reg = await fetch(oauthUrl("/register"), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Browser Test App", redirect_uris: [callbackUrl] }),
  });
  const { client_id } = (await reg.json()) as { client_id: string };
  const verifier = randomBytes(32).toString("base64url");
  const authorize = new URL(oauthUrl("/authorize"));
  for (const [k, v] of Object.entries({
    response_type: "code",
    client_id,
    redirect_uri: callbackUrl,
    code_challenge: createHash("sha256").update(verifier).digest("base64url"),
    code_challenge_method: "S256",
    state: "xyz",
    resource: functionUrl("knowledge"),
  })) authorize.searchParams.set(k, v);

  const page = await newPage();
  await page.goto(authorize.toString());
  expect(await page.$eval("h1", (h) => h.textContent)).toBe("Sign in");
  await shot(page, "1-sign-in");

  // A wrong password is told, not a blank page.
  await page.type("#email", email);
  await page.type("#password", "not-the-password");
  await Promise.all([page.waitForNavigation(), page.click("button.primary")]);
  expect(await page.$eval("[role=alert]", (e) => e.textContent)).toBe("Wrong email or password.");
  await shot(page, "2-sign-in-error");

  await page.type("#password", TEST_PASSWORD);
  await Promise.all([page.waitForNavigation(), page.click("button.primary")]);
  const consent = await page.$eval("main", (m) => m.textContent ?? "");
  expect(consent).toContain("Allow Browser Test App to use Knowledge base?");
  expect(consent).toContain("Search and read your knowledge base");
  expect(consent).toContain("127.0.0.1"); // the host the app returns to
  await shot(page, "3-consent");

  await Promise.all([page.waitForNavigation(), page.click("button[value=allow]")]);
  const back = new URL(page.url());
  expect(back.origin + back.pathname).toBe(callbackUrl);
  expect(back.searchParams.get("state")).toBe("xyz");
  expect(back.searchParams.get("iss")).toBe(functionUrl("oauth"));
  const token = await fetch(oauthUrl("/token"), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "authorization_code", code: back.searchParams.get("code")!, code_verifier: verifier, client_id, redirect_uri: callbackUrl }),
  });
  const { access_token } = (await token.json()) as { access_token: string };
  expect(access_token).toBeTruthy();

  // Pair a desktop agent: the code the device shows is confirmed on the /device page.
  const device = await startDeviceAuthorization("desktop-agent", "Kitchen PC");
  await page.goto(device.verification_uri_complete);
  const pairing = await page.$eval("main", (m) => m.textContent ?? "");
  expect(pairing).toContain("Pair a desktop agent?");
  expect(pairing).toContain("A Fotos desktop agent named “Kitchen PC” asks to connect to your account");
  expect(pairing).toContain("Confirm only a code you started yourself");
  expect(pairing).toContain(device.user_code);
  await shot(page, "4-pair-device");
  await Promise.all([page.waitForNavigation(), page.click("button[value=approve]")]);
  expect(await page.$eval("h1", (h) => h.textContent)).toBe("Device paired");
  expect((await pollDeviceToken("desktop-agent", device.device_code)).status).toBe(200);

  await page.goto(oauthUrl("/apps"));
  const apps = await page.$eval("table", (t) => t.textContent ?? "");
  expect(apps).toContain("Browser Test App");
  expect(apps).toContain("Kitchen PC");
  await shot(page, "5-connected-apps");

  // Revoke the app: its token stops working at once.
  const callKnowledge = () =>
    fetch(functionUrl("knowledge"), {
      method: "POST",
      headers: { authorization: `Bearer ${access_token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
  expect((await callKnowledge()).status).toBe(200);
  const rows = await page.$$("tbody tr");
  for (const row of rows) {
    if ((await row.evaluate((r) => r.textContent ?? "")).includes("Browser Test App")) {
      await Promise.all([page.waitForNavigation(), row.$eval("button", (b) => (b as HTMLButtonElement).click())]);
      break;
    }
  }
  expect(await page.$eval("main", (m) => m.textContent ?? "")).not.toContain("Browser Test App");
  expect((await callKnowledge()).status).toBe(401);

  // Unpair the device too: the page then says nothing is connected.
  await Promise.all([page.waitForNavigation(), page.click("tbody button")]);
  expect(await page.$eval("main", (m) => m.textContent ?? "")).toContain("No apps or devices are connected.");
  await shot(page, "6-all-revoked");
  expect(outside).toEqual([]);
});
