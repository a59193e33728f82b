// PII redaction on a screenshot with planted PII of every type (several fonts and sizes, light and
// dark backgrounds): every item is detected where it was drawn, and OCR of the redacted image reads
// none of it back. A screen without PII comes back byte-identical with no detections.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { TesseractOcr } from "../../functions/src/platform/ocr-tesseract.js";
import { detectInText, detectPii, luhn, type Detection } from "../../functions/src/domains/fotos/pii/detect.js";
import { redact } from "../../functions/src/domains/fotos/pii/redact.js";
import { PLANTED, cleanScreen, ensureTestFonts, piiLayout, piiScreen } from "./vision-fixtures.js";

const ocr = new TesseractOcr();
beforeAll(() => ensureTestFonts(), 600_000);
afterAll(() => ocr.close());

/** Characters OCR confuses, folded, so "read back" also catches near-misses. */
const fold = (s: string) => s.toLowerCase().replace(/[\s_]/g, "").replace(/[il]/g, "1").replace(/o/g, "0");

describe("on a screenshot with planted PII", () => {
  let png: Buffer;
  let detections: Detection[];
  let redacted: Buffer;

  beforeAll(async () => {
    png = await piiScreen();
    const result = await ocr.recognize(png, "eng");
    detections = await detectPii(result);
    redacted = await redact(png, detections);
  }, 120_000);

  test("every planted item is detected, with its type, on the line where it was drawn", async () => {
    const layout = piiLayout();
    PLANTED.forEach((item, i) => {
      const { x, y, size, right } = layout[i]!;
      const onLine = detections.filter((d) => d.y < y + 4 && d.y + d.h > y - size && d.x >= x && d.x + d.w <= right);
      expect(onLine.map((d) => d.type), `${item.type} ${item.value}`).toEqual([item.type]);
    });
    expect(detections.length).toBe(PLANTED.length);
  });

  test("OCR of the redacted image reads none of it back", async () => {
    const after = await ocr.recognize(redacted, "eng");
    const text = fold(after.text);
    for (const item of PLANTED) {
      const value = fold(item.value);
      // Neither the value nor any distinctive 6-character piece of it survives (pieces like
      // "111111" are skipped: OCR reads a black box as a row of bars).
      expect(text).not.toContain(value);
      for (let i = 0; i + 6 <= value.length; i++) {
        const piece = value.slice(i, i + 6);
        if (new Set(piece).size >= 3) expect(text, `${item.type} ${item.value}`).not.toContain(piece);
      }
    }
    expect(after.text.replace(/\D/g, "")).not.toMatch(/41111111|55000000|1234567|4155552671/);
    expect(await detectPii(after)).toEqual([]);
    // The labels are still there: only the values were covered (with a margin, which may take a colon).
    expect(after.text.toLowerCase()).toMatch(/\bvisa\b/);
    expect(after.text.toLowerCase()).toMatch(/\bssn\b/);
  });

  test("each region is covered by a solid fill: black on light panels, gray on dark ones (a black box would not show)", async () => {
    const { default: sharp } = await import("sharp");
    for (const d of detections) {
      const pixels = await sharp(redacted).extract({ left: d.x, top: d.y, width: d.w, height: d.h }).removeAlpha().raw().toBuffer();
      const onDark = d.x >= 760;
      expect([Math.min(...pixels), Math.max(...pixels)], JSON.stringify(d)).toEqual(onDark ? [128, 128] : [0, 0]);
    }
  });
});

test("a screenshot without PII comes back byte-identical, with no detections", async () => {
  const png = await cleanScreen();
  const result = await ocr.recognize(png, "eng");
  expect(result.text).toContain("Release notes for version 2.4.1"); // it was read
  const detections = await detectPii(result);
  expect(detections).toEqual([]);
  const out = await redact(png, detections);
  expect(out.equals(png)).toBe(true);
});

describe("patterns on joined lines", () => {
  const types = async (s: string, region?: string) => (await detectInText(s, { region })).map((m) => `${m.type}:${s.slice(m.start, m.end)}`);

  test("card numbers with any OCR spacing pass only with a valid Luhn digit", async () => {
    expect(luhn("4111111111111111")).toBe(true);
    expect(await types("Card 4111 1111 11111111 exp 12/29")).toEqual(["credit_card:4111 1111 11111111"]);
    expect(await types("Card 4111-1111-1111-1112")).not.toContainEqual(expect.stringMatching(/^credit_card/));
    expect(await types("Order 1234 5678 9012 3456")).not.toContainEqual(expect.stringMatching(/^credit_card/));
  });

  test("a card number is not also a phone number; an SSN is not a phone", async () => {
    expect(await types("Visa 4111 1111 1111 1111")).toEqual(["credit_card:4111 1111 1111 1111"]);
    expect(await types("SSN 078-05-1120")).toEqual(["ssn:078-05-1120"]);
  });

  test("phones in several formats; versions, dates and prices are not PII", async () => {
    expect(await types("Call (415) 555-2671 now")).toEqual(["phone:(415) 555-2671"]);
    expect(await types("Tel +44 20 7946 0958")).toEqual(["phone:+44 20 7946 0958"]);
    expect(await types("Version 2.4.1 released 2026-03-15, total 1,299.00 EUR at 14:30")).toEqual([]);
  });

  test("provider key formats and generic high-entropy secrets", async () => {
    expect(await types("key AKIAIOSFODNN7EXAMPLE")).toEqual(["api_key:AKIAIOSFODNN7EXAMPLE"]);
    expect(await types("token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv")).toEqual(["api_key:github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv"]);
    expect(await types("xoxp-1234567890-abcdefghij")).toEqual(["api_key:xoxp-1234567890-abcdefghij"]);
    expect(await types("password: hunter2hunter2")).toEqual(["api_key:hunter2hunter2"]);
    expect(await types("sk-ant-api03-abcdefghijklmnopqrstuvwx")).toEqual(["api_key:sk-ant-api03-abcdefghijklmnopqrstuvwx"]);
    expect(await types("commit 3f9a2c1 in main")).toEqual([]);
    expect(await types("ThisIsJustAVeryLongCamelCaseIdentifierName")).toEqual([]);
  });

  test("IPv4 and IPv6, but not times or version numbers", async () => {
    expect(await types("from 10.0.0.255 and fe80::1ff:fe23:4567:890a")).toEqual(["ip_address:10.0.0.255", "ip_address:fe80::1ff:fe23:4567:890a"]);
    expect(await types("at 12:30:45 build 1.2.3")).toEqual([]);
  });

  test("phone numbers as people outside the US write them, in the person's region and the common ones", async () => {
    expect(await types("Phone 020 7946 0958")).toEqual(["phone:020 7946 0958"]); // UK national, leading 0
    expect(await types("Mobile +44 7700 900123")).toEqual(["phone:+44 7700 900123"]); // possible, in a range kept for drama
    expect(await types("+44 7700 900123")).toEqual(["phone:+44 7700 900123"]); // no label: the + is enough
    expect(await types("Ring 0131 496 0018 after nine")).toEqual(["phone:0131 496 0018"]);
    expect(await types("Büro 030 901820", "DE")).toEqual(["phone:030 901820"]);
    expect(await types("Standard 01 42 68 53 00")).toEqual(["phone:01 42 68 53 00"]); // France
    expect(await types("Recovery +55 11 98765-4321")).toEqual(["phone:+55 11 98765-4321"]);
    expect(await types("call 0049 30 901820")).toEqual(["phone:0049 30 901820"]);
    // Labelled context widens: a bare digit run counts only after a label.
    expect(await types("Tel: 4155552671")).toEqual(["phone:4155552671"]);
    expect(await types("Build 4155552671")).toEqual([]);
    expect(await types("build 20261115.4 and order 1004823, total 1,284,990.00")).toEqual([]);
  });

  test("phone numbers in code and logs: string literals in international form, any country, spaced or not", async () => {
    const literals = [
      ['const SUPPORT = "+44 20 7946 0958";', "+44 20 7946 0958"],
      ['"mobile":"+4915112345678",', "+4915112345678"], // 13 digits that pass Luhn: still a phone, not a card
      ['call("tel:+33142685300")', "+33142685300"],
      ['SUPPORT_PHONE="+81-3-1234-5678"', "+81-3-1234-5678"],
      ["2024-05-01 12:00:01 INFO dial to=+61 2 9876 5432 ok", "+61 2 9876 5432"],
      ["[INFO] sms sent to +919876543210 id=42", "+919876543210"],
      ['{"to": "+5511987654321"}', "+5511987654321"],
      ['  "+7 495 123-45-67",', "+7 495 123-45-67"],
      ["const n = '+86 10 1234 5678'", "+86 10 1234 5678"],
      ['fmt.Println("+1 (415) 555-2671")', "+1 (415) 555-2671"],
    ];
    for (const [line, phone] of literals) expect(await types(line!), line).toEqual([`phone:${phone}`]);
  });

  test("IP addresses wherever they stand: URLs, host:port, user@host, IPv6 short forms", async () => {
    expect(await types("postgres://app@10.20.30.40:5432/prod")).toContainEqual("ip_address:10.20.30.40");
    expect(await types("ssh admin@203.0.113.45 -p 2222")).toEqual(["ip_address:203.0.113.45"]);
    expect(await types("listen 192.168.1.20:8080")).toEqual(["ip_address:192.168.1.20"]);
    expect(await types("http://[fd00::7]:9090/push")).toEqual(["ip_address:fd00::7"]);
    expect(await types("REDIS_HOST=::1")).toContainEqual("ip_address:::1");
    expect(await types("gateway 2001:db8::")).toEqual(["ip_address:2001:db8::"]);
    expect(await types("subnet 10.1.0.0/16")).toEqual(["ip_address:10.1.0.0"]);
    // OCR's dotted zero read as "@" next to digits, a one read as "l".
    expect(await types("postgres://app@1@.20.30.40:5432/prod")).toContainEqual("ip_address:1@.20.30.40");
    expect(await types("postgres: //app@l0.20.30.40:5432/crm")).toContainEqual("ip_address:l0.20.30.40");
    expect(await types("bind 0.0.0.0 version 4.12.0 at 12:30:45, std::vector")).toEqual([]);
  });

  test("emails as OCR spaces them", async () => {
    expect(await types("email jane.doe@example. com")).toEqual(["email:jane.doe@example. com"]);
    expect(await types("Reply to jane.doe @ example.com now")).toEqual(["email:jane.doe @ example.com"]);
    expect(await types("Write to us at the office. Thanks")).toEqual([]);
  });

  test("cards in any grouping (Luhn), SSNs as written and after a label", async () => {
    expect(await types("Amex 3782 822463 10005")).toEqual(["credit_card:3782 822463 10005"]);
    expect(await types("Card 4539148803436467")).toEqual(["credit_card:4539148803436467"]);
    expect(await types("Card 4539.1488.0343.6467")).toEqual(["credit_card:4539.1488.0343.6467"]);
    expect(await types("SSN: 078051120")).toEqual(["ssn:078051120"]);
    expect(await types("SSN 219 09 9999")).toEqual(["ssn:219 09 9999"]);
    expect(await types("ref 666-12-3456")).toEqual([]);
  });

  test("secrets: the maintained preset's providers, JWTs, private keys, KEY=<high entropy>", async () => {
    expect(await types("GITHUB_TOKEN=ghp_9fK2mQ7xLp4Rt8vZ1cB6nW3yH5jD0sA7eG2u")).toContainEqual("api_key:ghp_9fK2mQ7xLp4Rt8vZ1cB6nW3yH5jD0sA7eG2u");
    expect(await types("slack xoxb-2214567890-4312098765432-Qx7LmN2pR8tV5wZ1cB4dF6gH")).toEqual(["api_key:xoxb-2214567890-4312098765432-Qx7LmN2pR8tV5wZ1cB4dF6gH"]);
    expect(await types("SENDGRID 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")).toEqual(["api_key: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"]);
    expect(await types("mysql://shop:Tr0ub4dor3xK9q@db.internal:3306/shop")).toContainEqual(expect.stringMatching(/^api_key:.*Tr0ub4dor3xK9q/));
    expect(await types("session eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjQyfQ.Hk3nV8qW2xZ5cR7tY1uB")).toEqual([
      "api_key:eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ1aWQiOjQyfQ.Hk3nV8qW2xZ5cR7tY1uB",
    ]);
    expect(await types("-----BEGIN OPENSSH PRIVATE KEY-----")).toEqual(["api_key:-----BEGIN OPENSSH PRIVATE KEY-----"]);
    expect(await types("SESSION_SECRET=f7Kq2Lx9Vb4Nz8Rm3Tc6Wp1Yh5Jd0Gs")).toEqual(["api_key:f7Kq2Lx9Vb4Nz8Rm3Tc6Wp1Yh5Jd0Gs"]);
    expect(await types("const RETRY_DELAYS_MS = [250, 500, 1000]; createHash(\"sha256\")")).toEqual([]);
  });

  test("an item cut over two OCR lines is found as one, with a box on each line", async () => {
    const word = (text: string, x: number, y: number) => ({ text, x, y, w: text.length * 8, h: 14, confidence: 0.9 });
    const regions = [word("token:", 10, 10), word("ghp_9fK2mQ7xLp4Rt8vZ", 70, 10), word("1cB6nW3yH5jD0sA7eG2u", 10, 30)];
    const detections = await detectPii({ text: "", regions, lines: [[0, 1], [2]], language: "eng", engine: "tesseract" });
    expect(detections.map((d) => [d.type, d.y])).toEqual(expect.arrayContaining([["api_key", 10], ["api_key", 30]]));
  });
});
