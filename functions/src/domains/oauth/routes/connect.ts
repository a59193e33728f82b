// GET /connect: how to add each MCP function of this deployment to an AI app (connect.ts). Public:
// it shows only this deployment's URLs, and clients sign in themselves when they connect.
import { connectSection } from "../connect.js";
import { page } from "../pages.js";
import { route } from "./route.js";

export const connectRoutes = [
  route(
    "GET",
    "/connect",
    async (req) =>
      page(
        "Connect an AI app",
        `<h1>Connect an AI app</h1><p class="muted">Each server asks you to sign in the first time an app uses it. Manage what is connected on <a href="apps">Connected apps</a>.</p>${connectSection(req.headers)}`,
        { wide: true },
      ),
    { body: "none" },
  ),
];
