// OCR results cached per screenshot and language in Firestore, beside the screenshot's metadata:
//   users/{uid}/screenshots/{id}/ocr/{language}   {text, regions (+ line index), engine, createdAt}
// A screenshot never changes (annotating or redacting makes a new one), so a cached result never
// goes stale. Results too big for one document (~1 MiB) are simply not cached. A reading that is
// not cached counts against the person's OCR quota; with Cloud Vision, every call counts against
// the deployment's budget.
import { FieldValue } from "firebase-admin/firestore";
import { firestore } from "../../platform/firebase.js";
import { ocrEngine, type OcrEngine, type OcrLanguage, type OcrRegion, type OcrResult } from "../../platform/ocr.js";
import { BUDGETS, QUOTAS, spendBudget, useQuota } from "../../platform/quota.js";
import type { ScreenshotMeta } from "./store.js";

const MAX_CACHED_BYTES = 900_000;

const ocrDocs = (uid: string, id: string) => firestore().collection("users").doc(uid).collection("screenshots").doc(id).collection("ocr");

interface StoredRegion extends OcrRegion {
  line: number;
}

function toStored(result: OcrResult): { text: string; regions: StoredRegion[]; engine: string; language: string } {
  const lineOf = new Map<number, number>();
  result.lines.forEach((line, l) => line.forEach((i) => lineOf.set(i, l)));
  return { text: result.text, engine: result.engine, language: result.language, regions: result.regions.map((r, i) => ({ ...r, line: lineOf.get(i) ?? -1 })) };
}

function fromStored(data: FirebaseFirestore.DocumentData): OcrResult {
  const stored = data.regions as StoredRegion[];
  const lines: number[][] = [];
  const regions = stored.map(({ line, ...region }, i) => {
    if (line >= 0) (lines[line] ??= []).push(i);
    return region;
  });
  return { text: data.text, regions, lines: lines.filter(Boolean), language: data.language, engine: data.engine };
}

export async function cachedOcr(uid: string, id: string, language?: OcrLanguage): Promise<OcrResult | undefined> {
  if (language) {
    const snap = await ocrDocs(uid, id).doc(language).get();
    return snap.exists ? fromStored(snap.data()!) : undefined;
  }
  const newest = await ocrDocs(uid, id).orderBy("createdAt", "desc").limit(1).get();
  return newest.empty ? undefined : fromStored(newest.docs[0]!.data());
}

/** OCR of a screenshot in one language: the cached result, or a new one (then cached). */
export async function ocrScreenshot(uid: string, meta: ScreenshotMeta, png: Buffer, language: OcrLanguage): Promise<{ result: OcrResult; cached: boolean }> {
  const cached = await cachedOcr(uid, meta.id, language);
  if (cached) return { result: cached, cached: true };
  await useQuota(uid, QUOTAS.ocr);
  const result = await (await meteredOcrEngine()).recognize(png, language);
  const stored = toStored(result);
  if (Buffer.byteLength(JSON.stringify(stored)) <= MAX_CACHED_BYTES) {
    await ocrDocs(uid, meta.id)
      .doc(language)
      .set({ ...stored, createdAt: FieldValue.serverTimestamp() })
      .catch((err: Error) => console.error("OCR cache write failed:", err.message));
  }
  return { result, cached: false };
}

/** The process's OCR engine; a Cloud Vision call (paid) is counted against the deployment's budget first. */
export async function meteredOcrEngine(): Promise<OcrEngine> {
  const engine = await ocrEngine();
  if (engine.name !== "vision") return engine;
  return {
    name: engine.name,
    recognize: async (png, language) => {
      await spendBudget(BUDGETS.cloudVision);
      return engine.recognize(png, language);
    },
  };
}
