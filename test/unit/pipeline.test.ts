// The request pipeline's first step: a request's path, and what it is for (a route or the MCP
// endpoint, the policy it is served under, the most bytes it may carry), found once and shared by
// the body guard and the rest of the pipeline.
import { describe, expect, test } from "vitest";
import { device, OPEN, SIGNED_IN } from "../../functions/src/auth/policy.js";
import { requestPath } from "../../functions/src/http/body-guard.js";
import { defineService } from "../../functions/src/http/service.js";
import { DEFAULT_MAX_BODY, targetOf, type Loaded } from "../../functions/src/http/target.js";
import { defineDomain, type DomainDefinition } from "../../functions/src/mcp/define.js";
import type { HttpRoute } from "../../functions/src/handler/route.js";

const MB = 1024 * 1024;
const reply = async () => ({ status: 204 });
const upload: HttpRoute = { method: "POST", path: "/uploads", access: device("desktop-agent"), body: { type: "binary", maxBytes: 25 * MB }, handle: reply };
const page: HttpRoute = { method: "GET", path: "/page", access: OPEN, handle: reply };
const domain: DomainDefinition = defineDomain({
  name: "pipeline-test",
  title: "T",
  description: "D",
  instructions: "I",
  access: SIGNED_IN,
  tools: [],
  routes: [upload, page],
  maxBodyBytes: 2 * MB,
});
const loaded: Loaded = { served: domain, mcp: domain };

describe("a request's path", () => {
  test("is relative to the function, without its query or trailing slashes", () => {
    expect(requestPath({ url: "/uploads/?id=1" })).toBe("/uploads");
    expect(requestPath({ url: "/?x=/y" })).toBe("/");
    expect(requestPath({ url: "" })).toBe("/");
    expect(requestPath({ url: "http://127.0.0.1:5001/uploads" })).toBe("/uploads");
  });
});

describe("what a request is for", () => {
  test("a route: its own policy and body limit", () => {
    const target = targetOf(loaded, "POST", "/uploads");
    expect(target.route).toBe(upload);
    expect(target.policy).toBe(upload.access);
    expect(target.maxBytes).toBe(25 * MB);
  });

  test("a route's path with another method: the route (answered 405 naming its method), under its policy", () => {
    const target = targetOf(loaded, "DELETE", "/uploads");
    expect(target.route).toBe(upload);
    expect(target.routes).toEqual([upload]);
    expect(target.policy).toBe(upload.access);
  });

  test("a route without a limit of its own: the default, not the MCP endpoint's", () => {
    expect(targetOf(loaded, "GET", "/page").maxBytes).toBe(DEFAULT_MAX_BODY);
  });

  test("anything else: the MCP endpoint, under the domain's policy and limit", () => {
    const target = targetOf(loaded, "POST", "/");
    expect(target.route).toBeUndefined();
    expect(target.mcp).toBe(domain);
    expect(target.policy).toBe(SIGNED_IN);
    expect(target.maxBytes).toBe(2 * MB);
  });

  test("a function of routes only: no MCP endpoint, an unknown path open (answered 404)", () => {
    const service = defineService({ name: "routes-only", title: "T", description: "D", routes: [page] });
    const target = targetOf({ served: service, mcp: undefined }, "POST", "/");
    expect(target.mcp).toBeUndefined();
    expect(target.policy).toBe(OPEN);
    expect(target.maxBytes).toBe(DEFAULT_MAX_BODY);
  });
});
