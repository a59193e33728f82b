// The types of a domain's HTTP routes beside MCP (device and plugin routes, uploads, pages, APIs).
// Every route states its own policy; http/endpoint.ts authenticates under it, builds the request's
// context and answers with the reply.
import type { z } from "zod";
import { isOpen, type AccessPolicy } from "../auth/policy.js";
import { parseInput } from "../mcp/validation.js";
import { withCaller, type RequestContext, type SignedInContext } from "./scope.js";

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

/**
 * A route behind a policy that requires a credential (signed-in users, paired devices): its
 * handler's context has the caller, and with `input` the JSON body is validated by `parseInput`
 * (the same checks and sentences as tool arguments: a 400 naming the field) before the handler runs.
 */
export function route<S extends z.ZodType | undefined = undefined>(
  def: Omit<HttpRoute, "handle"> & {
    input?: S;
    handle(req: HttpRequest & { input: S extends z.ZodType ? z.output<S> : undefined }, ctx: SignedInContext): Promise<HttpReply>;
  },
): HttpRoute {
  const { input, handle, ...rest } = def;
  if (isOpen(rest.access)) throw new Error(`route ${rest.method} ${rest.path}: route() is for routes that require a credential; this policy is open`);
  return {
    ...rest,
    handle: async (req, ctx) => {
      const parsed = (input ? parseInput(input, req.body) : undefined) as S extends z.ZodType ? z.output<S> : undefined;
      return handle({ ...req, input: parsed }, withCaller(ctx));
    },
  };
}
