// POST /api/verify, /api/render, /api/svg: JSON in and out, the same core logic and messages as the
// tools. Limited to 100 requests per hour per client IP across all instances (Firestore); MCP calls
// are not limited this way (MCP clients such as ChatGPT and Claude limit their own callers).
import { OPEN, type RequestContext } from "../../../mcp/define.js";
import { type HttpReply, type HttpRequest, type HttpRoute } from "../../../http/route.js";
import { rateLimited } from "../../../core/errors.js";
import { parseInput } from "../../../mcp/validation.js";
import { BUDGETS, callDependency } from "../../../platform/deadline.js";
import { firestoreUnreachable, hitRateLimit } from "../../../platform/rate-limit.js";
import { exportFilename, renderDiagram, rendererRefusal, verifyDiagram } from "../core/service.js";
import { renderInput, svgInput, verifyInput } from "../schemas.js";

export const API_LIMIT = 100;
const WINDOW_SECONDS = 3600;

async function limit(req: HttpRequest, ctx: RequestContext): Promise<Record<string, string>> {
  let decision;
  try {
    decision = await callDependency(BUDGETS.fairUse, () => hitRateLimit(req.clientIp, { bucket: "mermaid-api", limit: API_LIMIT, windowSeconds: WINDOW_SECONDS }));
  } catch (err) {
    // Firestore unreachable: the limiter protects capacity, and its outage must not take the API
    // down with it. Any other failure is a bug and is answered as one.
    if (!firestoreUnreachable(err)) throw err;
    ctx.log.warn("rate limiter unavailable; request allowed", { err });
    return {};
  }
  const headers = { "x-ratelimit-limit": String(decision.limit), "x-ratelimit-remaining": String(decision.remaining) };
  if (!decision.allowed) {
    throw rateLimited(
      `Rate limit exceeded: at most ${API_LIMIT} requests per hour per client. Try again in ${decision.retryAfterSeconds} seconds`,
      decision.retryAfterSeconds,
    );
  }
  return headers;
}

function route(path: string, run: (body: unknown, signal: AbortSignal) => Promise<unknown>): HttpRoute {
  return {
    method: "POST",
    access: OPEN,
    path,
    async handle(req, ctx): Promise<HttpReply> {
      // Busy: answered at once, not counted against the caller's hour.
      const refusal = rendererRefusal();
      if (refusal) throw refusal;
      const headers = await limit(req, ctx);
      return { status: 200, body: await run(req.body ?? {}, ctx.signal), headers };
    },
  };
}

export const apiRoutes: HttpRoute[] = [
  route("/api/verify", async (body, signal) => verifyDiagram(parseInput(verifyInput, body).code, signal)),
  route("/api/render", async (body, signal) => {
    const { code, theme, labels } = parseInput(renderInput, body);
    return { svg: (await renderDiagram(code, theme ?? "default", { labels, signal })).svg };
  }),
  route("/api/svg", async (body, signal) => {
    const { code, theme, labels } = parseInput(svgInput, body);
    return { svg: (await renderDiagram(code, theme ?? "default", { labels, signal })).svg, filename: exportFilename() };
  }),
];
