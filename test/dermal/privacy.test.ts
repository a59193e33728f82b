// Privacy: a caller reads only their own records; a clinician (claim on the token) reads a user's
// records only when that user shared them with that clinician. Refusals never reveal existence.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { createUser, type TestUser } from "../support/emulators.js";
import { callTool, connect, textOf } from "../support/mcp.js";
import { seedUser, sessionId } from "./fixtures.js";

const USER_DENIED =
  "Error: Access denied: you can read only your own DermalVision records, or those of a user who shared them with you as their clinician (403)";
const SESSION_DENIED =
  "Error: Session not found or access denied: you can read only your own sessions, or those of a user who shared them with you as their clinician (403)";

const clients: Client[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close())));
async function as(user: TestUser): Promise<Client> {
  const c = await connect("dermal", { token: user.token });
  clients.push(c);
  return c;
}

let a: TestUser; // patient A
let b: TestUser; // patient B, shares with clinician `doc` and with `friend` (no claim)
let doc: TestUser; // clinician, shared with by B only
let other: TestUser; // clinician, shared with by nobody
let friend: TestUser; // in B's sharedWith, but no clinician claim
let ghost: string; // a uid with no records at all

beforeAll(async () => {
  [a, b, doc, other, friend] = await Promise.all([
    createUser(),
    createUser(),
    createUser({ claims: { clinician: true } }),
    createUser({ claims: { clinician: true } }),
    createUser(),
  ]);
  ghost = `${b.uid}-ghost`;
  await seedUser(a.uid, { tier: "free", displayName: "Patient A" }, [{ at: 40 }, { at: 3 }]);
  await seedUser(b.uid, { tier: "premium", displayName: "Patient B", sharedWith: [doc.uid, friend.uid] }, [{ at: 30 }, { at: 12 }, { at: 1 }]);
});

/** Every way of asking for a user's records, with that user's uid or one of their session ids. */
function probes(uid: string, session: string): [string, Record<string, unknown>][] {
  return [
    ["get_user_status", { uid }],
    ["list_sessions", { uid }],
    ["list_sessions", { uid, limit: 20 }],
    ["export_zone_history", { uid }],
    ["export_zone_history", { uid, format: "csv" }],
    ["export_zone_history", { uid, zone: "chin", metrics: ["acne"], from: "2000-01-01", to: "2100-01-01" }],
    ["get_analysis_detail", { sessionId: session }],
  ];
}
const deniedText = (tool: string) => (tool === "get_analysis_detail" ? SESSION_DENIED : USER_DENIED);

describe("user A asking for user B's records", () => {
  test("is refused by every tool and argument, revealing nothing", async () => {
    const c = await as(a);
    for (const [tool, args] of probes(b.uid, sessionId(b.uid, 2))) {
      const r = await callTool(c, tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toBe(deniedText(tool));
      expect(r.structuredContent).toBeUndefined();
      expect(JSON.stringify(r)).not.toContain("Patient B");
    }
  });

  test("gets the same answer for a uid or session that does not exist", async () => {
    const c = await as(a);
    for (const [tool, args] of probes(ghost, `${ghost}-s0000`)) {
      const r = await callTool(c, tool, args);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(deniedText(tool));
    }
  });

  test("argument errors read the same for B's uid and a uid that does not exist", async () => {
    const c = await as(a);
    for (const args of [{ zone: "cheek" }, { cursor: "eyJ2IjoxfQ" }, { from: "2025-13-01" }]) {
      const forB = await callTool(c, "export_zone_history", { uid: b.uid, ...args });
      const forGhost = await callTool(c, "export_zone_history", { uid: ghost, ...args });
      expect(forB.isError).toBe(true);
      expect(textOf(forB)).toMatch(/^Error: Invalid (input|cursor): .* \(400\)$/);
      expect(textOf(forB)).toBe(textOf(forGhost).replace(ghost, b.uid));
    }
  });

  test("A still reads A's own records", async () => {
    const c = await as(a);
    const r = await callTool(c, "list_sessions", { uid: a.uid });
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as any).sessions.map((s: any) => s.sessionId)).toEqual([sessionId(a.uid, 1), sessionId(a.uid, 0)]);
    const d = await callTool(c, "get_analysis_detail", { sessionId: sessionId(a.uid, 1) });
    expect(d.isError).toBeFalsy();
    expect((d.structuredContent as any).uid).toBe(a.uid);
  });
});

describe("clinicians", () => {
  test("a clinician B shared with reads B's records with every tool", async () => {
    const c = await as(doc);
    const status = await callTool(c, "get_user_status", { uid: b.uid });
    expect(status.isError, textOf(status)).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ uid: b.uid, displayName: "Patient B", tier: "premium" });
    expect((status.structuredContent as any).sharedWith).toBeUndefined(); // the sharing list is B's business
    const list = await callTool(c, "list_sessions", { uid: b.uid });
    expect((list.structuredContent as any).sessions).toHaveLength(3);
    const detail = await callTool(c, "get_analysis_detail", { sessionId: sessionId(b.uid, 2) });
    expect(detail.isError, textOf(detail)).toBeFalsy();
    expect(detail.structuredContent).toMatchObject({ uid: b.uid, previousSession: { sessionId: sessionId(b.uid, 1) } });
    const exp = await callTool(c, "export_zone_history", { uid: b.uid, zone: "nose" });
    expect((exp.structuredContent as any).records).toHaveLength(3);
  });

  test("that clinician sees only users who shared with them", async () => {
    const c = await as(doc);
    for (const [tool, args] of [...probes(a.uid, sessionId(a.uid, 1)), ...probes(ghost, `${ghost}-s0000`)]) {
      const r = await callTool(c, tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
      expect(textOf(r)).toBe(deniedText(tool));
    }
  });

  test("a clinician nobody shared with is refused", async () => {
    const c = await as(other);
    for (const [tool, args] of probes(b.uid, sessionId(b.uid, 0))) {
      const r = await callTool(c, tool, args);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(deniedText(tool));
    }
  });

  test("being on the sharing list without the clinician claim is not enough", async () => {
    const c = await as(friend);
    for (const [tool, args] of probes(b.uid, sessionId(b.uid, 0))) {
      const r = await callTool(c, tool, args);
      expect(r.isError).toBe(true);
      expect(textOf(r)).toBe(deniedText(tool));
    }
  });
});

describe("session ids are unique per user only", () => {
  // Two users with the same session id; A's path sorts first in a collection-group query, and A
  // shares with nobody, B with `clin`. Neither may shadow the other's session.
  let ua: TestUser;
  let ub: TestUser;
  let clin: TestUser;
  const ID = "shared-id";
  beforeAll(async () => {
    const prefix = `same-${Math.random().toString(36).slice(2, 8)}`;
    [ua, ub, clin] = await Promise.all([createUser({ uid: `${prefix}-a` }), createUser({ uid: `${prefix}-b` }), createUser({ claims: { clinician: true } })]);
    await seedUser(ua.uid, { displayName: "Same A" }, [{ at: 10, id: ID }]);
    await seedUser(ub.uid, { displayName: "Same B", sharedWith: [clin.uid] }, [{ at: 5, id: ID }]);
  });

  test("each user gets their own session", async () => {
    for (const user of [ua, ub]) {
      const r = await callTool(await as(user), "get_analysis_detail", { sessionId: ID });
      expect(r.isError, `${user.uid}: ${textOf(r)}`).toBeFalsy();
      expect(r.structuredContent).toMatchObject({ sessionId: ID, uid: user.uid });
    }
  });

  test("a clinician shared with by B (not A) gets B's, whichever comes first", async () => {
    const r = await callTool(await as(clin), "get_analysis_detail", { sessionId: ID });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(r.structuredContent).toMatchObject({ sessionId: ID, uid: ub.uid });
  });

  test("a clinician nobody with that id shared with is refused", async () => {
    const r = await callTool(await as(other), "get_analysis_detail", { sessionId: ID });
    expect(textOf(r)).toBe(SESSION_DENIED);
  });
});

test("without a token the server answers 401", async () => {
  await expect(connect("dermal")).rejects.toThrow(/401|Unauthorized|Sign-in/i);
});
