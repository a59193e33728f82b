// route() for routes that require a credential (the route types are the handler contract's,
// handler/route.ts): every route states its own policy; http/endpoint.ts authenticates under it,
// builds the request's context and answers with the reply.
import type { z } from "zod";
import { isOpen } from "../auth/policy.js";
import { parseInput } from "../mcp/validation.js";
import type { HttpReply, HttpRequest, HttpRoute } from "../handler/route.js";
import { withCaller, type SignedInContext } from "../handler/scope.js";

export type { HttpReply, HttpRequest, HttpRoute } from "../handler/route.js";

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
