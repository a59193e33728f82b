// Who may read whose DermalVision records. Health-like data: a caller reads their own records;
// someone else's only with a clinician claim on the token AND the owner's profile listing the
// caller in `sharedWith`. A refusal never tells whether the record exists: someone else's uid or
// session and a made-up one get the same sentence.
import type { Caller } from "../../auth/caller.js";
import { hasClaim } from "../../auth/caller.js";
import { forbidden, notFound } from "../../core/errors.js";
import type { SignedInContext } from "../../mcp/define.js";
import type { Profile, Session } from "./schema.js";
import { dermalStore } from "./records.js";

export const USER_DENIED =
  "Access denied: you can read only your own DermalVision records, or those of a user who shared them with you as their clinician";
export const SESSION_DENIED =
  "Session not found or access denied: you can read only your own sessions, or those of a user who shared them with you as their clinician";

export interface Access {
  caller: Caller;
  profile: Profile;
  /** true when the caller reads their own records */
  own: boolean;
}

function callerOf(ctx: SignedInContext): Caller {
  return ctx.caller;
}

const sharedWithCaller = (caller: Caller, profile: Profile | null): boolean =>
  !!profile && hasClaim(caller, "clinician") && profile.sharedWith.includes(caller.uid);

/**
 * The profile of `uid` if the caller may read it. Own uid without a profile: "User not found".
 * Anyone else's uid, existing or not, without sharing: the one access-denied sentence.
 */
export async function readableUser(ctx: SignedInContext, uid: string): Promise<Access> {
  const caller = callerOf(ctx);
  const profile = await dermalStore(ctx).getProfile(uid);
  if (uid === caller.uid) {
    if (!profile) throw notFound("User");
    return { caller, profile, own: true };
  }
  if (!sharedWithCaller(caller, profile)) {
    ctx.log.info("dermal access refused", { reason: "not owner or not shared" });
    throw forbidden(USER_DENIED);
  }
  return { caller, profile: profile!, own: false };
}

/**
 * `read` (of `uid`'s records) once the caller may read them. For the caller's own uid there is no
 * decision to wait for, so it runs beside the profile read (one Firestore round trip less per
 * call); for anyone else's uid it starts only after access was granted.
 */
export async function readWhenAllowed<T>(ctx: SignedInContext, uid: string, read: () => Promise<T>): Promise<[Access, T]> {
  if (ctx.caller?.uid === uid) return Promise.all([readableUser(ctx, uid), read()]);
  const access = await readableUser(ctx, uid);
  return [access, await read()];
}

/**
 * The session if the caller may read it; otherwise (including no such session) one sentence.
 * Session ids are unique per user only, so the caller's own users/{caller}/sessions/{id} comes
 * first: nobody else's session with the same id can shadow it. Only a clinician looks further,
 * at every user's session with that id, and gets the first whose owner shared with them.
 */
export async function readableSession(ctx: SignedInContext, sessionId: string): Promise<Session> {
  const caller = callerOf(ctx);
  const store = dermalStore(ctx);
  const own = await store.getSession(caller.uid, sessionId);
  const candidates = !own && hasClaim(caller, "clinician") ? (await store.sessionsWithId(sessionId)).filter((s) => s.uid !== caller.uid) : [];
  // Every path reads profiles once (the candidates' owners, else the caller's own), so a session
  // that exists nowhere takes the same reads as someone else's that the owner did not share:
  // the answer's timing does not tell them apart.
  const profiles = await store.getProfiles(candidates.length ? candidates.map((s) => s.uid) : [caller.uid]);
  if (own) return own;
  const shared = candidates.find((_, i) => sharedWithCaller(caller, profiles[i] ?? null));
  if (!shared) {
    ctx.log.info("dermal access refused", { reason: "session not owned or not shared" });
    throw forbidden(SESSION_DENIED);
  }
  return shared;
}
