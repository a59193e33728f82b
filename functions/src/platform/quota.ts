// Per-person daily quotas on what costs the operator money or storage: uploads, captures and calls
// to a vision LLM (paid with the operator's keys). Generous defaults, each configurable per
// deployment; a person over a quota gets one sentence naming the limit and when it resets
// (midnight UTC). Counted in Firestore (`usageQuotas/{quota}_{uid}_{day}`, one small document per
// person and day, deleted by a TTL policy), so every instance sees the same count. Fails closed:
// when the count cannot be read the action is refused as temporarily unavailable.
import { FieldValue } from "firebase-admin/firestore";
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
} as const;

const DAY_MS = 24 * 3600 * 1000;

/** The document counting `q` for `uid` on the UTC day of `now`. */
export const quotaDocId = (q: Quota, uid: string, now = Date.now()): string => `${q.name}_${uid}_${new Date(now).toISOString().slice(0, 10).replace(/-/g, "")}`;

/** Counts one use of `q` by `uid`, or throws the sentence saying which limit was reached and when it resets. */
export async function useQuota(uid: string, q: Quota, now = Date.now()): Promise<void> {
  const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
  const ref = firestore().collection(QUOTA_COLLECTION).doc(quotaDocId(q, uid, now));
  let used: number;
  try {
    used = await firestore().runTransaction(async (tx) => {
      const count = Number((await tx.get(ref)).get("count") ?? 0);
      if (count >= q.perDay) return count;
      tx.set(ref, { uid, quota: q.name, count: FieldValue.increment(1), expiresAt: new Date(dayStart + 2 * DAY_MS) }, { merge: true });
      return count;
    });
  } catch {
    throw unavailable(`Your usage could not be checked right now, so nothing was done: try again in a minute`);
  }
  if (used < q.perDay) return;
  const resetSeconds = Math.max(1, Math.ceil((dayStart + DAY_MS - now) / 1000));
  const hours = Math.floor(resetSeconds / 3600);
  const minutes = Math.ceil((resetSeconds % 3600) / 60);
  const when = hours ? `${hours} h ${minutes} min` : `${minutes} min`;
  throw rateLimited(`Daily limit reached: you have used all ${q.perDay} ${q.what} of today. The limit resets at 00:00 UTC, in ${when}`, resetSeconds);
}

