// The definition helpers' own rules, in-process: a handler written for signed-in callers never
// lands in an open domain, and a device route's body is checked by parseInput (the same
// sentences as tool arguments, lone surrogates included) before its handler runs.
import { describe, expect, test } from "vitest";
import { z } from "zod";
import { device, OPEN } from "../../functions/src/auth/policy.js";
import { asToolError } from "../../functions/src/core/errors.js";
import { route, type HttpRequest } from "../../functions/src/http/route.js";
import type { RequestContext } from "../../functions/src/http/scope.js";
import { defineDomain } from "../../functions/src/mcp/define.js";
import { tool } from "../../functions/src/mcp/signed-in.js";
import { createLogger } from "../../functions/src/core/log.js";
import { idTokenCaller } from "../support/in-process.js";

const whoAmI = tool(
  { name: "who_am_i", title: "Who am I", description: "The caller's uid.", inputSchema: z.object({}), annotations: { readOnlyHint: true, openWorldHint: false } },
  async (_input, ctx) => ctx.caller.uid,
);

const context = (caller = idTokenCaller("u1")): RequestContext => ({
  requestId: "r1",
  log: createLogger({ test: "definitions" }),
  clientIp: "127.0.0.1",
  signal: new AbortController().signal,
  query: {},
  caller,
  progress: async () => undefined,
});
const request = (body: unknown): HttpRequest => ({ body, rawBody: Buffer.alloc(0), query: {}, headers: {}, clientIp: "127.0.0.1", baseUrl: "http://x" });

describe("signed-in definitions", () => {
  test("an open domain listing a tool made for signed-in callers fails when it is defined, naming the tool", () => {
    expect(() => defineDomain({ name: "leaky", title: "Leaky", description: "", instructions: "", access: OPEN, tools: [whoAmI] })).toThrow(
      "domain leaky is open, but who_am_i need a signed-in caller (made with mcp/signed-in.ts)",
    );
  });

  test("the handler sees the caller the endpoint verified", async () => {
    expect(await whoAmI.handler({}, context(idTokenCaller("alice")))).toBe("alice");
  });
});

describe("route()", () => {
  const echo = route({
    method: "POST",
    path: "/echo",
    access: device("desktop-agent"),
    input: z.object({ note: z.string().max(10) }),
    handle: async (req, ctx) => ({ status: 200, body: { note: req.input.note, uid: ctx.caller.uid } }),
  });

  test("validates the body with parseInput before the handler runs", async () => {
    expect(await echo.handle(request({ note: "hi" }), context())).toEqual({ status: 200, body: { note: "hi", uid: "u1" } });
    const tooLong = await echo.handle(request({ note: "x".repeat(11) }), context()).catch(asToolError);
    expect(tooLong).toMatchObject({ status: 400 });
    expect((tooLong as Error).message).toMatch(/^Invalid input: note /);
    const surrogate = await echo.handle(request({ note: "\ud800" }), context()).catch(asToolError);
    expect((surrogate as Error).message).toBe("Invalid input: note contains a lone UTF-16 surrogate (half of an emoji or other character); send well-formed Unicode text");
  });

  test("refuses an open policy: route() is for routes that require a credential", () => {
    expect(() => route({ method: "GET", path: "/open", access: OPEN, handle: async () => ({ status: 200 }) })).toThrow(/policy is open/);
  });
});
