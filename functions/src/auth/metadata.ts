// Discovery documents: RFC 8414 authorization-server metadata (served by the oauth function at
// /.well-known/oauth-authorization-server and /.well-known/openid-configuration) and RFC 9728
// protected-resource metadata (served by every protected function), built with the SDK's helper.
import { buildOAuthProtectedResourceMetadata, type OAuthMetadata, type OAuthProtectedResourceMetadata } from "@modelcontextprotocol/server";
import { isEmulator } from "./urls.js";
import { DEVICE_CODE_GRANT, OAUTH_PATHS } from "../contracts/oauth.js";

export function authorizationServerMetadata(issuer: string, scopes: string[]): OAuthMetadata & Record<string, unknown> {
  return {
    issuer,
    authorization_endpoint: issuer + OAUTH_PATHS.authorize,
    token_endpoint: issuer + OAUTH_PATHS.token,
    registration_endpoint: issuer + OAUTH_PATHS.register,
    revocation_endpoint: issuer + OAUTH_PATHS.revoke,
    jwks_uri: issuer + OAUTH_PATHS.jwks,
    device_authorization_endpoint: issuer + OAUTH_PATHS.deviceAuthorization,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token", DEVICE_CODE_GRANT],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    revocation_endpoint_auth_methods_supported: ["none"],
    scopes_supported: scopes,
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    // OpenID discovery consumers look for these; we issue no ID tokens, only access tokens.
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["ES256"],
  };
}

export function protectedResourceMetadata(resource: string, issuer: string, name: string, scopes: string[]): OAuthProtectedResourceMetadata {
  return buildOAuthProtectedResourceMetadata({
    oauthMetadata: authorizationServerMetadata(issuer, scopes),
    resourceServerUrl: new URL(resource),
    resourceName: name,
    scopesSupported: scopes,
    dangerouslyAllowInsecureIssuerUrl: isEmulator(),
  });
}
