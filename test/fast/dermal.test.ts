// dermal's tools in-process: the same server the function builds, a real MCP client, the
// Firestore emulator for the records. What a user notices: their own status, the refusal for
// someone else's records (the same sentence whether they exist or not), arguments named in errors.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { USER_DENIED } from "../../functions/src/domains/dermal/access.js";
import { seedUser } from "../dermal/fixtures.js";
import { connectInProcess, idTokenCaller, loadDomain } from "../support/in-process.js";
import { callTool, textOf } from "../support/mcp.js";

const run = Date.now().toString(36);
const alice = `fast-alice-${run}`;
const bob = `fast-bob-${run}`;
const clients: Client[] = [];
let asAlice: Client;

beforeAll(async () => {
  await seedUser(alice, { tier: "premium", skinType: "oily", displayName: "Alice Fast" }, [{ at: 3 }, { at: 1 }]);
  await seedUser(bob, { tier: "free", displayName: "Bob Fast" }, [{ at: 2 }]);
  asAlice = await connectInProcess(await loadDomain("dermal"), { caller: idTokenCaller(alice) });
  clients.push(asAlice);
});
afterAll(async () => Promise.all(clients.map((c) => c.close())));

describe("dermal, in-process", () => {
  test.each(["modern", "legacy"] as const)("both eras list the same four read-only tools (%s client)", async (era) => {
    const c = await connectInProcess(await loadDomain("dermal"), { caller: idTokenCaller(alice), era });
    clients.push(c);
    const { tools } = await c.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["export_zone_history", "get_analysis_detail", "get_user_status", "list_sessions"]);
    expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
  });

  test("get_user_status answers the caller's own profile", async () => {
    const result = await callTool(asAlice, "get_user_status", { uid: alice });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ uid: alice, displayName: "Alice Fast", tier: "premium", skinType: "oily" });
  });

  test("someone else's records and a made-up uid get the same refusal", async () => {
    const other = await callTool(asAlice, "get_user_status", { uid: bob });
    const madeUp = await callTool(asAlice, "get_user_status", { uid: `nobody-${run}` });
    expect(other.isError).toBe(true);
    expect(textOf(other)).toBe(`Error: ${USER_DENIED} (403)`);
    expect(textOf(madeUp)).toBe(textOf(other));
  });

  test("a bad argument is named in the error", async () => {
    const result = await callTool(asAlice, "list_sessions", { uid: alice, limit: 500 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Error: Invalid input: limit .*20.* \(400\)$/);
  });
});
