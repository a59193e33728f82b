// The OAuth 2.1 authorization server of the suite (its own function, `oauth`; it serves no MCP).
// Claude's connectors and other MCP clients sign people in here and get access tokens for one
// protected function each; the desktop agent and the Figma plugin pair here with a device code.
// Why a small server on `jose` rather than `oidc-provider`: see docs/oauth.md.
import { defineService } from "../../http/service.js";
import { appsRoutes } from "./routes/apps.js";
import { authorizeRoutes } from "./routes/authorize.js";
import { connectRoutes } from "./routes/connect.js";
import { deviceRoutes } from "./routes/device.js";
import { homeImportRoutes } from "./routes/home-import.js";
import { homeRoutes } from "./routes/home.js";
import { metadataRoutes } from "./routes/metadata.js";
import { registerRoute } from "./routes/register.js";
import { revokeRoute } from "./routes/revoke.js";
import { redirect, route } from "./routes/route.js";
import { signInRoutes } from "./routes/signin.js";
import { tokenRoute } from "./routes/token.js";

export default defineService({
  name: "oauth",
  title: "Sign-in",
  description: "OAuth 2.1 authorization server for the suite's MCP servers: sign-in, consent, device pairing, connected apps.",
  routes: [
    ...metadataRoutes,
    ...authorizeRoutes,
    tokenRoute,
    registerRoute,
    revokeRoute,
    ...deviceRoutes,
    ...signInRoutes,
    ...appsRoutes,
    ...connectRoutes,
    ...homeRoutes,
    ...homeImportRoutes,
    route("GET", "/", async (req) => redirect(`${req.baseUrl}/apps`), { body: "none" }),
  ],
});
