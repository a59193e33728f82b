// Screens for the redaction tests and bench: HTML rendered by Chromium (real fonts, hinting and
// anti-aliasing, as on a real screen), with every planted item wrapped in
// <span data-pii="type">…</span> so its box on the page is known; and an independent reader,
// Debian's tesseract (the command-line program, not the tesseract.js the product uses), on the
// image upscaled 2×, to say whether an item can still be read after redaction.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import puppeteer, { type Browser } from "puppeteer-core";
import sharp from "sharp";

const run = promisify(execFile);

export interface PlantedItem {
  type: string;
  value: string;
  /** Its box on the screen (CSS px = image px). */
  box: { x: number; y: number; w: number; h: number };
}

export interface Screen {
  name: string;
  png: Buffer;
  planted: PlantedItem[];
  /** All text a reader should find (document.body.innerText). */
  text: string;
}

let browser: Promise<Browser> | undefined;

function chromium(): Promise<Browser> {
  browser ??= puppeteer.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--font-render-hinting=none", "--force-color-profile=srgb"],
  });
  return browser;
}

export async function closeChromium(): Promise<void> {
  if (browser) await (await browser).close();
  browser = undefined;
}

/** Renders `body` (HTML, with its own <style>) at width × height and reads back the planted items' boxes. */
export async function renderScreen(name: string, body: string, width = 1920, height = 1080): Promise<Screen> {
  const page = await (await chromium()).newPage();
  try {
    await page.setViewport({ width, height, deviceScaleFactor: 1 });
    await page.setContent(`<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;overflow:hidden}</style></head><body>${body}</body></html>`, { waitUntil: "load" });
    const { planted, text } = await page.evaluate(() => ({
      planted: [...document.querySelectorAll<HTMLElement>("[data-pii]")].map((el) => {
        const r = el.getBoundingClientRect();
        return { type: el.dataset.pii!, value: el.textContent!, box: { x: Math.floor(r.left), y: Math.floor(r.top), w: Math.ceil(r.width), h: Math.ceil(r.height) } };
      }),
      text: document.body.innerText,
    }));
    const png = Buffer.from(await page.screenshot({ type: "png", clip: { x: 0, y: 0, width, height } }));
    return { name, png, planted, text };
  } finally {
    await page.close();
  }
}

/** Installs Debian's tesseract when missing (CI starts from a fresh machine; scripts/test-deps.sh does the same). */
export async function ensureTesseractCli(): Promise<void> {
  if (existsSync("/usr/bin/tesseract")) return;
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  await run("bash", ["-c", "apt-get -o DPkg::Lock::Timeout=600 install -y -qq tesseract-ocr tesseract-ocr-eng || (apt-get update -qq && apt-get -o DPkg::Lock::Timeout=600 install -y -qq tesseract-ocr tesseract-ocr-eng)"], { env, maxBuffer: 64 << 20 });
}

/**
 * What Debian's tesseract reads on the image, upscaled 2× (screens read much better that way).
 * `invert`: read the negative instead (light text on dark, which tesseract reads worse).
 */
export async function independentOcr(png: Buffer, { scale = 2, invert = false, psm = 3 }: { scale?: number; invert?: boolean; psm?: 3 | 6 } = {}): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "fotos-ocr-"));
  try {
    const meta = await sharp(png).metadata();
    let img = sharp(png).flatten({ background: "#ffffff" }).grayscale();
    if (invert) img = img.negate();
    const file = join(dir, "in.png");
    writeFileSync(file, await img.resize({ width: Math.round((meta.width ?? 1) * scale), kernel: "lanczos3" }).png().toBuffer());
    const { stdout } = await run("tesseract", [file, "stdout", "-l", "eng", "--psm", String(psm)], { maxBuffer: 64 << 20, env: { ...process.env, OMP_THREAD_LIMIT: "1" } });
    return stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Every reading a reader could try: both polarities (dark and light panels), and both automatic
 * page layout (psm 3, which may take a page with large black boxes for a picture and read nothing)
 * and one uniform block of text (psm 6).
 */
export async function readEverything(png: Buffer): Promise<string> {
  const readings = await Promise.all([
    independentOcr(png),
    independentOcr(png, { invert: true }),
    independentOcr(png, { psm: 6 }),
    independentOcr(png, { psm: 6, invert: true }),
  ]);
  return readings.join("\n");
}

/** Characters OCR confuses, folded, so "read back" also catches near-misses. */
export const fold = (s: string) => s.toLowerCase().replace(/[\s_]/g, "").replace(/[il|!]/g, "1").replace(/o/g, "0").replace(/[^a-z0-9@:.+/=-]/g, "");

/**
 * Whether `item` can be read in `text`: its value (folded), or for numbers its digits in order on
 * one line, or for long values any 8-character piece of it with 5 different characters (enough to
 * identify a key or to search for it).
 */
export function isReadable(item: Pick<PlantedItem, "type" | "value">, text: string): boolean {
  const value = fold(item.value);
  const lines = text.split("\n");
  if (fold(text).includes(value)) return true;
  if (lines.some((l) => fold(l).includes(value))) return true;
  const digits = item.value.replace(/\D/g, "");
  if (["phone", "credit_card", "ssn"].includes(item.type) && digits.length >= 7) {
    if (lines.some((l) => l.replace(/\D/g, "").includes(digits.slice(-7)))) return true;
  }
  if (value.length >= 12) {
    const folded = fold(text);
    for (let i = 0; i + 8 <= value.length; i++) {
      const piece = value.slice(i, i + 8);
      if (new Set(piece).size >= 5 && folded.includes(piece)) return true;
    }
  }
  return false;
}

/** Whether a detection of the item's type overlaps the item's box. */
export function detectedAs(item: PlantedItem, detections: { type: string; x: number; y: number; w: number; h: number }[]): boolean {
  const b = item.box;
  return detections.some((d) => d.type === item.type && d.x < b.x + b.w && d.x + d.w > b.x && d.y < b.y + b.h && d.y + d.h > b.y);
}
