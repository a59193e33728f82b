// POST /register: dynamic client registration (RFC 7591) for clients without a metadata document.
// Public clients only (token_endpoint_auth_method "none"); at most 20 registrations per hour per address.
import { FieldValue } from "firebase-admin/firestore";
import { limited } from "../limits.js";
import { UNUSED_CLIENT_DAYS, validRedirect } from "../clients.js";
import { col, expiresIn, secret } from "../store.js";
import { noStore, oauthError, route } from "./route.js";
import { OAUTH_PATHS } from "../../../contracts/oauth.js";

export const registerRoute = route(
  "POST",
  OAUTH_PATHS.register,
  async (req) => {
    const meta = (req.body ?? {}) as Record<string, unknown>;
    const wait = await limited(req, { bucket: "register", limit: 20, windowSeconds: 3600 });
    if (wait) return oauthError(429, "temporarily_unavailable", `Too many registrations; try again in ${wait} seconds`);
    const uris = meta.redirect_uris;
    if (!Array.isArray(uris) || !uris.length || uris.length > 10 || !uris.every((u) => typeof u === "string" && validRedirect(u))) {
      return oauthError(400, "invalid_redirect_uri", "redirect_uris must list 1-10 https URLs, loopback http URLs or app schemes, without fragments");
    }
    const grantTypes = Array.isArray(meta.grant_types) ? meta.grant_types : ["authorization_code", "refresh_token"];
    if (!grantTypes.every((g) => g === "authorization_code" || g === "refresh_token")) {
      return oauthError(400, "invalid_client_metadata", "grant_types may only be authorization_code and refresh_token");
    }
    const name = typeof meta.client_name === "string" ? meta.client_name.trim().slice(0, 80) : "";
    const clientId = secret("mcpclient", 16);
    const record = {
      client_id: clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      client_name: name || "Unnamed app",
      redirect_uris: uris as string[],
      grant_types: grantTypes,
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
    // Until its first token, a registration expires (TTL on expiresAt): registering costs nothing,
    // so never-used clients would pile up for ever.
    await col("clients").doc(clientId).create({ ...record, createdAt: FieldValue.serverTimestamp(), expiresAt: expiresIn(UNUSED_CLIENT_DAYS * 24 * 3600) });
    return { status: 201, body: record, headers: noStore };
  },
  { body: "json" },
);
