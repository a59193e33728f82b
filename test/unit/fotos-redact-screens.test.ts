// Redaction on screens rendered by Chromium, one per kind of item, every format the redaction
// promises: each planted item is detected with its type, and after redaction an independent OCR
// (Debian's tesseract, 2×, both polarities) can no longer read it — checked per item, and only
// for items that reader could read before (a control: every one of them). The re-check comes back
// clean. A clean screen (code, numbers that are not PII) comes back unchanged.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { redactScreenshot, type RedactionResult } from "../../functions/src/domains/fotos/pii/redact-screen.js";
import { TesseractOcr } from "../../functions/src/platform/ocr-tesseract.js";
import { closeChromium, detectedAs, ensureTesseractCli, isReadable, readEverything, renderScreen, type Screen } from "../fotos/redact-render.js";

const p = (type: string, value: string) => `<span data-pii="${type}">${value}</span>`;
const light = `body{font-family:"DejaVu Sans",sans-serif;background:#fff;color:#202124;font-size:15px}div.r{padding:7px 24px}`;
const dark = `body{font-family:"DejaVu Sans Mono",monospace;background:#101418;color:#e6edf3;font-size:14px}pre{margin:0;padding:10px 18px;line-height:22px}`;

const SCREENS: [name: string, html: string, width: number, height: number][] = [
  [
    "phones in national and international forms",
    `<style>${light}</style>
     <div class="r">Office (London): ${p("phone", "020 7946 0958")}</div>
     <div class="r">Mobile ${p("phone", "+44 7700 900461")}</div>
     <div class="r">US support ${p("phone", "(415) 555-2671")}</div>
     <div class="r">Berlin: ${p("phone", "+49 30 901820")}</div>
     <div class="r">Paris standard ${p("phone", "01 42 68 53 00")}</div>
     <div class="r">Tel: ${p("phone", "4155550123")}</div>
     <div class="r">Edinburgh desk ${p("phone", "0131 496 0018")}</div>`,
    1000,
    420,
  ],
  [
    "IP addresses in URLs, host:port, user@host, IPv6 short forms (dark terminal)",
    `<style>${dark}</style><pre>$ psql postgres://report@${p("ip_address", "10.20.30.40")}:5432/sales
$ curl http://${p("ip_address", "192.168.1.20")}:8080/health
$ ssh deploy@${p("ip_address", "203.0.113.45")}
upstream  [${p("ip_address", "2001:db8::2")}]:443
loopback  ${p("ip_address", "::1")}
link      ${p("ip_address", "fe80::1ff:fe23:4567:890a")}
</pre>`,
    1000,
    200,
  ],
  [
    "cards in any grouping and SSNs",
    `<style>${light}</style>
     <div class="r">Visa ${p("credit_card", "4539 1488 0343 6467")}</div>
     <div class="r">Amex ${p("credit_card", "3782 822463 10005")}</div>
     <div class="r">Mastercard ${p("credit_card", "5555-5555-5555-4444")}</div>
     <div class="r">Stored card ${p("credit_card", "4012888888881881")}</div>
     <div class="r">SSN ${p("ssn", "078-05-1120")}</div>
     <div class="r">Social security number: ${p("ssn", "219099999")}</div>`,
    1000,
    330,
  ],
  [
    "secrets in an editor (dark)",
    `<style>${dark}</style><pre>AWS_ACCESS_KEY_ID=${p("api_key", "AKIA4HFJ2KD7QWX3MZP6")}
GOOGLE_API_KEY=${p("api_key", "AIzaSyB7xK2mQ9rT4vW8zC1nL5pD3fG6hJ0kS2a")}
GITHUB_TOKEN=${p("api_key", "ghp_9fK2mQ7xLp4Rt8vZ1cB6nW3yH5jD0sA7eG2u")}
SLACK_BOT=${p("api_key", "xoxb-2214567890-4312098765432-Qx7LmN2pR8tV5wZ1cB4dF6gH")}
STRIPE_KEY=${p("api_key", "sk_live_51HqLyjWDarjtT1zdp7dcQx8vB2")}
OPENAI_API_KEY=${p("api_key", "sk-proj-Xq3Lm9Rt7Vw2Bz5Nc8Kd4Hf6Jg1Pa0Es")}
session = "${p("api_key", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjQyfQ.Hk3nV8qW2xZ5cR7tY1uB")}"
deploy_key: ${p("api_key", "-----BEGIN RSA PRIVATE KEY-----")}
SESSION_SECRET=${p("api_key", "f7Kq2Lx9Vb4Nz8Rm3Tc6Wp1Yh5Jd0Gs")}
</pre>`,
    1300,
    240,
  ],
  [
    "emails, one touching the image's edge, one wrapped over two lines",
    `<style>${light} .w{width:190px;word-break:break-all;padding:7px 24px}</style>
     <div style="padding:0;margin:0">${p("email", "first.line@edge-case.org")} is the sender</div>
     <div class="r">Reply to ${p("email", "jane.doe@example.com")}</div>
     <div class="w">${p("email", "very.long.mailbox.name@subsidiary-company.co.uk")}</div>`,
    700,
    160,
  ],
];

const ocr = new TesseractOcr();
const screens: Screen[] = [];
const results: RedactionResult[] = [];
const readBefore: string[] = [];
const readAfter: string[] = [];

beforeAll(async () => {
  await ensureTesseractCli();
  for (const [name, html, w, h] of SCREENS) screens.push(await renderScreen(name, html, w, h));
  await closeChromium();
  for (const s of screens) {
    const r = await redactScreenshot(ocr, s.png);
    results.push(r);
    readBefore.push(await readEverything(s.png));
    readAfter.push(await readEverything(r.png));
  }
}, 900_000);
afterAll(() => ocr.close());

describe.each(SCREENS.map(([name], i) => [name, i] as const))("%s", (_name, i) => {
  test("every item can be read before (control), is detected with its type, and cannot be read after", () => {
    const s = screens[i]!;
    expect(s.planted.length).toBeGreaterThan(2);
    for (const item of s.planted) {
      expect(isReadable(item, readBefore[i]!), `control: ${item.type} ${item.value} readable before`).toBe(true);
      expect(detectedAs(item, results[i]!.detections), `${item.type} ${item.value} detected as ${item.type}`).toBe(true);
      expect(isReadable(item, readAfter[i]!), `${item.type} ${item.value} still readable after redaction:\n${readAfter[i]}`).toBe(false);
    }
  });

  test("the re-check OCR of the redacted image comes back clean", () => {
    expect(results[i]!.recheck).toEqual({ ran: true, clean: true, found: 0 });
  });
});

test("a clean screen (code, versions, prices, dates, ports) comes back unchanged", async () => {
  const s = await renderScreen(
    "clean",
    `<style>${dark}</style><pre>export const RETRY_DELAYS_MS = [250, 500, 1000, 2000];
const total = items.reduce((sum, i) => sum + i.price * i.qty, 0); // 1,299.00 EUR
server.listen(8080); console.log("v4.12.0 built 2026-11-15 at 14:30");
const digest = createHash("sha256").update(orderId).digest("hex");
</pre>`,
    1300,
    140,
  );
  await closeChromium();
  const r = await redactScreenshot(ocr, s.png);
  expect(r.detections).toEqual([]);
  expect(r.png.equals(s.png)).toBe(true);
  expect(r.recheck.ran).toBe(false);
}, 300_000);
