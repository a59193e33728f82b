// POST /revoke (RFC 7009): an app disconnects itself. Revoking a refresh token or an access token
// revokes the grant behind it, so every token of that grant stops working at once.
import { revokeGrant } from "../grants.js";
import { issuerOf, verifyAccessJwt } from "../../../auth/tokens.js";
import { issuerUrl } from "../../../auth/urls.js";
import { col, sha256 } from "../store.js";
import { fields, noStore, oauthError, route } from "./route.js";
import { OAUTH_PATHS } from "../../../contracts/oauth.js";

export const revokeRoute = route(
  "POST",
  OAUTH_PATHS.revoke,
  async (req) => {
    const f = fields(req.body);
    if (!f.token) return oauthError(400, "invalid_request", "token is required");
    const issuer = issuerUrl(req.headers);
    let grant: { kind: "client" | "device"; id: string; clientId: string } | undefined;
    if (issuerOf(f.token) === issuer) {
      const claims = await verifyAccessJwt(f.token, issuer).catch(() => undefined);
      if (claims) grant = { kind: claims.grantKind, id: claims.grantId, clientId: claims.clientId };
    } else {
      const doc = await col("refreshTokens").doc(sha256(f.token)).get();
      if (doc.exists) grant = { kind: doc.get("grantKind"), id: doc.get("grantId"), clientId: doc.get("clientId") };
    }
    // Only the client a token was issued to may revoke it (RFC 7009 §2.1); unknown or foreign
    // tokens are answered the same way, so the answer reveals nothing (§2.2).
    if (grant && grant.clientId === f.client_id) await revokeGrant(grant.kind, grant.id).catch(() => undefined);
    return { status: 200, body: {}, headers: noStore };
  },
  { allowNullOrigin: true },
);
