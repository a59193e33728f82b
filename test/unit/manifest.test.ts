// A function's manifest is the one place its access is stated: the policy of its MCP endpoint is
// derived from it, and a domain that states its own access or scopes again is refused at load.
import { describe, expect, test } from "vitest";
import { manifestPolicy } from "../../functions/src/auth/policy.js";
import { FUNCTIONS, MCP_FUNCTIONS, SIGNED_IN_FUNCTIONS } from "../../functions/src/core/manifest.js";
import { defineDomain, OPEN } from "../../functions/src/mcp/define.js";

const bare = { title: "T", description: "D", instructions: "I", tools: [] };

describe("the manifests", () => {
  test("a function with scopes is signed in with exactly those scopes; its device clients' tokens are accepted too", () => {
    expect(manifestPolicy(FUNCTIONS.dermal)).toEqual({ accept: ["id-token", "oauth"], scopes: ["dermal"] });
    expect(manifestPolicy(FUNCTIONS.fotos)).toEqual({ accept: ["id-token", "oauth", "device"], devices: ["fotos-mcp"], scopes: ["fotos"] });
    expect(manifestPolicy(FUNCTIONS.mermaid)).toEqual(OPEN);
  });

  test("the lists tests walk: every MCP function, the signed-in ones among them, never the route-only oauth", () => {
    expect([...MCP_FUNCTIONS].sort()).toEqual(["dermal", "figma", "fotos", "knowledge", "mermaid"]);
    expect([...SIGNED_IN_FUNCTIONS].sort()).toEqual(["dermal", "figma", "fotos", "knowledge"]);
  });

  test("defineDomain takes a function's access and scopes from its manifest, and refuses them stated again", () => {
    const dermal = defineDomain({ name: "dermal", ...bare });
    expect(dermal.access).toEqual(manifestPolicy(FUNCTIONS.dermal));
    expect(dermal.scopes).toEqual(FUNCTIONS.dermal.scopes);
    expect(() => defineDomain({ name: "dermal", ...bare, access: OPEN })).toThrow("domain dermal: its access and scopes are in its manifest (core/manifest.ts), not here");
    expect(() => defineDomain({ name: "own", ...bare })).toThrow("domain own has no manifest (core/manifest.ts) and states no access policy");
    expect(defineDomain({ name: "own", ...bare, access: OPEN }).access).toEqual(OPEN);
  });
});
