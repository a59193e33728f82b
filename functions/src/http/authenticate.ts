// The pipeline's credential step, and the document that tells clients where to get a credential
// (RFC 9728 protected-resource metadata). The bearer token is verified once, with the SDK's
// `verifyBearerToken` around our verifier (auth/verify.ts: the token decoded once, its audience
// checked once); the caller it yields goes into the request's scope, nowhere else. Failures carry
// the SDK's challenge.
import type { Request, Response } from "express";
import { bearerAuthChallengeResponse, OAuthError, OAuthErrorCode, verifyBearerToken } from "@modelcontextprotocol/server";
import type { Caller } from "../auth/caller.js";
import { protectedResourceMetadata } from "../auth/metadata.js";
import { isOpen, type AccessPolicy } from "../auth/policy.js";
import { issuerUrl } from "../auth/urls.js";
import { CallerVerifier } from "../auth/verify.js";
import { WELL_KNOWN } from "../contracts/oauth.js";
import { INTERNAL_ERROR_TEXT } from "../core/errors.js";
import type { RequestScope } from "../handler/scope.js";
import { DEPENDENCY_RETRY_AFTER_SECONDS } from "../platform/deadline.js";
import { JSONRPC, sendJson, sendJsonRpcError } from "./jsonrpc.js";
import { hostAllowed } from "./origin.js";
import type { Target } from "./target.js";

const PRM_PATH = WELL_KNOWN.protectedResource;

/**
 * RFC 9728 metadata of a protected MCP endpoint, at the path clients derive from the function's
 * URL and the root form: a public document, readable from any origin (browser-based MCP clients
 * discover with it). Returns whether it answered.
 */
export function answerResourceMetadata(req: Request, res: Response, { mcp }: Target, path: string, self: string): boolean {
  if (!mcp || isOpen(mcp.access) || req.method !== "GET" || !(path === PRM_PATH || path.startsWith(`${PRM_PATH}/`)) || !hostAllowed(req)) return false;
  const document = protectedResourceMetadata(self, issuerUrl(req.headers), mcp.title, Object.keys(mcp.scopes ?? {}));
  sendJson(res, 200, document, { "access-control-allow-origin": "*", "cache-control": "public, max-age=300" });
  return true;
}

/**
 * Everything that reaches a handler is authenticated under its policy: MCP POSTs and every route.
 * (GET and DELETE on the MCP endpoint are answered 405 by the SDK and touch no data.)
 */
export function needsCredential(req: Pick<Request, "method">, { route, policy }: Target, path: string): boolean {
  return !isOpen(policy) && (!!route || (path === "/" && req.method === "POST"));
}

/** Verifies the credential and puts its caller in the scope; answers the refusal and returns false otherwise. */
export async function authenticate(req: Request, res: Response, policy: AccessPolicy, self: string, scope: RequestScope, path: string): Promise<boolean> {
  const outcome = await verify(req, policy, self);
  if (outcome.ok) {
    scope.caller = outcome.caller;
    return true;
  }
  scope.log.info("refused credential", { path, status: outcome.status, reason: outcome.message });
  sendJsonRpcError(res, outcome.status, JSONRPC.UNAUTHORIZED, outcome.message, outcome.headers);
  return false;
}

async function verify(
  req: Request,
  policy: AccessPolicy,
  self: string,
): Promise<{ ok: true; caller: Caller } | { ok: false; status: number; message: string; headers: Record<string, string> }> {
  const resourceMetadataUrl = `${self}${PRM_PATH}`;
  try {
    // The audience is the verifier's to check (once, with the signature); no expectedResource here.
    const verifier = new CallerVerifier(policy, issuerUrl(req.headers), self);
    await verifyBearerToken(req.get("authorization"), { verifier, requiredScopes: policy.scopes ?? [], resourceMetadataUrl });
    if (!verifier.caller) throw new Error("a verified token left no caller");
    return { ok: true, caller: verifier.caller };
  } catch (err) {
    if (err instanceof OAuthError && err.code === OAuthErrorCode.TemporarilyUnavailable) {
      return { ok: false, status: 503, message: `Error: ${err.message} (503)`, headers: { "retry-after": String(DEPENDENCY_RETRY_AFTER_SECONDS) } };
    }
    // The SDK builds the status and WWW-Authenticate header; the body stays a JSON-RPC error with
    // our one-sentence text, which MCP clients show to the user (the SDK's body is OAuth JSON).
    const challenge = bearerAuthChallengeResponse(err, { requiredScopes: policy.scopes ?? [], resourceMetadataUrl });
    const headers: Record<string, string> = {};
    const www = challenge.headers.get("www-authenticate");
    // RFC 6750 §3.1: a request without credentials gets a challenge without an error code.
    if (www) headers["www-authenticate"] = req.get("authorization") ? www : www.replace(/error="[^"]*", error_description="[^"]*", /, "");
    return { ok: false, status: challenge.status, message: challengeText(err, policy, challenge.status), headers };
  }
}

function challengeText(err: unknown, policy: AccessPolicy, status: number): string {
  if (status === 403) return `Error: This token lacks the scope ${policy.scopes?.join(", ")}: reconnect and approve access (403)`;
  const reason = err instanceof Error ? err.message : "";
  if (/Missing Authorization header|Invalid Authorization header/.test(reason)) {
    return "Error: Sign-in required: connect with OAuth (this server advertises its authorization server) or send Authorization: Bearer <Firebase ID token> (401)";
  }
  if (status >= 500) return `${INTERNAL_ERROR_TEXT}.`;
  return `Error: ${reason.replace(/\.$/, "")} (401)`;
}
