// Fair use on the open MCP endpoint: per client address, counted in Firestore like the HTTP API,
// with an explicit error that says how long to wait. A small limit (MERMAID_MCP_LIMIT=3) keeps
// the test short; the tool handlers are called directly with the context the server builds.
import { afterAll, beforeAll, expect, test, vi } from "vitest";
import { randomUUID } from "node:crypto";
import type { RequestContext } from "../../functions/src/mcp/define.js";
import type { Logger } from "../../functions/src/core/log.js";
import { ToolError } from "../../functions/src/core/errors.js";

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
let verify: typeof import("../../functions/src/domains/mermaid/tools/verify.js").verify;

let renderPool: typeof import("../../functions/src/platform/mermaid/pool.js").renderPool;

beforeAll(async () => {
  process.env.MERMAID_MCP_LIMIT = "3";
  ({ verify } = await import("../../functions/src/domains/mermaid/tools/verify.js"));
  ({ renderPool } = await import("../../functions/src/platform/mermaid/pool.js"));
});
afterAll(() => renderPool().close());

function context(clientIp: string): RequestContext {
  return { caller: undefined, requestId: randomUUID(), query: {}, clientIp, log: quiet, signal: new AbortController().signal, progress: async () => undefined };
}

test("past the per-client limit a call is refused with the wait; another client is unaffected", async () => {
  const client = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.7`;
  // Empty code is answered without drawing anything: only the counting is exercised.
  for (let i = 0; i < 3; i++) {
    const err = await verify.handler({ code: "" }, context(client)).catch((e: unknown) => e);
    expect((err as ToolError).kind).toBe("invalid_input");
  }
  const refused = (await verify.handler({ code: "" }, context(client)).catch((e: unknown) => e)) as ToolError;
  expect(refused).toBeInstanceOf(ToolError);
  expect(refused.kind).toBe("rate_limited");
  expect(refused.toText()).toMatch(/^Error: Fair-use limit reached: at most 3 diagram calls per hour per client on this open server\. Try again in \d+ seconds \(429\)$/);
  expect(refused.extra.retryAfterSeconds).toBeGreaterThan(0);

  const other = (await verify.handler({ code: "" }, context(`${client}9`)).catch((e: unknown) => e)) as ToolError;
  expect(other.kind).toBe("invalid_input");
});

test("a client this instance refused is refused again before the renderer is asked", async () => {
  const client = `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.8`;
  for (let i = 0; i < 3; i++) await verify.handler({ code: "" }, context(client)).catch(() => undefined);
  const first = (await verify.handler({ code: "" }, context(client)).catch((e: unknown) => e)) as ToolError;
  expect(first.kind).toBe("rate_limited");

  // A real diagram now: the remembered refusal answers before the renderer is even asked.
  const pool = renderPool();
  const asked = vi.spyOn(pool, "refusal");
  const ran = vi.spyOn(pool, "run");
  try {
    const again = (await verify.handler({ code: "flowchart TD\n  A --> B" }, context(client)).catch((e: unknown) => e)) as ToolError;
    expect(again.kind).toBe("rate_limited");
    expect(again.toText()).toMatch(/^Error: Fair-use limit reached: at most 3 diagram calls per hour per client on this open server\. Try again in \d+ seconds \(429\)$/);
    expect(again.extra.retryAfterSeconds).toBeLessThanOrEqual(first.extra.retryAfterSeconds!);
    expect(asked).not.toHaveBeenCalled();
    expect(ran).not.toHaveBeenCalled();
    // The same call from a client with calls left does reach the renderer (the spies watch the right methods).
    await expect(verify.handler({ code: "flowchart TD\n  A --> B" }, context(`${client}9`))).resolves.toMatchObject({ data: { ok: true } });
    expect(ran).toHaveBeenCalledTimes(1);
  } finally {
    vi.restoreAllMocks();
  }
}, 120_000);
