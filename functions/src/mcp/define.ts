// The definition helpers every domain uses: tool(), staticResource(), resourceTemplate(), prompt(),
// and defineDomain(). A definition is plain data plus a handler; mcp/server.ts registers them with
// the SDK for each request, so a domain file never touches the SDK's server object.
import type { z } from "zod";
import type { CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult, ToolAnnotations } from "@modelcontextprotocol/server";
import type { Caller } from "../auth/caller.js";
import type { AccessPolicy } from "../auth/policy.js";
import type { Logger } from "./log.js";

export { device, OPEN, SIGNED_IN, type AccessPolicy } from "../auth/policy.js";

/** What every handler receives besides its input. */
export interface RequestContext {
  /** The authenticated caller; always set where the policy requires a credential. */
  caller: Caller | undefined;
  requestId: string;
  /** The query string of the request URL (for MCP: the URL the client was configured with). */
  query: Record<string, string>;
  /** The client's address as rate limits count it (X-Forwarded-For per TRUSTED_PROXY_HOPS), when known. */
  clientIp?: string;
  log: Logger;
  /** Aborted when the client cancels or disconnects. */
  signal: AbortSignal;
  /** Reports progress to clients that asked for it (no-op otherwise). */
  progress(done: number, total?: number, message?: string): Promise<void>;
}

/** A handler's structured answer: `data` becomes structuredContent and (as JSON) the text. */
export interface StructuredResult<T> {
  data: T;
  /** Text for the model instead of the JSON of `data`. */
  text?: string;
  /** More blocks after the text (images, resource links). */
  content?: ContentBlock[];
}

/**
 * With an outputSchema a handler answers `StructuredResult`s, or a ready error result (isError, for
 * errors that carry structuredContent of their own, e.g. a list to choose from): clients check
 * only successful results against the outputSchema.
 */
export type ErrorResult = CallToolResult & { isError: true };
type Out<O> = O extends z.ZodType ? StructuredResult<z.input<O>> | ErrorResult : CallToolResult | string;

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodType | undefined = z.ZodType | undefined> {
  name: string;
  title: string;
  description: string;
  inputSchema: I;
  outputSchema?: O;
  annotations: Omit<ToolAnnotations, "title"> & {
    readOnlyHint: boolean;
    openWorldHint: boolean;
  };
  handler(input: z.output<I>, ctx: RequestContext): Promise<Out<O>>;
}

export function tool<I extends z.ZodObject, O extends z.ZodType | undefined = undefined>(
  config: Omit<ToolDefinition<I, O>, "handler">,
  handler: ToolDefinition<I, O>["handler"],
): ToolDefinition<I, O> {
  return { ...config, handler };
}

export interface StaticResourceDefinition {
  kind: "static";
  name: string;
  uri: string;
  title: string;
  description: string;
  mimeType: string;
  read(uri: URL, ctx: RequestContext): Promise<ReadResourceResult>;
}

export interface ResourceListPage {
  resources: { uri: string; name: string; title?: string; description?: string; mimeType?: string }[];
  nextCursor?: string;
}

export interface ResourceTemplateDefinition {
  kind: "template";
  name: string;
  uriTemplate: string;
  title: string;
  description: string;
  mimeType: string;
  /** Concrete resources for resources/list (one page). */
  list?(ctx: RequestContext, cursor: string | undefined): Promise<ResourceListPage>;
  /** Completion of template variables, e.g. `{ author: (prefix) => [...] }`. */
  complete?: Record<string, (prefix: string, ctx: RequestContext) => Promise<string[]>>;
  read(uri: URL, variables: Record<string, string>, ctx: RequestContext): Promise<ReadResourceResult>;
}

export type ResourceDefinition = StaticResourceDefinition | ResourceTemplateDefinition;

export function staticResource(config: Omit<StaticResourceDefinition, "kind" | "read">, read: StaticResourceDefinition["read"]): StaticResourceDefinition {
  return { kind: "static", ...config, read };
}

export function resourceTemplate(
  config: Omit<ResourceTemplateDefinition, "kind" | "read">,
  read: ResourceTemplateDefinition["read"],
): ResourceTemplateDefinition {
  return { kind: "template", ...config, read };
}

export interface PromptDefinition<A extends z.ZodObject = z.ZodObject> {
  name: string;
  title: string;
  description: string;
  argsSchema: A;
  /** Completion of string arguments, e.g. `{ author: (prefix, ctx) => [...] }`. */
  complete?: Record<string, (prefix: string, ctx: RequestContext) => Promise<string[]>>;
  handler(args: z.output<A>, ctx: RequestContext): Promise<GetPromptResult | string>;
}

export function prompt<A extends z.ZodObject>(config: Omit<PromptDefinition<A>, "handler">, handler: PromptDefinition<A>["handler"]): PromptDefinition<A> {
  return { ...config, handler };
}

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
  headers?: Record<string, string>;
}

export interface DomainDefinition {
  /** Function name and MCP server name suffix, e.g. "mermaid". */
  name: string;
  /** The server name announced to clients when a seed fixes it (default `<name>-mcp`). */
  serverName?: string;
  /** The version announced (default: the functions package's). */
  version?: string;
  title: string;
  description: string;
  /** Told to the agent at connection: how to use this domain's tools well. */
  instructions: string;
  /** false for a function that serves only its routes (the OAuth authorization server). */
  mcp?: false;
  /** Who may use the MCP endpoint at the function's root (OPEN, SIGNED_IN, …). */
  access: AccessPolicy;
  /** OAuth scopes of this domain, shown on the consent page ("what it will be able to do"). */
  scopes?: Record<string, string>;
  // The definitions are heterogeneous in their schemas; each was type-checked where it was made.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  tools: ToolDefinition<any, any>[];
  resources?: ResourceDefinition[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  prompts?: PromptDefinition<any>[];
  routes?: HttpRoute[];
  /** Largest request body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Work done once per instance before the first request (e.g. loading a renderer). */
  warmup?(): Promise<void>;
  /** Whether this instance can serve right now; `/healthz` answers 503 with the reason when not. */
  health?(): { ok: true } | { ok: false; reason: string };
}

export const defineDomain = (domain: DomainDefinition): DomainDefinition => domain;
