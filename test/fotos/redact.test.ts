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
    detections = detectPii(result);
    redacted = await redact(png, detections);
  }, 120_000);

  test("every planted item is detected, with its type, on the line where it was drawn", () => {
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
    expect(detectPii(after)).toEqual([]);
    // The labels are still there: only the values were covered.
    expect(after.text.toLowerCase()).toContain("email:");
    expect(after.text.toLowerCase()).toContain("server:");
  });

  test("each region is covered by a solid fill", async () => {
    const { default: sharp } = await import("sharp");
    for (const d of detections) {
      const pixels = await sharp(redacted).extract({ left: d.x, top: d.y, width: d.w, height: d.h }).removeAlpha().raw().toBuffer();
      expect(Math.max(...pixels), JSON.stringify(d)).toBe(0);
    }
  });
});

test("a screenshot without PII comes back byte-identical, with no detections", async () => {
  const png = await cleanScreen();
  const result = await ocr.recognize(png, "eng");
  expect(result.text).toContain("Release notes for version 2.4.1"); // it was read
  const detections = detectPii(result);
  expect(detections).toEqual([]);
  const out = await redact(png, detections);
  expect(out.equals(png)).toBe(true);
});

describe("patterns on joined lines", () => {
  const types = (s: string) => detectInText(s).map((m) => `${m.type}:${s.slice(m.start, m.end)}`);

  test("card numbers with any OCR spacing pass only with a valid Luhn digit", () => {
    expect(luhn("4111111111111111")).toBe(true);
    expect(types("Card 4111 1111 11111111 exp 12/29")).toEqual(["credit_card:4111 1111 11111111"]);
    expect(types("Card 4111-1111-1111-1112")).not.toContainEqual(expect.stringMatching(/^credit_card/));
    expect(types("Order 1234 5678 9012 3456")).not.toContainEqual(expect.stringMatching(/^credit_card/));
  });

  test("a card number is not also a phone number; an SSN is not a phone", () => {
    expect(types("Visa 4111 1111 1111 1111")).toEqual(["credit_card:4111 1111 1111 1111"]);
    expect(types("SSN 078-05-1120")).toEqual(["ssn:078-05-1120"]);
  });

  test("phones in several formats; versions, dates and prices are not PII", () => {
    expect(types("Call (415) 555-2671 now")).toEqual(["phone:(415) 555-2671"]);
    expect(types("Tel +44 20 7946 0958")).toEqual(["phone:+44 20 7946 0958"]);
    expect(types("Version 2.4.1 released 2026-03-15, total 1,299.00 EUR at 14:30")).toEqual([]);
  });

  test("provider key formats and generic high-entropy secrets", () => {
    expect(types("key AKIAIOSFODNN7EXAMPLE")).toEqual(["api_key:AKIAIOSFODNN7EXAMPLE"]);
    expect(types("token github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv")).toEqual(["api_key:github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuv"]);
    expect(types("xoxp-1234567890-abcdefghij")).toEqual(["api_key:xoxp-1234567890-abcdefghij"]);
    expect(types("password: hunter2hunter2")).toEqual(["api_key:hunter2hunter2"]);
    expect(types("sk-ant-api03-abcdefghijklmnopqrstuvwx")).toEqual(["api_key:sk-ant-api03-abcdefghijklmnopqrstuvwx"]);
    expect(types("commit 3f9a2c1 in main")).toEqual([]);
    expect(types("ThisIsJustAVeryLongCamelCaseIdentifierName")).toEqual([]);
  });

  test("IPv4 and IPv6, but not times or version numbers", () => {
    expect(types("from 10.0.0.255 and fe80::1ff:fe23:4567:890a")).toEqual(["ip_address:10.0.0.255", "ip_address:fe80::1ff:fe23:4567:890a"]);
    expect(types("at 12:30:45 build 1.2.3")).toEqual([]);
  });
});
