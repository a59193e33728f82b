// A call the renderer refuses as busy is answered before the fair-use count: it costs the caller
// nothing. A queue of one (MERMAID_QUEUE_MAX=1) makes "busy" exact: the first call's job waits for
// the worker that is still starting, so a second call made at once finds the queue full.
import { afterAll, beforeAll, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import type { RequestContext } from "../../functions/src/mcp/define.js";
import type { Logger } from "../../functions/src/core/log.js";
import { ToolError } from "../../functions/src/core/errors.js";

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
let verify: typeof import("../../functions/src/domains/mermaid/tools/verify.js").verify;
let closePool: () => Promise<void>;

beforeAll(async () => {
  process.env.MERMAID_MCP_LIMIT = "3";
  process.env.MERMAID_QUEUE_MAX = "1";
  ({ verify } = await import("../../functions/src/domains/mermaid/tools/verify.js"));
  const { renderPool } = await import("../../functions/src/platform/mermaid/pool.js");
  closePool = () => renderPool().close();
});
afterAll(() => closePool?.());

function context(clientIp: string): RequestContext {
  return { caller: undefined, requestId: randomUUID(), query: {}, clientIp, log: quiet, signal: new AbortController().signal, progress: async () => undefined };
}

const ip = () => `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.9`;

test("a busy answer is not counted against the caller's fair use", async () => {
  const [first, second] = [ip(), ip()];
  const queued = verify.handler({ code: "flowchart TD\n  A --> B" }, context(first));
  const busy = (await verify.handler({ code: "flowchart TD\n  C --> D" }, context(second)).catch((e: unknown) => e)) as ToolError;
  expect(busy).toBeInstanceOf(ToolError);
  expect(busy.toText()).toMatch(/^Error: The diagram renderer is busy: try again in \d+ seconds? \(503\)$/);
  expect(await queued).toMatchObject({ data: { ok: true } });

  // The limit is 3: had the busy call counted, the third call below would be refused.
  for (let i = 0; i < 3; i++) {
    const err = (await verify.handler({ code: "" }, context(second)).catch((e: unknown) => e)) as ToolError;
    expect(err.kind).toBe("invalid_input");
  }
  const refused = (await verify.handler({ code: "" }, context(second)).catch((e: unknown) => e)) as ToolError;
  expect(refused.kind).toBe("rate_limited");
}, 120_000);
