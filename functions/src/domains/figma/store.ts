// The session registry and command relay in Firestore, written by this function (the rules let a
// paired plugin read and claim only its own room's commands and stamp only its session's lastSeenAt). figma_sessions/{roomId} is one open plugin window; its commands live in
// figma_sessions/{roomId}/figma_commands/{commandId} until answered, then are deleted by the waiting tool.
import { randomBytes } from "node:crypto";
import { FieldValue, Timestamp, type DocumentReference, type Firestore } from "firebase-admin/firestore";
import { firestore } from "../../platform/firebase.js";
import { DEFAULT_KEEPALIVE_SECONDS, MAX_KEEPALIVE_SECONDS, RELAY_COLLECTIONS } from "../../contracts/figma-plugin.js";
import { HEARTBEAT_GRACE_MS, MAX_ROOMS_PER_DEVICE, MISSED_HEARTBEATS } from "./config.js";
import { rateLimited } from "../../core/errors.js";
import { writesSafeToRepeat } from "../../platform/deadline.js";

export const SESSIONS = RELAY_COLLECTIONS.sessions;
export const COMMANDS = RELAY_COLLECTIONS.commands;

export interface SessionFields {
  figmaUserId: string;
  figmaUserName: string;
  fileKey: string;
  fileName: string;
  pageId: string;
  pageName: string;
  keepaliveSeconds: number;
}

export interface Session extends SessionFields {
  roomId: string;
  ownerUid: string;
  deviceId: string;
  /** The poll currently allowed to take commands (a newer poll supersedes older ones). */
  pollId: string | null;
  createdAt: Date;
  lastSeenAt: Date;
}

export type CommandState = "pending" | "delivered" | "done";

export interface CommandDoc {
  commandId: string;
  tool: string;
  argsJson: string;
  state: CommandState;
  resultJson?: string;
  createdAt: Timestamp;
  deliveredAt?: Timestamp;
  /** For a Firestore TTL policy: commands never outlive a day even if a cleanup was missed. */
  expireAt: Timestamp;
}


const db = (): Firestore => firestore();
export const sessionRef = (roomId: string) => db().collection(SESSIONS).doc(roomId);
export const commandsOf = (roomId: string) => sessionRef(roomId).collection(COMMANDS);

/** A fresh, unguessable room id in the seed's `room-…` form. */
export const newRoomId = () => `room-${randomBytes(12).toString("hex")}`;
export const newId = () => randomBytes(12).toString("hex");

const DAY_MS = 24 * 3600 * 1000;
const expiry = (fromMs = Date.now()) => Timestamp.fromMillis(fromMs + DAY_MS);

export function toSession(data: FirebaseFirestore.DocumentData): Session {
  return {
    roomId: String(data.roomId),
    ownerUid: String(data.ownerUid),
    deviceId: String(data.deviceId),
    figmaUserId: String(data.figmaUserId ?? ""),
    figmaUserName: String(data.figmaUserName ?? ""),
    fileKey: String(data.fileKey ?? ""),
    fileName: String(data.fileName ?? ""),
    pageId: String(data.pageId ?? ""),
    pageName: String(data.pageName ?? ""),
    keepaliveSeconds: Number(data.keepaliveSeconds) || DEFAULT_KEEPALIVE_SECONDS,
    pollId: typeof data.pollId === "string" ? data.pollId : null,
    createdAt: (data.createdAt as Timestamp | undefined)?.toDate() ?? new Date(0),
    lastSeenAt: (data.lastSeenAt as Timestamp | undefined)?.toDate() ?? new Date(0),
  };
}

/** How long after its last heartbeat a session counts as gone. */
export const staleAfterMs = (s: Pick<Session, "keepaliveSeconds">) => Math.min(s.keepaliveSeconds, MAX_KEEPALIVE_SECONDS) * MISSED_HEARTBEATS * 1000 + HEARTBEAT_GRACE_MS;
export const isAlive = (s: Session, now = Date.now()) => now - s.lastSeenAt.getTime() <= staleAfterMs(s);

/** Registers a plugin window, or resumes its earlier room when the same device still owns it. */
export async function registerSession(ownerUid: string, deviceId: string, fields: SessionFields, resumeRoomId?: string): Promise<Session> {
  const now = Timestamp.now();
  if (resumeRoomId) {
    const ref = sessionRef(resumeRoomId);
    const resumed = await db().runTransaction(async (tx) => {
      const snap = await tx.get(ref);
      const data = snap.data();
      if (!data || data.ownerUid !== ownerUid || data.deviceId !== deviceId) return false;
      tx.update(ref, { ...fields, lastSeenAt: now, expireAt: expiry() });
      return true;
    });
    if (resumed) {
      const session = toSession((await ref.get()).data()!);
      remember(session.roomId, session);
      return session;
    }
  }
  // A device's rooms are capped: each holds a poll open, and one plugin must not take the function's capacity.
  const open = (await db().collection(SESSIONS).where("ownerUid", "==", ownerUid).where("deviceId", "==", deviceId).get()).docs.filter((d) => isAlive(toSession(d.data())));
  if (open.length >= MAX_ROOMS_PER_DEVICE) {
    throw rateLimited(`This Figma plugin already has ${open.length} files open on the server, the most one device may have (${MAX_ROOMS_PER_DEVICE}): close the MCP Bridge plugin in a file you are not using, then try again`, 30);
  }
  const roomId = newRoomId();
  const doc = { roomId, ownerUid, deviceId, ...fields, pollId: null, createdAt: now, lastSeenAt: now, expireAt: expiry() };
  // A new room at a new id each time: a timed-out one says to check before sending it again.
  await writesSafeToRepeat(() => sessionRef(roomId).create(doc), false);
  remember(roomId, doc);
  return toSession(doc);
}

/** A room's owner never changes (room ids are random and never reused): remembered per instance. */
interface Ownership {
  ownerUid: string;
  deviceId: string;
  keepaliveSeconds: number;
}
const owners = new Map<string, Ownership>();
const MAX_OWNERS = 10_000;
function remember(roomId: string, o: Ownership): void {
  if (owners.size >= MAX_OWNERS) owners.delete(owners.keys().next().value!);
  owners.set(roomId, { ownerUid: o.ownerUid, deviceId: o.deviceId, keepaliveSeconds: o.keepaliveSeconds });
}

/**
 * The room's owner and keep-alive if it belongs to this device of this user; otherwise undefined
 * (never someone else's). A room that was deleted since is found out by the write that follows
 * (NOT_FOUND), so the remembered ownership saves a read on every poll and result.
 */
export async function deviceRoom(roomId: string, ownerUid: string, deviceId: string): Promise<Ownership | undefined> {
  if (!/^room-[0-9a-f]{24}$/.test(roomId)) return undefined;
  let known = owners.get(roomId);
  if (!known) {
    const data = (await sessionRef(roomId).get()).data();
    if (!data) return undefined;
    known = { ownerUid: String(data.ownerUid), deviceId: String(data.deviceId), keepaliveSeconds: Number(data.keepaliveSeconds) || DEFAULT_KEEPALIVE_SECONDS };
    remember(roomId, known);
  }
  return known.ownerUid === ownerUid && known.deviceId === deviceId ? known : undefined;
}

/** Firestore's NOT_FOUND (the document is gone), as the gRPC status the SDK reports. */
export const isNotFound = (err: unknown) => (err as { code?: unknown } | null)?.code === 5;

export async function touchSession(roomId: string, fields: Partial<SessionFields> & { pollId?: string }): Promise<void> {
  await sessionRef(roomId).update({ ...fields, lastSeenAt: Timestamp.now(), expireAt: expiry() });
}

/** Every session the user's plugins registered (alive or not). */
export async function sessionsOfOwner(ownerUid: string): Promise<Session[]> {
  const snap = await db().collection(SESSIONS).where("ownerUid", "==", ownerUid).get();
  return snap.docs.map((d) => toSession(d.data()));
}

/** Deletes a session and whatever commands it still had. */
export async function deleteSession(roomId: string): Promise<void> {
  await db().recursiveDelete(sessionRef(roomId));
}

/** Files a command for a room at `ref` (a document of commandsOf(room)); the tool watches it. */
export async function fileCommand(ref: DocumentReference, tool: string, args: unknown): Promise<void> {
  const doc = { commandId: ref.id, tool, argsJson: JSON.stringify(args ?? {}), state: "pending", createdAt: FieldValue.serverTimestamp(), expireAt: expiry() };
  for (let attempt = 1; ; attempt++) {
    try {
      // The call that files it picks a new id each time: sent again, it would be a second command.
      await writesSafeToRepeat(() => ref.create(doc), false);
      return;
    } catch (err) {
      const code = Number((err as { code?: unknown }).code);
      if (code === 6) return; // ALREADY_EXISTS: an earlier attempt did write it
      // UNKNOWN / ABORTED / UNAVAILABLE: the outcome is unknown or the write lost a race; create is safe to repeat.
      if (attempt >= 3 || ![2, 10, 14].includes(code)) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }
}

export interface DeliveredCommand {
  commandId: string;
  tool: string;
  args: unknown;
}

/**
 * Hands the room's pending commands to the poll `pollId`, oldest first, unless a newer poll of the
 * same room took over meanwhile (then nothing: a poll from a dropped connection must not swallow
 * commands the plugin would never see). One atomic batch whose every write is conditional on the
 * documents being unchanged since they were read (no transaction locks: filing commands and
 * heartbeats never wait on a claim); when something changed in between, it reads again. (A
 * listening plugin claims in Firestore itself, one command at a time, as firestore.rules allow.)
 */
export async function claimPending(roomId: string, pollId: string): Promise<{ superseded: boolean; commands: DeliveredCommand[] }> {
  for (let attempt = 1; ; attempt++) {
    const [session, pending] = await Promise.all([sessionRef(roomId).get(), commandsOf(roomId).where("state", "==", "pending").get()]);
    if (!session.exists || session.data()!.pollId !== pollId) return { superseded: true, commands: [] };
    if (pending.empty) return { superseded: false, commands: [] };
    const docs = [...pending.docs].sort((a, b) => ((a.data().createdAt as Timestamp | undefined)?.toMillis() ?? 0) - ((b.data().createdAt as Timestamp | undefined)?.toMillis() ?? 0));
    const batch = db().batch();
    const deliveredAt = Timestamp.now();
    batch.update(session.ref, { lastClaimAt: deliveredAt }, { lastUpdateTime: session.updateTime! });
    for (const d of docs) batch.update(d.ref, { state: "delivered", deliveredAt }, { lastUpdateTime: d.updateTime });
    try {
      await batch.commit();
    } catch (err) {
      // FAILED_PRECONDITION / NOT_FOUND / ABORTED: the room or a command changed since the read.
      if (attempt < 5 && [5, 9, 10].includes(Number((err as { code?: unknown }).code))) continue;
      throw err;
    }
    return {
      superseded: false,
      commands: docs.map((d) => {
        const c = d.data() as CommandDoc;
        return { commandId: c.commandId, tool: c.tool, args: JSON.parse(c.argsJson) as unknown };
      }),
    };
  }
}

/** Stores a plugin's answer; false when the command is no longer waited for (timed out, cancelled: deleted). */
export async function storeResult(roomId: string, commandId: string, resultJson: string): Promise<boolean> {
  if (!/^[0-9a-f]{24}$/.test(commandId)) return false;
  try {
    await commandsOf(roomId).doc(commandId).update({ state: "done", resultJson });
    return true;
  } catch (err) {
    if (isNotFound(err)) return false;
    throw err;
  }
}
