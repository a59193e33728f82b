// What the fotos function and the desktop agent (`fotos-agent run`, and `fotos-agent mcp` bridged)
// agree on: the routes the agent calls with its device token, what it sends (validated with these
// schemas by the function) and what it gets back. The routes: domains/fotos/agents/routes.ts and
// domains/fotos/routes/local-capture.ts; the callers: desktop-agent/src/agent.ts and mcp/bridge.ts.
import { z } from "zod";

/** `fotos-agent run`'s routes on the fotos function (a desktop-agent device token). */
export const AGENT_ROUTES = {
  /** At start: comes online with its report. */
  register: "/agent/register",
  /** Every heartbeatMs, the same report. */
  heartbeat: "/agent/heartbeat",
  /** Clean stop: take_screenshot fails fast from then on. */
  offline: "/agent/offline",
  /** Takes on one capture request addressed to it, once → ClaimedCapture. */
  claim: "/agent/claim",
  /** ?request=<id>[&redaction=<JSON>], raw PNG body → UploadedCapture. */
  upload: "/agent/upload",
  /** Why a request could not be captured (take_screenshot returns it word for word). */
  fail: "/agent/fail",
} as const;

/**
 * The header an upload (POST /screenshots, /captures, the agent's upload) may carry so that sending
 * it again after a lost answer or a timeout stores nothing twice: the same key and image answer
 * the first upload's screenshot. One new key (a UUID) per upload, the same on each retry of it.
 */
export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";

/** Where `fotos-agent mcp` (bridged, a fotos-mcp device token) stores a capture it took on the computer: raw PNG body, LocalCaptureQuery. */
export const LOCAL_CAPTURE_PATH = "/captures";

export const CAPTURE_MODES = ["fullscreen", "monitor", "window"] as const;
export type CaptureMode = (typeof CAPTURE_MODES)[number];

export const monitorSchema = z.object({
  index: z.number().int().min(0).max(63),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
  x: z.number().int().min(-100_000).max(100_000),
  y: z.number().int().min(-100_000).max(100_000),
  primary: z.boolean().optional(),
  name: z.string().max(100).optional(),
});
export type Monitor = z.infer<typeof monitorSchema>;

export const sessionIdSchema = z.string().regex(/^[A-Za-z0-9-]{8,64}$/);
export const requestIdSchema = z.string().regex(/^[A-Za-z0-9-]{1,64}$/);

/** How often the agent reports when it does not say (the schema's default, and the agent's). */
export const DEFAULT_HEARTBEAT_MS = 10_000;

/** What the agent reports at register and with every heartbeat. */
export const agentReportSchema = z.object({
  sessionId: sessionIdSchema,
  version: z.string().max(40),
  platform: z.string().max(40),
  display: z.boolean(),
  monitors: z.array(monitorSchema).max(16),
  paused: z.boolean().default(false),
  heartbeatMs: z.number().int().min(250).max(300_000).default(DEFAULT_HEARTBEAT_MS),
});
export type AgentReport = z.output<typeof agentReportSchema>;

export const offlineSchema = z.object({ sessionId: sessionIdSchema });
export const claimSchema = z.object({ requestId: requestIdSchema, sessionId: sessionIdSchema });
export const failSchema = z.object({ requestId: requestIdSchema, error: z.string().trim().min(1).max(500) });

/** The answer to register. */
export interface AgentRegistered {
  ok: true;
  deviceId: string;
  owner: string;
  name: string;
}

/** The answer to claim: the capture to take. */
export interface ClaimedCapture {
  requestId: string;
  mode: CaptureMode;
  monitorIndex?: number;
  windowTitle?: string;
  delayMs: number;
  /** Redact PII on the computer before the upload (take_screenshot's redact_before_upload), with the person's region. */
  redact?: { region: string };
  /** ISO 8601: after this the request is no longer answered. */
  expiresAt: string;
}

/** The answer to upload (`duplicate`: a retry after a lost answer; `answered`: the tool was still waiting). */
export interface UploadedCapture {
  screenshotId: string;
  width?: number;
  height?: number;
  duplicate?: true;
  answered?: boolean;
}

/** What redaction finds (domains/fotos/pii/), and the re-check's outcome: OCR of the redacted image read no PII, found more (covered too), or nothing was found at all. */
export const PII_TYPES = ["email", "phone", "ssn", "credit_card", "api_key", "ip_address"] as const;
export const RECHECK = ["clean", "found_more", "not_needed"] as const;

/** One item found, as a box in the screenshot's pixels (never the text itself). */
export const detectionSchema = z.object({ type: z.enum(PII_TYPES), x: z.number(), y: z.number(), w: z.number(), h: z.number() });

/**
 * An upload's ?redaction=: set when the computer redacted the image before the upload, with what it
 * found and covered and the re-check's outcome, as JSON (redactionParam).
 */
export const deviceRedactionSchema = z.object({ detections: z.array(detectionSchema).max(2000), recheck: z.enum(RECHECK) });
export type DeviceRedactionReport = z.input<typeof deviceRedactionSchema>;
export const redactionParam = (r: DeviceRedactionReport): string => JSON.stringify({ detections: r.detections, recheck: r.recheck } satisfies DeviceRedactionReport);
const redaction = z.string().max(400_000).optional();

/** The upload's query (values as query strings carry them). */
export const uploadQuerySchema = z.object({ request: requestIdSchema, redaction });
export type UploadQuery = z.input<typeof uploadQuerySchema>;

/** POST /captures' query. */
export const localCaptureQuerySchema = z.object({
  mode: z.enum(CAPTURE_MODES),
  monitor_index: z.coerce.number().int().min(0).max(63).optional(),
  window_title: z.string().trim().min(1).max(200).optional(),
  redaction,
});
/** POST /captures' query as the agent sends it: the schema's keys, values as strings. */
export type LocalCaptureQuery = { mode: CaptureMode } & { [K in Exclude<keyof z.input<typeof localCaptureQuerySchema>, "mode">]?: string };

/** POST /captures' answer: the stored screenshot's id and its metadata (ScreenshotMeta, domains/fotos/screenshots.ts). */
export interface LocalCaptured {
  screenshot_id: string;
}

interface Call<Body, Answer, Query = never> {
  body: Body;
  answer: Answer;
  query: Query;
}
type Ok = { ok: true };

/** Each route a desktop agent calls, with its body, query and answer: the agent's calls are typed by it. */
export interface AgentCalls {
  [AGENT_ROUTES.register]: Call<z.input<typeof agentReportSchema>, AgentRegistered>;
  [AGENT_ROUTES.heartbeat]: Call<z.input<typeof agentReportSchema>, Ok>;
  [AGENT_ROUTES.offline]: Call<z.input<typeof offlineSchema>, Ok>;
  [AGENT_ROUTES.claim]: Call<z.input<typeof claimSchema>, ClaimedCapture>;
  [AGENT_ROUTES.upload]: Call<undefined, UploadedCapture, UploadQuery>;
  [AGENT_ROUTES.fail]: Call<z.input<typeof failSchema>, Ok & { status?: string }>;
  [LOCAL_CAPTURE_PATH]: Call<undefined, LocalCaptured, LocalCaptureQuery>;
}
