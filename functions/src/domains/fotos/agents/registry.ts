// The desktop agents of each user and the capture requests addressed to them (Firestore, Admin SDK;
// only the functions write these; rules let an agent read its own requests, docs/fotos.md):
//   fotosAgents/{deviceId}            one paired desktop agent: owner, name, version, display, monitors,
//                                     online/lastSeenAt (heartbeat), lastActiveAt, paused, sessionId
//   fotosCaptureRequests/{requestId}  one capture: owner, device, status pending → claimed → done | failed
import { randomUUID } from "node:crypto";
import { Timestamp, type DocumentSnapshot, type Transaction } from "firebase-admin/firestore";
import { envNumber } from "../../../core/env.js";
import { firestore } from "../../../platform/firebase.js";
import { DEFAULT_HEARTBEAT_MS, type AgentReport, type CaptureMode, type Monitor } from "../../../contracts/fotos-agent.js";
import { writesSafeToRepeat } from "../../../platform/deadline.js";

export const AGENTS = "fotosAgents";
export const REQUESTS = "fotosCaptureRequests";

export interface Agent {
  deviceId: string;
  owner: string;
  name: string;
  version: string;
  platform: string;
  display: boolean;
  monitors: Monitor[];
  paused: boolean;
  online: boolean;
  lastSeenAt: Date;
  lastActiveAt: Date;
  heartbeatMs: number;
  sessionId: string;
}

export type RequestStatus = "pending" | "claimed" | "done" | "failed";

export interface CaptureRequest {
  id: string;
  owner: string;
  device: string;
  status: RequestStatus;
  mode: CaptureMode;
  monitorIndex?: number;
  windowTitle?: string;
  delayMs: number;
  /** Redact on the device before upload (take_screenshot's redact_before_upload), with the person's region. */
  redact?: { region: string };
  createdAt: Date;
  expiresAt: Date;
  screenshotId?: string;
  error?: string;
}

export const agents = () => firestore().collection(AGENTS);
export const requests = () => firestore().collection(REQUESTS);

/**
 * An agent counts as online while its heartbeats keep coming: three missed beats (+2 s slack, and
 * never less than FOTOS_AGENT_STALE_MIN_MS, 10 s: a beat can wait for a busy or cold function
 * instance) and it is not. A clean stop says so at once (online false).
 */
export const STALE_AFTER_MIN_MS = envNumber("FOTOS_AGENT_STALE_MIN_MS", 10_000, { min: 1000 });
export const isOnline = (a: Agent, now = Date.now()) =>
  a.online && now - a.lastSeenAt.getTime() <= Math.max(a.heartbeatMs * 3 + 2000, STALE_AFTER_MIN_MS);

const date = (v: unknown): Date => (v instanceof Timestamp ? v.toDate() : new Date(0));

export function toAgent(snap: DocumentSnapshot): Agent {
  const d = snap.data() ?? {};
  return {
    deviceId: snap.id,
    owner: String(d.owner ?? ""),
    name: String(d.name ?? snap.id),
    version: String(d.version ?? ""),
    platform: String(d.platform ?? ""),
    display: d.display === true,
    monitors: Array.isArray(d.monitors) ? (d.monitors as Monitor[]) : [],
    paused: d.paused === true,
    online: d.online === true,
    lastSeenAt: date(d.lastSeenAt),
    lastActiveAt: date(d.lastActiveAt),
    heartbeatMs: typeof d.heartbeatMs === "number" ? d.heartbeatMs : DEFAULT_HEARTBEAT_MS,
    sessionId: String(d.sessionId ?? ""),
  };
}

export function toRequest(snap: DocumentSnapshot): CaptureRequest {
  const d = snap.data() ?? {};
  return {
    id: snap.id,
    owner: d.owner,
    device: d.device,
    status: d.status,
    mode: d.mode,
    ...(typeof d.monitorIndex === "number" ? { monitorIndex: d.monitorIndex } : {}),
    ...(typeof d.windowTitle === "string" ? { windowTitle: d.windowTitle } : {}),
    delayMs: d.delayMs ?? 0,
    ...(d.redact && typeof d.redact.region === "string" ? { redact: { region: d.redact.region } } : {}),
    createdAt: date(d.createdAt),
    expiresAt: date(d.expiresAt),
    ...(typeof d.screenshotId === "string" ? { screenshotId: d.screenshotId } : {}),
    ...(typeof d.error === "string" ? { error: d.error } : {}),
  };
}

/** Every agent paired by `uid` (revoked devices are deleted from here by the routes' checks). */
export async function agentsOf(uid: string): Promise<Agent[]> {
  const snap = await agents().where("owner", "==", uid).get();
  return snap.docs.map(toAgent);
}

/** Writes an agent's heartbeat (and, when it starts, its new session). */
export async function recordHeartbeat(device: { id: string; name: string }, owner: string, report: AgentReport, starting: boolean): Promise<void> {
  const now = Timestamp.now();
  await agents()
    .doc(device.id)
    .set(
      {
        owner,
        name: device.name,
        ...report,
        online: true,
        lastSeenAt: now,
        ...(starting ? { lastActiveAt: now, startedAt: now } : {}),
      },
      { merge: true },
    );
}

export async function recordOffline(deviceId: string, owner: string, sessionId: string): Promise<void> {
  await firestore().runTransaction(async (tx) => {
    const ref = agents().doc(deviceId);
    const snap = await tx.get(ref);
    // A late "offline" from a previous run must not take the new run offline.
    if (!snap.exists || snap.get("owner") !== owner || snap.get("sessionId") !== sessionId) return;
    tx.update(ref, { online: false, lastSeenAt: Timestamp.now() });
  });
}

export async function markActive(deviceId: string): Promise<void> {
  await agents().doc(deviceId).update({ lastActiveAt: Timestamp.now() }).catch(() => undefined);
}

/** Files a request for one agent; the agent's listener sees it within tens of milliseconds. */
export async function createRequest(
  owner: string,
  device: string,
  params: { mode: CaptureMode; monitorIndex?: number; windowTitle?: string; delayMs: number; redact?: { region: string } },
  ttlMs: number,
): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  // A new request at a new id each time: a timed-out one says to check before sending it again.
  await writesSafeToRepeat(
    () =>
      requests()
        .doc(id)
        .set({
          owner,
          device,
          status: "pending" satisfies RequestStatus,
          ...params,
          createdAt: Timestamp.fromMillis(now),
          expiresAt: Timestamp.fromMillis(now + ttlMs),
        }),
    false,
  );
  return id;
}

/**
 * Ends a request that is still open (pending or claimed) as failed with `error`; a request that
 * already ended keeps its outcome. Returns the request as it is afterwards.
 */
export async function failIfOpen(id: string, error: string, guard?: (r: CaptureRequest) => boolean): Promise<CaptureRequest | undefined> {
  return firestore().runTransaction(async (tx: Transaction) => {
    const ref = requests().doc(id);
    const snap = await tx.get(ref);
    if (!snap.exists) return undefined;
    const r = toRequest(snap);
    if ((r.status === "pending" || r.status === "claimed") && (!guard || guard(r))) {
      tx.update(ref, { status: "failed", error, finishedAt: Timestamp.now() });
      return { ...r, status: "failed", error };
    }
    return r;
  });
}

/** Deletes capture requests that ended (or expired) more than a day ago. */
export async function deleteOldRequests(now = Date.now()): Promise<number> {
  const snap = await requests().where("expiresAt", "<=", Timestamp.fromMillis(now - 86_400_000)).limit(500).get();
  await Promise.all(snap.docs.map((d) => d.ref.delete()));
  return snap.size;
}
