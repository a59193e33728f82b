// Discovery as MCP clients do it: the 401 challenge names the protected-resource metadata, which
// names the authorization server, whose metadata says what it supports.
import { expect, test } from "vitest";
import { functionUrl } from "../support/emulators.js";
import { assertNotEmulatedInProduction } from "../../functions/src/platform/firebase.js";

test("protected-resource metadata (RFC 9728) names this function and the authorization server", async () => {
  const res = await fetch(functionUrl("knowledge", "/.well-known/oauth-protected-resource"));
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ resource: functionUrl("knowledge"), authorization_servers: [functionUrl("oauth")], scopes_supported: ["knowledge", "knowledge.write"] });
  // The path-suffixed form some clients derive also answers.
  expect((await fetch(functionUrl("knowledge", "/.well-known/oauth-protected-resource/x"))).status).toBe(200);
  // An open domain has none.
  expect((await fetch(functionUrl("mermaid", "/.well-known/oauth-protected-resource"))).status).toBe(404);
});

test("authorization-server metadata (RFC 8414) at its own path and the OpenID discovery path", async () => {
  for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
    const res = await fetch(functionUrl("oauth", path));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      issuer: functionUrl("oauth"),
      authorization_endpoint: functionUrl("oauth", "/authorize"),
      token_endpoint: functionUrl("oauth", "/token"),
      registration_endpoint: functionUrl("oauth", "/register"),
      device_authorization_endpoint: functionUrl("oauth", "/device_authorization"),
      code_challenge_methods_supported: ["S256"],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
    });
  }
  const jwks = (await (await fetch(functionUrl("oauth", "/jwks"))).json()) as { keys: Record<string, string>[] };
  expect(jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256" });
  expect(jwks.keys[0]!.d).toBeUndefined(); // never the private part
});

test("a deployed function refuses to start with an emulator variable set", () => {
  expect(() => assertNotEmulatedInProduction({ K_SERVICE: "dermal", FIREBASE_AUTH_EMULATOR_HOST: "10.0.0.1:9099" })).toThrow(/Refusing to start: FIREBASE_AUTH_EMULATOR_HOST/);
  expect(() => assertNotEmulatedInProduction({ K_SERVICE: "dermal" })).not.toThrow();
  expect(() => assertNotEmulatedInProduction({ FUNCTIONS_EMULATOR: "true", K_SERVICE: "dermal", FIRESTORE_EMULATOR_HOST: "x" })).not.toThrow();
});
