// `fotos-agent redact <in.png> <out.png>`: the redaction a capture gets before upload
// (redact_before_upload), on a file: the function's own OCR, detection and redaction code.
// `--runs N` redacts N times and reports each run's time (the first includes the OCR worker's start).
import { readFile, writeFile } from "node:fs/promises";
import { redactionInfo, redactScreenshot, TesseractOcr } from "../../functions/src/domains/fotos/published.js";

export async function redactFile(input: string, output: string, { region, runs = 1 }: { region: string; runs?: number }) {
  const png = await readFile(input);
  const ocr = new TesseractOcr();
  try {
    const ms: number[] = [];
    let out: Awaited<ReturnType<typeof redactScreenshot>> | undefined;
    for (let i = 0; i < Math.max(1, runs); i++) {
      const t = performance.now();
      out = await redactScreenshot(ocr, png, { region });
      ms.push(Math.round(performance.now() - t));
    }
    await writeFile(output, out!.png);
    return { ...redactionInfo("device", out!), ms };
  } finally {
    await ocr.close();
  }
}
