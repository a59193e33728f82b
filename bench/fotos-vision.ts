// Fotos vision figures on a 1920×1080 screenshot with ~40 lines of text (some of it PII), using
// the embedded engines in this process (the same modules the fotos function runs):
//   OCR (tesseract.js, cold and warm), PII redaction (OCR + detection + fill; target < 1.5 s warm),
//   annotation (5 shapes + a blur), word-level OCR accuracy per language, memory after 100 operations.
// Prints figures; asserts nothing. `npm run bench -- fotos-vision`
import { renderAnnotations } from "../functions/src/domains/fotos/annotate/render.js";
import { annotationsSchema } from "../functions/src/domains/fotos/annotate/schema.js";
import { detectPii } from "../functions/src/domains/fotos/pii/detect.js";
import { redact } from "../functions/src/domains/fotos/pii/redact.js";
import { TesseractOcr } from "../functions/src/platform/ocr-tesseract.js";
import { ENGLISH, GERMAN, JAPANESE, PLANTED, WINDOW_DECOR, englishScreen, ensureTestFonts, germanScreen, japaneseScreen, renderPage, wordAccuracy } from "../test/fotos/vision-fixtures.js";

ensureTestFonts();
const ms = (t: number) => `${(performance.now() - t).toFixed(0)} ms`;
/** CPU time of this process (tesseract's worker thread included): what the work costs, whatever the machine's load. */
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function screen1080(): Promise<Buffer> {
  const filler = [...ENGLISH, "Deployment finished without warnings.", "Open the settings to change the theme.", "Three new comments on your pull request."];
  const lines = Array.from({ length: 36 }, (_, i) => {
    const pii = i % 4 === 1 ? PLANTED[(i >> 2) % PLANTED.length]! : undefined;
    return { text: pii ? `${pii.label} ${pii.value}` : filler[i % filler.length]!, x: 250 + (i % 2) * 820, y: 80 + Math.floor(i / 2) * 55, size: 14 + (i % 3) * 2 };
  });
  return renderPage({ width: 1920, height: 1080, decor: WINDOW_DECOR(1920, 1080), lines });
}

const ocr = new TesseractOcr();
const png = await screen1080();
console.log(`screenshot 1920×1080, ${(png.length / 1024).toFixed(0)} KB`);

let t = performance.now();
await ocr.recognize(png, "eng");
console.log(`OCR cold (worker start + recognize): ${ms(t)}`);
const ocrTimes: number[] = [];
const ocrCpu = cpuMs();
for (let i = 0; i < 5; i++) {
  t = performance.now();
  await ocr.recognize(png, "eng");
  ocrTimes.push(performance.now() - t);
}
console.log(`OCR warm: median ${median(ocrTimes).toFixed(0)} ms wall, ${((cpuMs() - ocrCpu) / 5).toFixed(0)} ms CPU per run (5 runs)`);

const redactTimes: number[] = [];
let found = 0;
const redactCpu = cpuMs();
for (let i = 0; i < 5; i++) {
  t = performance.now();
  const result = await ocr.recognize(png, "eng");
  const detections = await detectPii(result);
  await redact(png, detections);
  redactTimes.push(performance.now() - t);
  found = detections.length;
}
console.log(`redaction warm (OCR + detect + fill, ${found} of 9 planted items found): median ${median(redactTimes).toFixed(0)} ms wall, ${((cpuMs() - redactCpu) / 5).toFixed(0)} ms CPU per run (target < 1500 ms; load average ${(await import("node:os")).loadavg()[0]!.toFixed(1)} on ${(await import("node:os")).cpus().length} cores)`);

const annotations = annotationsSchema.parse([
  { type: "rect", x: 240, y: 60, width: 800, height: 120 },
  { type: "ellipse", x: 1100, y: 300, width: 300, height: 160, color: "#00AA00", stroke_width: 4 },
  { type: "arrow", points: [{ x: 100, y: 900 }, { x: 600, y: 700 }, { x: 900, y: 500 }] },
  { type: "text", x: 300, y: 950, text: "This button does nothing", height: 28 },
  { type: "blur", x: 1070, y: 100, width: 600, height: 300 },
  { type: "rect", x: 1060, y: 90, width: 620, height: 320, color: "#0000FF" },
]);
await renderAnnotations(png, annotations);
const annotateTimes: number[] = [];
for (let i = 0; i < 10; i++) {
  t = performance.now();
  await renderAnnotations(png, annotations);
  annotateTimes.push(performance.now() - t);
}
console.log(`annotation (6 annotations incl. blur): median ${median(annotateTimes).toFixed(0)} ms (10 runs)`);

for (const [lang, make, expected] of [["eng", englishScreen, ENGLISH], ["deu", germanScreen, GERMAN], ["jpn", japaneseScreen, JAPANESE]] as const) {
  const result = await ocr.recognize(await make(), lang);
  const text = lang === "jpn" ? result.text.replace(/\s+/g, "") : result.text;
  const accuracy = lang === "jpn" ? [...expected.join("")].filter((c) => text.includes(c)).length / expected.join("").length : wordAccuracy([...expected], text);
  console.log(`OCR accuracy ${lang}: ${(accuracy * 100).toFixed(1)} % ${lang === "jpn" ? "of characters" : "of words"}`);
}

global.gc?.();
const before = process.memoryUsage();
for (let i = 0; i < 100; i++) {
  if (i % 3 === 0) await ocr.recognize(png, "eng");
  else if (i % 3 === 1) await redact(png, await detectPii(await ocr.recognize(png, "eng")));
  else await renderAnnotations(png, annotations);
}
global.gc?.();
const after = process.memoryUsage();
console.log(`memory after 100 operations: rss ${mb(before.rss)} → ${mb(after.rss)}, heap ${mb(before.heapUsed)} → ${mb(after.heapUsed)}, external ${mb(before.external)} → ${mb(after.external)}`);
await ocr.recognize(await germanScreen(), "deu");
await ocr.recognize(await japaneseScreen(), "jpn");
global.gc?.();
console.log(`memory with all three language workers warm: rss ${mb(process.memoryUsage().rss)} (the fotos function has 1 GiB)`);
await ocr.close();
