// readableSession without Firestore: the domain's store (its backend in the context) is one that
// records each read, to prove which session wins when ids repeat across users, and that a session
// id that exists nowhere takes the same reads (a profile read included) as someone else's
// unshared session, so the answer's timing does not reveal existence.
import { beforeEach, describe, expect, test } from "vitest";
import type { SignedInContext } from "../../functions/src/mcp/define.js";
import { readableSession, SESSION_DENIED } from "../../functions/src/domains/dermal/access.js";
import type { DermalStore } from "../../functions/src/domains/dermal/records.js";
import type { Session } from "../../functions/src/domains/dermal/schema.js";

const fake = {
  reads: [] as string[],
  sessions: [] as { uid: string; sessionId: string }[],
  profiles: new Map<string, { sharedWith: string[] }>(),
};

const session = (s: { uid: string; sessionId: string }): Session => ({ ...s, capturedAt: null, zones: [], status: "completed" });
const profile = (uid: string) => {
  const p = fake.profiles.get(uid);
  return p ? { uid, displayName: null, tier: "free", skinType: null, createdAt: null, lastActiveAt: null, sharedWith: p.sharedWith } : null;
};
const unused = () => {
  throw new Error("access reads sessions and profiles only");
};
const recordingStore: DermalStore = {
  async getSession(uid, id) {
    fake.reads.push("session");
    const s = fake.sessions.find((x) => x.uid === uid && x.sessionId === id);
    return s ? session(s) : null;
  },
  async sessionsWithId(id) {
    fake.reads.push("sessions with id");
    return fake.sessions.filter((x) => x.sessionId === id).sort((a, b) => a.uid.localeCompare(b.uid)).map(session);
  },
  async getProfiles(uids) {
    fake.reads.push(`profiles x${uids.length}`);
    return uids.map(profile);
  },
  async getProfile(uid) {
    fake.reads.push("profile");
    return profile(uid);
  },
  listSessions: unused,
  countSessions: unused,
  overallScores: unused,
  getReport: unused,
  previousReport: unused,
  reportReader: unused,
};

const ctx = (uid: string, clinician = false): SignedInContext => ({
  caller: { uid, claims: clinician ? { clinician: true } : {}, credential: "id-token", scopes: ["*"] },
  requestId: "test",
  query: {},
  clientIp: "127.0.0.1",
  log: { info() {}, warn() {}, error() {}, debug() {} } as unknown as SignedInContext["log"],
  signal: new AbortController().signal,
  progress: async () => undefined,
  backend: recordingStore,
});

/** The reads one call makes, and how it ends (owner of the session, or the refusal). */
async function trace(c: SignedInContext, id: string): Promise<{ reads: string[]; answer: string }> {
  fake.reads.length = 0;
  const answer = await readableSession(c, id).then((s: Session) => s.uid, (e: Error) => e.message);
  return { reads: [...fake.reads], answer };
}

beforeEach(() => {
  fake.sessions = [{ uid: "a", sessionId: "same" }, { uid: "b", sessionId: "same" }, { uid: "b", sessionId: "only-b" }];
  fake.profiles = new Map<string, { sharedWith: string[] }>([["a", { sharedWith: [] }], ["b", { sharedWith: ["doc"] }], ["doc", { sharedWith: [] }]]);
});

describe("which session an id means", () => {
  test("the caller's own, even when another user's sorts first", async () => {
    expect((await trace(ctx("a"), "same")).answer).toBe("a");
    expect((await trace(ctx("b"), "same")).answer).toBe("b");
  });

  test("for a clinician: the first whose owner shared with them, not the first found", async () => {
    expect((await trace(ctx("doc", true), "same")).answer).toBe("b");
    expect((await trace(ctx("other-doc", true), "same")).answer).toBe(SESSION_DENIED);
    expect((await trace(ctx("doc"), "same")).answer).toBe(SESSION_DENIED); // shared with, but no claim
  });
});

describe("a refusal takes the same reads whether or not the session exists", () => {
  test("for a user: someone else's session and one that exists nowhere", async () => {
    const elsewhere = await trace(ctx("a"), "only-b");
    const nowhere = await trace(ctx("a"), "no-such-session");
    expect(elsewhere).toEqual({ reads: ["session", "profiles x1"], answer: SESSION_DENIED });
    expect(nowhere).toEqual(elsewhere);
  });

  test("for a clinician: an unshared session and one that exists nowhere", async () => {
    const unshared = await trace(ctx("other-doc", true), "only-b");
    const nowhere = await trace(ctx("other-doc", true), "no-such-session");
    expect(unshared).toEqual({ reads: ["session", "sessions with id", "profiles x1"], answer: SESSION_DENIED });
    expect(nowhere).toEqual(unshared);
  });

  test("reading one's own session reads a profile too", async () => {
    expect(await trace(ctx("b"), "only-b")).toEqual({ reads: ["session", "profiles x1"], answer: "b" });
  });
});
