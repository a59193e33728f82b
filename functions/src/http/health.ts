// The pipeline's health step: `/healthz`, answered by every function, never held behind its gate
// or a credential. It says "ok" while the instance is loaded (busy is not broken), 503 when the
// domain cannot serve or a dependency keeps timing out.
import type { Request, Response } from "express";
import { isOpen } from "../auth/policy.js";
import type { Logger } from "../core/log.js";
import { PACKAGE_VERSION } from "../mcp/server.js";
import { DEPENDENCY_RETRY_AFTER_SECONDS, dependencyTrouble, probeTrouble } from "../platform/deadline.js";
import { sendJson } from "./jsonrpc.js";
import type { Loaded } from "./target.js";

/** Uptime checks: answered by every function, never held behind its gate or a credential. */
export function isHealthCheck(req: Pick<Request, "method">, path: string): boolean {
  return req.method === "GET" && path === "/healthz";
}

export async function answerHealth(res: Response, { served, mcp }: Loaded, log: Logger): Promise<void> {
  const status = served.health?.() ?? { ok: true };
  const base = { domain: served.name, version: PACKAGE_VERSION, access: !mcp || isOpen(mcp.access) ? "public" : "signed-in", mcp: !!mcp };
  if (!status.ok) return sendJson(res, 503, { status: "unavailable", reason: status.reason, ...base }, { "retry-after": "5" });
  await probeTrouble(log);
  const troubled = dependencyTrouble();
  if (troubled.length) {
    const reason = troubled.map((t) => t.reason).join("; ");
    return sendJson(res, 503, { status: "degraded", reason, dependencies: troubled, ...base }, { "retry-after": String(DEPENDENCY_RETRY_AFTER_SECONDS) });
  }
  return sendJson(res, 200, { status: "ok", ...base });
}
