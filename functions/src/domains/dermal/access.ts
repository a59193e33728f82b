// Who may read whose DermalVision records. Health-like data: a caller reads their own records;
// someone else's only with a clinician claim on the token AND the owner's profile listing the
// caller in `sharedWith`. A refusal never tells whether the record exists: someone else's uid or
// session and a made-up one get the same sentence.
import type { Caller } from "../../auth/caller.js";
import { hasClaim } from "../../auth/caller.js";
import { forbidden, notFound } from "../../mcp/errors.js";
import type { RequestContext } from "../../mcp/define.js";
import type { Profile, Session } from "./schema.js";
import { findSession, getProfile } from "./store.js";

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

function callerOf(ctx: RequestContext): Caller {
  if (!ctx.caller) throw forbidden(USER_DENIED); // unreachable: the domain is signed-in only
  return ctx.caller;
}

const sharedWithCaller = (caller: Caller, profile: Profile | null): boolean =>
  !!profile && hasClaim(caller, "clinician") && profile.sharedWith.includes(caller.uid);

/**
 * The profile of `uid` if the caller may read it. Own uid without a profile: "User not found".
 * Anyone else's uid, existing or not, without sharing: the one access-denied sentence.
 */
export async function readableUser(ctx: RequestContext, uid: string): Promise<Access> {
  const caller = callerOf(ctx);
  const profile = await getProfile(uid);
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

/** The session if the caller may read it; otherwise (including no such session) one sentence. */
export async function readableSession(ctx: RequestContext, sessionId: string): Promise<Session> {
  const caller = callerOf(ctx);
  const session = await findSession(sessionId);
  if (!session) throw forbidden(SESSION_DENIED);
  if (session.uid === caller.uid) return session;
  if (!sharedWithCaller(caller, await getProfile(session.uid))) {
    ctx.log.info("dermal access refused", { reason: "session not owned or not shared" });
    throw forbidden(SESSION_DENIED);
  }
  return session;
}
