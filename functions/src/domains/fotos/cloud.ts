// The function's backend (see backend.ts): the caller's screenshots in Firestore + Cloud Storage
// (store.ts), captures by their paired desktop agent (capture.ts), OCR cached beside the
// screenshot (ocr-cache.ts), settings at users/{uid}/fotos/settings, the operator's provider keys.
import type { RequestContext } from "../../mcp/define.js";
import { BUDGETS, QUOTAS, spendBudget, useQuota } from "../../platform/quota.js";
import { visionAdapter } from "../../platform/vision-llm.js";
import { aiChoiceFrom } from "./ai-settings.js";
import type { FotosBackend } from "./backend.js";
import { captureScreenshot } from "./capture.js";
import { cachedOcr, meteredOcrEngine, ocrScreenshot } from "./ocr-cache.js";
import { readSettings, settingsDoc } from "./settings-store.js";
import { uidOf } from "./source.js";
import { getScreenshotMeta, listScreenshots, loadScreenshot, saveScreenshot } from "./store.js";

export { settingsDoc } from "./settings-store.js";

export function cloudBackend(ctx: RequestContext): FotosBackend {
  const uid = uidOf(ctx);
  return {
    capture: (args) => captureScreenshot(ctx, args),
    save: (png, meta) => saveScreenshot(uid, png, meta),
    load: (id) => loadScreenshot(uid, id),
    meta: (id) => getScreenshotMeta(uid, id),
    list: (limit) => listScreenshots(uid, limit),
    settings: () => readSettings(uid),
    aiChoice: async () => aiChoiceFrom((await settingsDoc(uid).get()).get("ai")),
    ocr: (meta, png, language) => ocrScreenshot(uid, meta, png, language),
    cachedOcr: (id, language) => cachedOcr(uid, id, language),
    ocrEngine: meteredOcrEngine,
    useQuota: async (action) => void (await useQuota(uid, action === "annotation" ? QUOTAS.annotations : QUOTAS.redactions)),
    // The operator pays the provider: each analysis counts against the person's daily quota and the
    // deployment's budget, after the key check and before any capture.
    vision: async (provider) => {
      const adapter = await visionAdapter(provider);
      await useQuota(uid, QUOTAS.visionLlm);
      await spendBudget(BUDGETS.visionLlm);
      return adapter;
    },
  };
}
