// The definition helpers every domain uses: tool(), staticResource(), resourceTemplate(), prompt(),
// and defineDomain(). A definition is plain data plus a handler; mcp/server.ts registers them with
// the SDK for each request, so a domain file never touches the SDK's server object.
import type { z } from "zod";
import type { CallToolResult, ContentBlock, GetPromptResult, ReadResourceResult, ToolAnnotations } from "@modelcontextprotocol/server";
import { isOpen, manifestPolicy, type AccessPolicy } from "../auth/policy.js";
import { manifestOf } from "../core/manifest.js";
import type { HttpRoute } from "../handler/route.js";
import type { RequestContext } from "../handler/scope.js";

export { device, OPEN, SIGNED_IN, type AccessPolicy } from "../auth/policy.js";
export type { RequestContext, SignedInContext } from "../handler/scope.js";

/** A tool's view in the conversation (mcp/view.ts): the ui:// resource, and who may call the tool. */
export interface ToolView {
  resourceUri: string;
  /** ["app"]: a tool only views call (more data for a view), never listed to the model. Default both. */
  visibility?: ("model" | "app")[];
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
  /** Its view in the conversation, for hosts that show views (mcp/view.ts). */
  ui?: ToolView;
  /** Made by mcp/signed-in.ts: its handler needs a caller, so only a signed-in domain may list it. */
  signedIn?: true;
}

export function tool<I extends z.ZodObject, O extends z.ZodType | undefined = undefined>(
  config: Omit<ToolDefinition<I, O>, "handler">,
  handler: ToolDefinition<I, O>["handler"],
): ToolDefinition<I, O> {
  return { ...config, handler };
}

export interface StaticResourceDefinition {
  kind: "static";
  signedIn?: true;
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
  signedIn?: true;
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
  signedIn?: true;
}

export function prompt<A extends z.ZodObject>(config: Omit<PromptDefinition<A>, "handler">, handler: PromptDefinition<A>["handler"]): PromptDefinition<A> {
  return { ...config, handler };
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
  /**
   * What the domain's handlers run against, given by whoever serves it (fotos: the cloud backend in
   * the function, a local one in `fotos-agent mcp`); handlers read it from `ctx.backend` through
   * the domain's own accessor. Passed in, never set by importing a module.
   */
  backend?: unknown;
  /** Largest request body accepted, in bytes (default 1 MiB). */
  maxBodyBytes?: number;
  /** Work done once per instance before the first request (e.g. loading a renderer). */
  warmup?(): Promise<void>;
  /** Whether this instance can serve right now; `/healthz` answers 503 with the reason when not. */
  health?(): { ok: true } | { ok: false; reason: string };
}

/** What a domain states: a function's domain leaves its access and scopes to its manifest. */
export type DomainInput = Omit<DomainDefinition, "access" | "scopes"> & Partial<Pick<DomainDefinition, "access" | "scopes">>;

/**
 * A domain's definition, checked once when its module loads. A function's domain (one with a
 * manifest in core/manifest.ts) gets its access policy and scopes from there and states neither;
 * a domain of its own (a test's) states its access. An open domain lists no definition made for
 * signed-in callers (its handler would run without the caller it relies on).
 */
export function defineDomain(input: DomainInput): DomainDefinition {
  const manifest = manifestOf(input.name);
  if (manifest && (input.access || input.scopes)) throw new Error(`domain ${input.name}: its access and scopes are in its manifest (core/manifest.ts), not here`);
  const access = manifest ? manifestPolicy(manifest) : input.access;
  if (!access) throw new Error(`domain ${input.name} has no manifest (core/manifest.ts) and states no access policy`);
  const domain: DomainDefinition = { ...input, access, ...(manifest?.scopes ? { scopes: manifest.scopes } : {}) };
  if (isOpen(domain.access)) {
    const needCaller = [...domain.tools, ...(domain.resources ?? []), ...(domain.prompts ?? [])].filter((d) => d.signedIn).map((d) => d.name);
    if (needCaller.length) throw new Error(`domain ${domain.name} is open, but ${needCaller.join(", ")} need a signed-in caller (made with mcp/signed-in.ts)`);
  }
  return domain;
}
