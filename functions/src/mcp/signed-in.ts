// The definition helpers of mcp/define.ts for domains behind a signed-in policy: the same names and
// shapes, but each handler's context has a caller (SignedInContext). The endpoint authenticates
// before any handler runs, and defineDomain refuses these definitions in an open domain, so no
// handler needs to check for a caller itself.
import type { z } from "zod";
import { withCaller, type RequestContext, type SignedInContext } from "../handler/scope.js";
import * as open from "./define.js";

export function tool<I extends z.ZodObject, O extends z.ZodType | undefined = undefined>(
  config: Omit<open.ToolDefinition<I, O>, "handler" | "signedIn">,
  handler: (input: z.output<I>, ctx: SignedInContext) => ReturnType<open.ToolDefinition<I, O>["handler"]>,
): open.ToolDefinition<I, O> {
  return { ...open.tool(config, (input, ctx) => handler(input, withCaller(ctx))), signedIn: true };
}

export function staticResource(
  config: Omit<open.StaticResourceDefinition, "kind" | "read" | "signedIn">,
  read: (uri: URL, ctx: SignedInContext) => ReturnType<open.StaticResourceDefinition["read"]>,
): open.StaticResourceDefinition {
  return { ...open.staticResource(config, (uri, ctx) => read(uri, withCaller(ctx))), signedIn: true };
}

export function resourceTemplate(
  config: Omit<open.ResourceTemplateDefinition, "kind" | "read" | "signedIn" | "list" | "complete"> & {
    list?(ctx: SignedInContext, cursor: string | undefined): Promise<open.ResourceListPage>;
    complete?: Record<string, (prefix: string, ctx: SignedInContext) => Promise<string[]>>;
  },
  read: (uri: URL, variables: Record<string, string>, ctx: SignedInContext) => ReturnType<open.ResourceTemplateDefinition["read"]>,
): open.ResourceTemplateDefinition {
  const { list, complete, ...rest } = config;
  return {
    ...open.resourceTemplate(
      {
        ...rest,
        ...(list ? { list: (ctx: RequestContext, cursor: string | undefined) => list(withCaller(ctx), cursor) } : {}),
        ...(complete ? { complete: Object.fromEntries(Object.entries(complete).map(([k, fn]) => [k, (prefix: string, ctx: RequestContext) => fn(prefix, withCaller(ctx))])) } : {}),
      },
      (uri, variables, ctx) => read(uri, variables, withCaller(ctx)),
    ),
    signedIn: true,
  };
}

export function prompt<A extends z.ZodObject>(
  config: Omit<open.PromptDefinition<A>, "handler" | "signedIn" | "complete"> & { complete?: Record<string, (prefix: string, ctx: SignedInContext) => Promise<string[]>> },
  handler: (args: z.output<A>, ctx: SignedInContext) => ReturnType<open.PromptDefinition<A>["handler"]>,
): open.PromptDefinition<A> {
  const { complete, ...rest } = config;
  return {
    ...open.prompt(
      { ...rest, ...(complete ? { complete: Object.fromEntries(Object.entries(complete).map(([k, fn]) => [k, (prefix: string, ctx: RequestContext) => fn(prefix, withCaller(ctx))])) } : {}) },
      (args, ctx) => handler(args, withCaller(ctx)),
    ),
    signedIn: true,
  };
}
