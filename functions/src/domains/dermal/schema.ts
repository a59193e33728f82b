// DermalVision vocabulary (facial zones, metrics), the id arguments the tools share, and the zod
// schemas of the tools' outputs. Firestore layout and field meanings: docs/dermal.md.
import { z } from "zod";
import { documentIdArg } from "../../mcp/validation.js";

export const ZONES = ["forehead", "nose", "left_cheek", "right_cheek", "chin", "periorbital"] as const;
export type Zone = (typeof ZONES)[number];

/** Per-zone metrics, each 0–100. Higher is more severe, except hydration (higher is better). */
export const METRICS = ["acne", "wrinkle_depth", "pigmentation", "redness", "hydration", "pores"] as const;
export type Metric = (typeof METRICS)[number];

export type ZoneScores = Record<Metric, number>;

// ---- Id arguments ----------------------------------------------------------------------------

/** A document id argument (uid or sessionId): the shared validator of mcp/validation.ts. */
export const idArg = (name: string, what: string) => documentIdArg(name, what);

/** The `uid` argument every tool that reads one user's records takes. */
export const uidArg = () => idArg("uid", "a Firebase Auth user id").describe("Firebase Auth User ID");

// ---- Firestore documents (as the store reads them) ------------------------------------------

export interface Profile {
  uid: string;
  displayName: string | null;
  tier: string;
  skinType: string | null;
  createdAt: string | null;
  lastActiveAt: string | null;
  sharedWith: string[];
}

export interface Session {
  sessionId: string;
  uid: string;
  /** null when the document has no readable capture time (never a made-up date) */
  capturedAt: string | null;
  zones: Zone[];
  status: string;
}

export interface Report {
  sessionId: string;
  uid: string;
  capturedAt: string | null;
  analyzedAt: string | null;
  modelVersion: string;
  /** null when the report has no score (never a made-up 0) */
  overallScore: number | null;
  zones: Partial<Record<Zone, ZoneScores>>;
  images: { view: string; uri: string }[];
}

// ---- Output schemas ------------------------------------------------------------------------

const iso = z.string().describe("ISO 8601 timestamp (UTC)");
const zoneEnum = z.enum(ZONES);
const metricEnum = z.enum(METRICS);

export const zoneScoresSchema = z.object(Object.fromEntries(METRICS.map((m) => [m, z.number()])) as Record<Metric, z.ZodNumber>);
const zoneChangeSchema = z.object(
  Object.fromEntries(METRICS.map((m) => [m, z.number().nullable()])) as Record<Metric, z.ZodNullable<z.ZodNumber>>,
);

export const sessionSummarySchema = z.object({
  sessionId: z.string(),
  capturedAt: iso.nullable().describe("ISO 8601 timestamp (UTC); null when the record has no capture time"),
  zones: z.array(zoneEnum).describe("Facial zones captured in this session"),
  status: z.string().describe("completed | processing | failed"),
  overallScore: z.number().nullable().describe("0–100, higher is healthier skin; null until the analysis is completed"),
});

export const userStatusSchema = z.object({
  uid: z.string(),
  displayName: z.string().nullable(),
  tier: z.string().describe("Subscription tier: free | premium | pro"),
  skinType: z.string().nullable().describe("normal | dry | oily | combination | sensitive"),
  createdAt: iso.nullable(),
  lastActiveAt: iso.nullable(),
  sharedWith: z.array(z.string()).optional().describe("Clinician uids this user shares records with (shown to the user only)"),
  recentActivity: z.object({
    lastSession: sessionSummarySchema.nullable(),
    sessionsLast30Days: z.number().int(),
    totalSessions: z.number().int(),
  }),
});

export const listSessionsSchema = z.object({
  uid: z.string(),
  limit: z.number().int(),
  count: z.number().int(),
  hasMore: z.boolean().describe("True when older sessions exist beyond this list"),
  sessions: z.array(sessionSummarySchema).describe("Newest first"),
});

export const analysisDetailSchema = z.object({
  sessionId: z.string(),
  uid: z.string(),
  capturedAt: iso.nullable().describe("ISO 8601 timestamp (UTC); null when the record has no capture time"),
  analyzedAt: iso.nullable(),
  status: z.string(),
  modelVersion: z.string(),
  overallScore: z.number().nullable().describe("0–100, higher is healthier skin; null when the report carries no score"),
  overallChange: z.number().nullable().describe("overallScore minus the previous session's; null without a previous session or score"),
  previousSession: z.object({ sessionId: z.string(), capturedAt: iso }).nullable().describe("The user's previous analysed session"),
  zones: z.array(
    z.object({
      zone: zoneEnum,
      metrics: zoneScoresSchema,
      change: zoneChangeSchema.nullable().describe("Each metric minus the previous session's value for this zone; null when not comparable"),
    }),
  ),
  images: z.array(z.object({ view: z.string(), uri: z.string().describe("Cloud Storage reference, gs://bucket/path") })),
  scale: z.string(),
});

export const zoneRecordSchema = z
  .object({ sessionId: z.string(), capturedAt: iso, zone: zoneEnum })
  .extend(Object.fromEntries(METRICS.map((m) => [m, z.number().optional()])) as Record<Metric, z.ZodOptional<z.ZodNumber>>);
export type ZoneRecord = z.infer<typeof zoneRecordSchema>;

export const exportSchema = z.object({
  uid: z.string(),
  zone: zoneEnum.nullable().describe("null: all zones"),
  metrics: z.array(metricEnum),
  from: iso.nullable(),
  to: iso.nullable(),
  format: z.enum(["json", "csv"]),
  recordCount: z.number().int().describe("Records (one per session and zone) in this response"),
  records: z.array(zoneRecordSchema).optional().describe("format json: the records, oldest first"),
  csv: z.string().optional().describe("format csv: header line plus one line per record, oldest first"),
  truncated: z.boolean(),
  nextCursor: z.string().optional().describe("When truncated: pass as cursor, with the same other arguments, for the rest"),
  note: z.string().optional(),
});
