// Daily limits on what costs the operator money or storage, at two levels:
// - per person (QUOTAS): uploads, captures, OCR readings, annotations, redactions and calls to a
//   vision LLM (paid with the operator's keys), so one account cannot take everyone's share;
// - per deployment (BUDGETS): Cloud Vision calls, vision-LLM calls, embeddings and stored bytes,
//   so that no number of accounts (anyone can sign up) spends more in a day than the operator set.
// Generous defaults, each set once in the deployment's environment (docs/configuration.md); an
// action over a limit gets one sentence naming the limit and when it resets (midnight UTC).
// Counted in Firestore (`usageQuotas/…`, small documents per day, deleted by a TTL policy), so
// every instance sees the same count. Fails closed: when the count cannot be read the action is
// refused as temporarily unavailable.
import { FieldValue, type DocumentData, type DocumentReference } from "firebase-admin/firestore";
import { envNumber } from "../core/env.js";
import { rateLimited, unavailable } from "../core/errors.js";
import { firestore } from "./firebase.js";

export const QUOTA_COLLECTION = "usageQuotas";

export interface Quota {
  /** Document-id prefix, e.g. "fotos-uploads". */
  name: string;
  /** What is counted, plural, as the person reads it: "screenshot uploads". */
  what: string;
  perDay: number;
}

const quota = (name: string, what: string, env: string, fallback: number): Quota => ({ name, what, perDay: envNumber(env, fallback, { min: 1 }) });

export const QUOTAS = {
  uploads: quota("fotos-uploads", "screenshot uploads", "QUOTA_UPLOADS_PER_DAY", 500),
  captures: quota("fotos-captures", "screenshot captures", "QUOTA_CAPTURES_PER_DAY", 1000),
  visionLlm: quota("vision-llm", "vision-model analyses", "QUOTA_VISION_LLM_CALLS_PER_DAY", 200),
  ocr: quota("fotos-ocr", "OCR readings", "QUOTA_OCR_PER_DAY", 300),
  annotations: quota("fotos-annotations", "annotations", "QUOTA_ANNOTATIONS_PER_DAY", 300),
  redactions: quota("fotos-redactions", "redactions", "QUOTA_REDACTIONS_PER_DAY", 200),
} as const;

const DAY_MS = 24 * 3600 * 1000;

/** The document counting `q` for `uid` on the UTC day of `now`. */
export const quotaDocId = (q: Quota, uid: string, now = Date.now()): string => `${q.name}_${uid}_${new Date(now).toISOString().slice(0, 10).replace(/-/g, "")}`;

/**
 * Counts one use of `q` by `uid`, or throws the sentence saying which limit was reached and when it
 * resets. `once`: the use is counted only with the creation of this document (an upload's
 * idempotency receipt); when it exists already, nothing is counted and its data is returned.
 */
export async function useQuota(uid: string, q: Quota, now = Date.now(), once?: { ref: DocumentReference; data: DocumentData }): Promise<DocumentData | undefined> {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const ref = firestore().collection(QUOTA_COLLECTION).doc(quotaDocId(q, uid, now));
  let outcome: { used: number; earlier?: DocumentData };
  try {
    outcome = await firestore().runTransaction(async (tx) => {
      const earlier = once ? (await tx.get(once.ref)).data() : undefined;
      if (earlier) return { used: 0, earlier };
      const count = Number((await tx.get(ref)).get("count") ?? 0);
      if (count >= q.perDay) return { used: count };
      tx.set(ref, { uid, quota: q.name, count: FieldValue.increment(1), expiresAt: new Date(dayStart + 2 * DAY_MS) }, { merge: true });
      if (once) tx.create(once.ref, once.data);
      return { used: count };
    });
  } catch {
    throw unavailable(once ? `Your usage could not be checked right now: try again in a minute (sending the same upload again is safe)` : `Your usage could not be checked right now, so nothing was done: try again in a minute`);
  }
  if (outcome.earlier) return outcome.earlier;
  if (outcome.used < q.perDay) return undefined;
  const reset = untilMidnight(now);
  throw rateLimited(`Daily limit reached: you have used all ${q.perDay} ${q.what} of today. The limit resets at 00:00 UTC, in ${reset.when}`, reset.seconds);
}

/** Seconds until the next 00:00 UTC, and the same as "3 h 20 min". */
function untilMidnight(now: number): { seconds: number; when: string } {
  const seconds = Math.max(1, Math.ceil((Math.floor(now / DAY_MS) * DAY_MS + DAY_MS - now) / 1000));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.ceil((seconds % 3600) / 60);
  return { seconds, when: hours ? `${hours} h ${minutes} min` : `${minutes} min` };
}

export interface Budget {
  /** Document-id prefix, e.g. "cloud-vision". */
  name: string;
  /** What is counted, plural, as a person reads it: "Cloud Vision calls". */
  what: string;
  perDay: number;
  /** How a count is shown (stored bytes are counted in bytes, set and shown in MB). */
  unit?: { name: string; size: number };
}

const budget = (name: string, what: string, env: string, fallback: number, unit?: Budget["unit"]): Budget => ({
  name,
  what,
  perDay: envNumber(env, fallback, { min: 0 }) * (unit?.size ?? 1),
  ...(unit ? { unit } : {}),
});

/** The deployment's daily budgets; 0 turns a paid service off for the day. */
export const BUDGETS = {
  cloudVision: budget("cloud-vision", "Cloud Vision calls", "BUDGET_CLOUD_VISION_CALLS_PER_DAY", 20_000),
  visionLlm: budget("vision-llm", "vision-model analyses", "BUDGET_VISION_LLM_CALLS_PER_DAY", 2_000),
  embeddings: budget("embeddings", "texts embedded", "BUDGET_EMBEDDINGS_PER_DAY", 200_000),
  storedBytes: budget("stored-bytes", "of new screenshots stored", "BUDGET_STORED_MB_PER_DAY", 20_000, { name: "MB", size: 1024 * 1024 }),
} as const;

/**
 * A budget's count is spread over shards (one picked at random per use), so a busy deployment does
 * not queue on one document's write lock; the total is their sum. Concurrent uses may overshoot a
 * budget by the uses in flight, never more.
 */
const BUDGET_SHARDS = 8;

export const budgetDocIds = (b: Budget, now = Date.now()): string[] => {
  const day = new Date(now).toISOString().slice(0, 10).replace(/-/g, "");
  return Array.from({ length: BUDGET_SHARDS }, (_, i) => `budget-${b.name}_${day}_s${i}`);
};

/**
 * Counts `amount` (default 1) against the deployment's budget `b`, or throws the sentence saying it
 * is spent for today and when it resets. Checked before the paid call is made.
 */
export async function spendBudget(b: Budget, amount = 1, now = Date.now()): Promise<void> {
  const reset = untilMidnight(now);
  const refusal = () => {
    const limit = b.unit ? `${Math.round(b.perDay / b.unit.size)} ${b.unit.name} ${b.what}` : `${b.perDay} ${b.what}`;
    return rateLimited(`This server's daily budget is spent: all ${limit} it allows per day (for everyone) were used today, so this was not done. The budget resets at 00:00 UTC, in ${reset.when}`, reset.seconds);
  };
  const ids = budgetDocIds(b, now);
  const collection = firestore().collection(QUOTA_COLLECTION);
  let spent: number;
  try {
    spent = (await firestore().getAll(...ids.map((id) => collection.doc(id)))).reduce((sum, d) => sum + Number(d.get("count") ?? 0), 0);
  } catch {
    throw unavailable(`This server's usage could not be checked right now, so nothing was done: try again in a minute`);
  }
  if (spent + amount > b.perDay) throw refusal();
  const shard = collection.doc(ids[Math.floor(Math.random() * ids.length)]!);
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  await shard.set({ budget: b.name, count: FieldValue.increment(amount), expiresAt: new Date(dayStart + 2 * DAY_MS) }, { merge: true }).catch(() => {
    throw unavailable(`This server's usage could not be counted right now, so nothing was done: try again in a minute`);
  });
}


