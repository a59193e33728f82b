// Fotos: screenshots an agent can take on the user's own computer (through the paired desktop
// agent), list and read; the vision half (OCR, annotation, analysis, PII redaction) builds on the
// same store. The members are in definition.ts (shared with `fotos-agent mcp`); this function runs
// them with the cloud backend. See docs/fotos.md.
import { defineDomain } from "../../mcp/define.js";
import { agentRoutes } from "./agents/routes.js";
import { cloudBackend } from "./cloud.js";
import { fotosServer, VISION_INSTRUCTIONS } from "./definition.js";
import { localCaptureRoute } from "./routes/local-capture.js";
import { uploadRoute } from "./routes/upload.js";
import { SCREENSHOT_VIEW, withScreenshotView } from "./views.js";

export default defineDomain({
  ...fotosServer,
  tools: withScreenshotView(fotosServer.tools),
  resources: [...fotosServer.resources, SCREENSHOT_VIEW],
  instructions: [
    "Screenshots of the signed-in user's own computer, taken by the Fotos desktop agent they paired with their account.",
    "take_screenshot {mode fullscreen|monitor|window, monitor_index, window_title, delay_ms} captures and returns the image (at most 1568 px a side) with its id;",
    "the full-resolution PNG is at screenshots://{id}. list_screenshots {limit} and screenshots://recent list recent screenshots, newest first.",
    "If the agent is not running, the error says how to start it; ask the user to start it rather than retrying in a loop.",
    "settings://current holds the user's capture, annotation, AI and UI settings.",
    VISION_INSTRUCTIONS,
  ].join(" "),
  backend: cloudBackend,
  routes: [...agentRoutes, uploadRoute, localCaptureRoute],
});
