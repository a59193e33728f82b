// The types of a domain's HTTP routes beside MCP (device and plugin routes, uploads, pages, APIs):
// part of the handler contract, so a domain's definition (mcp/define.ts) can list its routes
// without reaching up to http/. the pipeline (http/endpoint.ts) authenticates under each route's policy.
import type { AccessPolicy } from "../auth/policy.js";
import type { RequestContext } from "./scope.js";

/** Extra HTTP endpoints a domain serves beside MCP (mermaid's /api/*, device routes, sign-in pages). */
export interface HttpRoute {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Relative to the function's root, e.g. "/agent/upload". */
  path: string;
  /** One line for the README's tables (default "JSON API beside MCP"). */
  description?: string;
  /** Who may call it (the domain's MCP policy is not inherited: every route says its own). */
  access: AccessPolicy;
  /** What the body is: JSON (default), raw bytes (uploads), an HTML form post, or nothing. */
  body?: { type: "json" | "binary" | "form" | "none"; maxBytes?: number };
  handle(req: HttpRequest, ctx: RequestContext): Promise<HttpReply>;
}

export interface HttpRequest {
  /** Parsed JSON, or the fields of a form post. */
  body: unknown;
  /** The bytes as received (binary routes). */
  rawBody: Buffer;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  clientIp: string;
  /** This function's public URL (no trailing slash), e.g. for links and redirects. */
  baseUrl: string;
}

export interface HttpReply {
  status: number;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as text/html instead of `body` (pages). */
  html?: string;
  headers?: Record<string, string | string[]>;
}
