// Discovery: RFC 8414 metadata at its own path and at the OpenID discovery path (clients derive
// `<issuer>/.well-known/openid-configuration` from an issuer with a path, which is the one form a
// Cloud Functions URL can serve), and the public keys that verify our access tokens.
import { authorizationServerMetadata } from "../../../auth/metadata.js";
import { publicJwks } from "../signing.js";
import { issuerUrl } from "../../../auth/urls.js";
import { route } from "./route.js";
import { allScopes } from "../scopes.js";
import { OAUTH_PATHS, WELL_KNOWN } from "../../../contracts/oauth.js";

const publicJson = { "access-control-allow-origin": "*", "cache-control": "public, max-age=300" };

const metadata = route(
  "GET",
  WELL_KNOWN.authorizationServer,
  async (req) => ({ status: 200, body: authorizationServerMetadata(issuerUrl(req.headers), Object.keys(allScopes())), headers: publicJson }),
  { body: "none", anyOrigin: true },
);

export const metadataRoutes = [
  metadata,
  { ...metadata, path: "/.well-known/openid-configuration" },
  route("GET", OAUTH_PATHS.jwks, async () => ({ status: 200, body: await publicJwks(), headers: publicJson }), { body: "none", anyOrigin: true }),
];
