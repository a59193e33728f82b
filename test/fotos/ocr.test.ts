// OCR on screenshots the test renders (known text in English, German, Japanese): the embedded
// engine (tesseract.js, language data from npm) finds the planted sentences and reports each
// word's box in the original pixels; the production engine (Cloud Vision through
// @google-cloud/vision) is driven against a local server speaking images:annotate.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { ocrLanguage, configuredOcrEngine } from "../../functions/src/platform/ocr.js";
import { TesseractOcr } from "../../functions/src/platform/ocr-tesseract.js";
import { VISION_MAX_CONTENT_BYTES, VisionOcr } from "../../functions/src/platform/ocr-vision.js";
import { ENGLISH, GERMAN, JAPANESE, englishScreen, ensureTestFonts, germanScreen, japaneseScreen, wordAccuracy } from "./vision-fixtures.js";

const ocr = new TesseractOcr();
const squash = (s: string) => s.replace(/\s+/g, " ").trim();

beforeAll(() => ensureTestFonts(), 600_000);
afterAll(() => ocr.close());

describe("tesseract.js (embedded default)", () => {
  test("finds every planted English sentence, with word boxes in the original pixels", async () => {
    const png = await englishScreen();
    const result = await ocr.recognize(png, "eng");
    for (const sentence of ENGLISH) expect(squash(result.text)).toContain(sentence);
    expect(wordAccuracy(ENGLISH, result.text)).toBe(1);
    // "quarterly" is drawn at x=250, baseline y=100, 16 px: its box must be there (not at 2× scale).
    const word = result.regions.find((r) => r.text === "quarterly")!;
    expect(word).toBeDefined();
    expect(word.x).toBeGreaterThan(250 + 30);
    expect(word.x).toBeLessThan(250 + 140);
    expect(word.y).toBeGreaterThan(100 - 20);
    expect(word.y + word.h).toBeLessThan(100 + 8);
    expect(word.h).toBeGreaterThan(8);
    expect(word.h).toBeLessThan(24);
    expect(word.confidence).toBeGreaterThan(0.6);
    expect(word.confidence).toBeLessThanOrEqual(1);
    // Lines group words: the sentence is one line.
    const line = result.lines.find((l) => l.some((i) => result.regions[i] === word))!;
    expect(line.map((i) => result.regions[i]!.text).join(" ")).toBe(ENGLISH[0]);
  });

  test("reads German with umlauts and ß using the German model", async () => {
    const result = await ocr.recognize(await germanScreen(), "deu");
    expect(result.language).toBe("deu");
    for (const sentence of GERMAN) expect(squash(result.text)).toContain(sentence);
  });

  test("reads Japanese using the Japanese model (characters joined without spaces)", async () => {
    const result = await ocr.recognize(await japaneseScreen(), "jpn");
    for (const sentence of JAPANESE) expect(result.text.replace(/\s+/g, "")).toContain(sentence);
  });

  test("the same image twice gives the same result (the warm worker is reused)", async () => {
    const png = await germanScreen();
    const [a, b] = await Promise.all([ocr.recognize(png, "deu"), ocr.recognize(png, "deu")]);
    expect(b).toEqual(a);
  });
});

describe("language codes", () => {
  test("eng, deu, jpn are accepted; anything else names the supported ones", () => {
    expect(ocrLanguage("eng")).toBe("eng");
    expect(ocrLanguage(" DEU ")).toBe("deu");
    expect(() => ocrLanguage("fra")).toThrow('Unsupported OCR language "fra": use one of eng, deu, jpn');
  });

  test("engine selection: tesseract locally, vision when deployed or pointed at an endpoint", () => {
    expect(configuredOcrEngine({})).toBe("tesseract");
    expect(configuredOcrEngine({ K_SERVICE: "fotos" })).toBe("vision");
    expect(configuredOcrEngine({ K_SERVICE: "fotos", FUNCTIONS_EMULATOR: "true" })).toBe("tesseract");
    expect(configuredOcrEngine({ VISION_API_ENDPOINT: "http://127.0.0.1:1" })).toBe("vision");
    expect(configuredOcrEngine({ K_SERVICE: "fotos", OCR_ENGINE: "tesseract" })).toBe("tesseract");
    expect(() => configuredOcrEngine({ OCR_ENGINE: "abbyy" })).toThrow(/OCR_ENGINE/);
  });
});

describe("Cloud Vision documentTextDetection (real client, local images:annotate server)", () => {
  let server: Server;
  let endpoint: string;
  const seen: { url: string; auth?: string; body: any }[] = [];
  let status = 200;

  const sym = (text: string, brk?: string) => ({ text, ...(brk ? { property: { detectedBreak: { type: brk } } } : {}) });
  const word = (text: string, x: number, y: number, w: number, h: number, brk: string, confidence = 0.98) => ({
    confidence,
    boundingBox: { vertices: [{ x, y }, { x: x + w, y }, { x: x + w, y: y + h }, { x, y: y + h }] },
    symbols: [...text].map((c, i) => sym(c, i === text.length - 1 ? brk : undefined)),
  });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      seen.push({ url: req.url ?? "", auth: req.headers.authorization, body: JSON.parse(Buffer.concat(chunks).toString()) });
      res.setHeader("content-type", "application/json");
      if (status !== 200) {
        res.statusCode = status;
        return res.end(JSON.stringify({ error: { code: status, message: "quota exceeded", status: "RESOURCE_EXHAUSTED" } }));
      }
      res.end(
        JSON.stringify({
          responses: [
            {
              fullTextAnnotation: {
                text: "Größe der Datei\nOK",
                pages: [
                  {
                    blocks: [
                      {
                        paragraphs: [
                          { words: [word("Größe", 10, 20, 60, 18, "SPACE"), word("der", 76, 20, 30, 18, "SPACE"), word("Datei", 112, 20, 50, 18, "LINE_BREAK")] },
                          { words: [{ ...word("OK", 10, 60, 24, 18, "LINE_BREAK", 0.5), boundingBox: { vertices: [{ y: 60 }, { x: 24, y: 60 }, { x: 24, y: 78 }, { y: 78 }] } }] },
                        ],
                      },
                    ],
                  },
                ],
              },
            },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("sends the image for DOCUMENT_TEXT_DETECTION with the language hint; words, boxes and lines come back", async () => {
    const png = await germanScreen();
    const result = await new VisionOcr({ endpoint }).recognize(png, "deu");
    const request = seen.at(-1)!;
    expect(new URL(request.url, endpoint).pathname).toBe("/v1/images:annotate");
    expect(request.auth).toMatch(/^Bearer /);
    const [one] = request.body.requests;
    expect(Buffer.from(one.image.content, "base64").equals(png)).toBe(true);
    expect(one.features).toEqual([{ type: 11 }]); // DOCUMENT_TEXT_DETECTION
    expect(one.imageContext.languageHints).toEqual(["de"]);
    expect(result).toEqual({
      engine: "vision",
      language: "deu",
      text: "Größe der Datei\nOK",
      regions: [
        { text: "Größe", x: 10, y: 20, w: 60, h: 18, confidence: 0.98 },
        { text: "der", x: 76, y: 20, w: 30, h: 18, confidence: 0.98 },
        { text: "Datei", x: 112, y: 20, w: 50, h: 18, confidence: 0.98 },
        { text: "OK", x: 0, y: 60, w: 24, h: 18, confidence: 0.5 },
      ],
      lines: [[0, 1, 2], [3]],
    });
  });

  test("a screenshot too big for Vision's 10 MB request is sent as a JPEG under 7 MB (downscaled if need be); boxes come back in the original's pixels", async () => {
    // 4000×2400 of noise: a ~28 MB PNG, far above what one request may carry.
    const noisy = await sharp({ create: { width: 4000, height: 2400, channels: 3, background: "#808080", noise: { type: "gaussian", mean: 128, sigma: 50 } } })
      .png()
      .toBuffer();
    expect(noisy.length).toBeGreaterThan(VISION_MAX_CONTENT_BYTES);
    const result = await new VisionOcr({ endpoint }).recognize(noisy, "deu");
    const sent = Buffer.from(seen.at(-1)!.body.requests[0].image.content, "base64");
    expect(sent.length).toBeLessThanOrEqual(VISION_MAX_CONTENT_BYTES);
    const meta = await sharp(sent).metadata();
    expect(meta.format).toBe("jpeg");
    const scale = meta.width! / 4000;
    expect(scale).toBeLessThan(1); // noise does not fit at full size
    // The stand-in answers in the sent image's pixels: "Größe" at (10, 20) 60×18 there.
    const groesse = result.regions[0]!;
    expect(groesse.x).toBe(Math.floor(10 / scale));
    expect(groesse.x + groesse.w).toBeGreaterThanOrEqual(70 / scale);
    expect(groesse.y + groesse.h).toBeGreaterThanOrEqual(38 / scale);
  });

  test("an API failure is one sentence, without upstream details", async () => {
    status = 429;
    try {
      await expect(new VisionOcr({ endpoint }).recognize(await germanScreen(), "eng")).rejects.toThrow(
        "Text recognition (Cloud Vision) failed; try again in a moment",
      );
    } finally {
      status = 200;
    }
  });
});
