// readableSession without Firestore: the store is replaced by one that records each read, to
// prove which session wins when ids repeat across users, and that a session id that exists
// nowhere takes the same reads (a profile read included) as someone else's unshared session, so
// the answer's timing does not reveal existence.
import { beforeEach, describe, expect, test, vi } from "vitest";
import type { SignedInContext } from "../../functions/src/mcp/define.js";
import type { Session } from "../../functions/src/domains/dermal/schema.js";

const fake = vi.hoisted(() => ({
  reads: [] as string[],
  sessions: [] as { uid: string; sessionId: string }[],
  profiles: new Map<string, { sharedWith: string[] }>(),
}));

vi.mock("../../functions/src/domains/dermal/store.js", () => {
  const session = (s: { uid: string; sessionId: string }) => ({ ...s, capturedAt: null, zones: [], status: "completed" });
  const profile = (uid: string) => {
    const p = fake.profiles.get(uid);
    return p ? { uid, displayName: null, tier: "free", skinType: null, createdAt: null, lastActiveAt: null, sharedWith: p.sharedWith } : null;
  };
  return {
    async getSession(uid: string, id: string) {
      fake.reads.push("session");
      const s = fake.sessions.find((x) => x.uid === uid && x.sessionId === id);
      return s ? session(s) : null;
    },
    async sessionsWithId(id: string) {
      fake.reads.push("sessions with id");
      return fake.sessions.filter((x) => x.sessionId === id).sort((a, b) => a.uid.localeCompare(b.uid)).map(session);
    },
    async getProfiles(uids: string[]) {
      fake.reads.push(`profiles x${uids.length}`);
      return uids.map(profile);
    },
    async getProfile(uid: string) {
      fake.reads.push("profile");
      return profile(uid);
    },
  };
});

const { readableSession, SESSION_DENIED } = await import("../../functions/src/domains/dermal/access.js");

const ctx = (uid: string, clinician = false): SignedInContext => ({
  caller: { uid, claims: clinician ? { clinician: true } : {}, credential: "id-token", scopes: ["*"] },
  requestId: "test",
  query: {},
  clientIp: "127.0.0.1",
  log: { info() {}, warn() {}, error() {}, debug() {} } as unknown as SignedInContext["log"],
  signal: new AbortController().signal,
  progress: async () => undefined,
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
