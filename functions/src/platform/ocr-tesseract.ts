// The embedded OCR engine: tesseract.js 7 with the LSTM models of @tesseract.js-data/<lang>
// (npm packages, gzipped; nothing is downloaded at run time). One warm worker per language,
// created on first use and reused; one recognition at a time per worker (tesseract is
// single-threaded per worker). The image is prepared first (ocr-input.ts: dark regions inverted,
// upscaled, a white border); boxes are mapped back to the original pixels.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { createWorker, OEM, type Worker } from "tesseract.js";
import { envNumber } from "../core/env.js";
import { prepareForOcr, toOriginal, type PrepareOptions } from "./ocr-input.js";
import { joinLines, splitAtGaps, type OcrEngine, type OcrLanguage, type OcrRegion, type OcrResult } from "./ocr-result.js";

const require = createRequire(import.meta.url);
/** A language's worker is ended after this long unused (its model takes 50–200 MB). */
const IDLE_MS = envNumber("OCR_WORKER_IDLE_MS", 10 * 60_000, { min: 1000 });

interface TesseractWord {
  text: string;
  confidence: number;
  bbox: { x0: number; y0: number; x1: number; y1: number };
}

export function languageDataPath(language: OcrLanguage): string {
  return join(dirname(require.resolve(`@tesseract.js-data/${language}/package.json`)), "4.0.0_best_int");
}

export class TesseractOcr implements OcrEngine {
  readonly name = "tesseract" as const;
  private readonly workers = new Map<OcrLanguage, Promise<Worker>>();
  /** Serializes recognitions per language (a worker runs one job at a time anyway). */
  private readonly queues = new Map<OcrLanguage, Promise<unknown>>();
  private readonly idle = new Map<OcrLanguage, NodeJS.Timeout>();

  /** `prepare`: how images are prepared (the defaults of ocr-input.ts; the bench compares others). */
  constructor(private readonly prepare: PrepareOptions = {}) {}

  private worker(language: OcrLanguage): Promise<Worker> {
    let worker = this.workers.get(language);
    if (!worker) {
      worker = createWorker(language, OEM.LSTM_ONLY, {
        langPath: languageDataPath(language),
        gzip: true,
        cacheMethod: "none", // read-only filesystem in production; the data is local anyway
      }).then(async (w) => {
        // Screenshots carry no resolution; saying so spares a warning per image (tesseract assumes 70 then).
        await w.setParameters({ user_defined_dpi: "70" });
        return w;
      });
      worker.catch(() => this.workers.delete(language));
      this.workers.set(language, worker);
    }
    return worker;
  }

  async recognize(png: Buffer, language: OcrLanguage): Promise<OcrResult> {
    const previous = this.queues.get(language) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.run(png, language));
    this.queues.set(language, run);
    clearTimeout(this.idle.get(language));
    void run.finally(() => {
      if (this.queues.get(language) !== run) return; // more work queued behind this job
      const timer = setTimeout(() => void this.release(language), IDLE_MS);
      timer.unref();
      this.idle.set(language, timer);
    }).catch(() => undefined);
    return run;
  }

  private async release(language: OcrLanguage): Promise<void> {
    const worker = this.workers.get(language);
    this.workers.delete(language);
    this.idle.delete(language);
    if (worker) await (await worker).terminate().catch(() => undefined);
  }

  private async run(png: Buffer, language: OcrLanguage): Promise<OcrResult> {
    const input = await prepareForOcr(png, this.prepare);
    const worker = await this.worker(language);
    const { data } = await worker.recognize(input.image, {}, { text: false, blocks: true });
    const regions: OcrRegion[] = [];
    const lines: number[][] = [];
    for (const block of data.blocks ?? []) {
      for (const paragraph of block.paragraphs) {
        for (const line of paragraph.lines) {
          const indexes: number[] = [];
          for (const word of line.words as TesseractWord[]) {
            const text = word.text.trim();
            if (!text) continue;
            indexes.push(regions.length);
            regions.push({ text, ...toOriginal(input, word.bbox), confidence: Math.round(word.confidence * 10) / 1000 });
          }
          if (indexes.length) lines.push(indexes);
        }
      }
    }
    const split = splitAtGaps(regions, lines);
    return { text: joinLines(regions, split, language), regions, lines: split, language, engine: this.name };
  }

  async close(): Promise<void> {
    for (const timer of this.idle.values()) clearTimeout(timer);
    this.idle.clear();
    const workers = [...this.workers.values()];
    this.workers.clear();
    await Promise.all(workers.map(async (w) => (await w).terminate()));
  }
}
