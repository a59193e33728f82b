// DermalVision demo data: profiles for Alice (premium, shares with Dr. Carol), Bob (free) and
// Dave (pro, shares with Dr. Carol), each with months of monitoring sessions whose scores drift
// plausibly (Alice's acne clears under treatment and hydration improves; Bob's redness flares in
// winter; Dave's retinoid first irritates and dries his skin, then smooths lines and fades spots).
// Idempotent: fixed document ids, deterministic scores, so a second run overwrites the same documents.
import { Timestamp, type Firestore } from "firebase-admin/firestore";
import { batchedWriter } from "../../functions/src/platform/firebase.js";
import { seededRandom } from "../../functions/src/core/random.js";
import type { DemoContext } from "./context.js";

const ZONES = ["forehead", "nose", "left_cheek", "right_cheek", "chin", "periorbital"] as const;
const METRICS = ["acne", "wrinkle_depth", "pigmentation", "redness", "hydration", "pores"] as const;
type Zone = (typeof ZONES)[number];
type Metric = (typeof METRICS)[number];

const DAY = 24 * 60 * 60 * 1000;
const BUCKET = `gs://${process.env.GCLOUD_PROJECT ?? "demo-mcp-suite"}.appspot.com`;

const clamp = (v: number) => Math.max(0, Math.min(100, Math.round(v * 10) / 10));

interface Plan {
  uid: string;
  key: string;
  displayName: string;
  tier: string;
  skinType: string;
  sharedWith: string[];
  sessions: number;
  everyDays: number;
  seed: number;
  /** metric value at progress p (0 = first session, 1 = latest) for a zone */
  curve(metric: Metric, zone: Zone, p: number, day: Date): number;
  /** session index → status other than completed */
  statusOf?(i: number, n: number): "processing" | "failed" | undefined;
  /** zones captured in session i */
  zonesOf?(i: number): Zone[];
}

// Zone personality: where each problem tends to show.
const ZONE_BIAS: Record<Metric, Partial<Record<Zone, number>>> = {
  acne: { forehead: 6, chin: 10, nose: 4, periorbital: -12 },
  wrinkle_depth: { forehead: 8, periorbital: 14, nose: -8, chin: -4 },
  pigmentation: { left_cheek: 6, right_cheek: 4, forehead: 3 },
  redness: { nose: 9, left_cheek: 6, right_cheek: 6 },
  hydration: { periorbital: -6, nose: 4, forehead: 2 },
  pores: { nose: 18, forehead: 6, periorbital: -15 },
};

function winter(day: Date): number {
  // 1 in mid-January, 0 in mid-July
  const m = day.getUTCMonth() + day.getUTCDate() / 31;
  return (Math.cos(((m - 0.5) / 12) * 2 * Math.PI) + 1) / 2;
}

const PLANS = (users: DemoContext["users"]): Plan[] => [
  {
    uid: users.alice.uid,
    key: "alice",
    displayName: users.alice.displayName,
    tier: "premium",
    skinType: "combination",
    sharedWith: [users.carol.uid],
    sessions: 42,
    everyDays: 4,
    seed: 11,
    curve(metric, zone, p, day) {
      const b = ZONE_BIAS[metric][zone] ?? 0;
      switch (metric) {
        case "acne": return 48 - 30 * p + b; // treatment works
        case "wrinkle_depth": return 22 + 2 * p + b;
        case "pigmentation": return 30 - 6 * p + 8 * (1 - winter(day)) + b; // summer sun
        case "redness": return 34 - 12 * p + b;
        case "hydration": return 45 + 20 * p + b; // new moisturiser
        case "pores": return 40 - 6 * p + b;
      }
    },
    statusOf: (i) => (i === 17 ? "failed" : undefined), // a blurry capture
    zonesOf: (i) => (i % 9 === 4 ? ZONES.filter((z) => z !== "periorbital") : [...ZONES]),
  },
  {
    uid: users.bob.uid,
    key: "bob",
    displayName: users.bob.displayName,
    tier: "free",
    skinType: "sensitive",
    sharedWith: [],
    sessions: 16,
    everyDays: 7,
    seed: 23,
    curve(metric, zone, p, day) {
      const b = ZONE_BIAS[metric][zone] ?? 0;
      switch (metric) {
        case "acne": return 18 + b / 2;
        case "wrinkle_depth": return 35 + 3 * p + b;
        case "pigmentation": return 20 + b;
        case "redness": return 30 + 30 * winter(day) + b; // flares in the cold
        case "hydration": return 50 - 15 * winter(day) + b;
        case "pores": return 35 + b;
      }
    },
    statusOf: (i, n) => (i === n - 1 ? "processing" : undefined), // latest still being analysed
  },
  {
    // pro tier: captures every other day for six months — enough that a full export spans two parts
    uid: users.dave.uid,
    key: "dave",
    displayName: users.dave.displayName,
    tier: "pro",
    skinType: "dry",
    sharedWith: [users.carol.uid],
    sessions: 91,
    everyDays: 2,
    seed: 37,
    curve(metric, zone, p, day) {
      const b = ZONE_BIAS[metric][zone] ?? 0;
      const week = (p * 180) / 7; // weeks since he started a retinoid
      const irritation = Math.exp(-(((week - 3) / 2.5) ** 2)); // peaks in week 3, gone by week 8
      switch (metric) {
        case "acne": return 20 - 8 * p + b / 2;
        case "wrinkle_depth": return 46 - 12 * p + b; // slow smoothing
        case "pigmentation": return 40 - 14 * p + 6 * (1 - winter(day)) + b;
        case "redness": return 24 + 20 * irritation + b;
        case "hydration": return 40 - 14 * irritation + 12 * p + b; // dry skin, then a barrier cream
        case "pores": return 42 - 5 * p + b;
      }
    },
    statusOf: (i) => (i === 30 ? "failed" : undefined), // bad lighting
    zonesOf: (i) => (i >= 60 ? ZONES.filter((z) => z !== "chin") : [...ZONES]), // grew a beard: chin no longer captured
  },
];

export async function seed(ctx: DemoContext): Promise<void> {
  const today = new Date(Math.floor(Date.now() / DAY) * DAY);
  for (const plan of PLANS(ctx.users)) {
    const written = await seedUser(ctx.db, plan, today);
    ctx.log(`dermal: ${plan.key} (${plan.tier}) with ${written} sessions`);
  }
}

async function seedUser(db: Firestore, plan: Plan, today: Date): Promise<number> {
  const rand = seededRandom(plan.seed); // reruns write the same numbers
  const user = db.collection("users").doc(plan.uid);
  const n = plan.sessions;
  const firstDay = new Date(today.getTime() - (n - 1) * plan.everyDays * DAY);
  const writer = batchedWriter(db);
  const write = writer.write;

  let lastCaptured = firstDay;
  for (let i = 0; i < n; i++) {
    const sessionId = `demo-${plan.key}-s${String(i + 1).padStart(3, "0")}`;
    const hour = 7 + Math.floor(rand() * 14);
    const capturedAt = new Date(firstDay.getTime() + i * plan.everyDays * DAY + hour * 3600_000 + Math.floor(rand() * 60) * 60_000);
    lastCaptured = capturedAt;
    const zones = plan.zonesOf?.(i) ?? [...ZONES];
    const status = plan.statusOf?.(i, n) ?? "completed";
    const p = n > 1 ? i / (n - 1) : 1;
    write((b) => b.set(user.collection("sessions").doc(sessionId), {
      sessionId,
      uid: plan.uid,
      capturedAt: Timestamp.fromDate(capturedAt),
      zones,
      status,
      imageCount: 3,
    }));
    const reportRef = user.collection("reports").doc(sessionId);
    if (status !== "completed") {
      write((b) => b.delete(reportRef));
      continue;
    }
    const scores: Record<string, Record<Metric, number>> = {};
    for (const zone of zones) {
      const z = {} as Record<Metric, number>;
      for (const m of METRICS) z[m] = clamp(plan.curve(m, zone, p, capturedAt) + (rand() - 0.5) * 8);
      scores[zone] = z;
    }
    const overall = overallScore(scores);
    const images = ["front", "left", "right"].map((view) => ({
      view,
      uri: `${BUCKET}/users/${plan.uid}/sessions/${sessionId}/${view}.jpg`,
    }));
    write((b) => b.set(reportRef, {
      sessionId,
      uid: plan.uid,
      capturedAt: Timestamp.fromDate(capturedAt),
      analyzedAt: Timestamp.fromDate(new Date(capturedAt.getTime() + 40_000 + Math.floor(rand() * 60_000))),
      modelVersion: i < n / 2 ? "dermalnet-2.3.1" : "dermalnet-2.4.0",
      overallScore: overall,
      zones: scores,
      images,
    }));
  }
  write((b) => b.set(user, {
    displayName: plan.displayName,
    tier: plan.tier,
    skinType: plan.skinType,
    createdAt: Timestamp.fromDate(new Date(firstDay.getTime() - 3 * DAY)),
    lastActiveAt: Timestamp.fromDate(new Date(lastCaptured.getTime() + 5 * 60_000)),
    sharedWith: plan.sharedWith,
  }));
  await writer.commit();
  return n;
}

/** 100 = flawless: the mean "badness" across zones and metrics, hydration counted inverted. */
function overallScore(zones: Record<string, Record<Metric, number>>): number {
  const values = Object.values(zones).flatMap((z) => METRICS.map((m) => (m === "hydration" ? 100 - z[m] : z[m])));
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(values.length, 1);
  return Math.round((100 - mean) * 10) / 10;
}
