// Firebase entry point: one HTTPS function per domain, MCP at each function's root.
// Each function imports only its own domain, lazily, so a cold start never pays for the others.
import { onRequest, type HttpsOptions } from "firebase-functions/v2/https";
import { defineSecret } from "firebase-functions/params";
import { onSchedule } from "firebase-functions/v2/scheduler";
import { serveDomain } from "./http/endpoint.js";

// The private JWK that signs access tokens (see README, "Production"); only `oauth` can read it.
const oauthSigningKey = defineSecret("OAUTH_SIGNING_KEY");
// Vision LLM keys for analyze_screenshot (platform/vision-llm.ts); only `fotos` can read them.
const visionLlmKeys = [defineSecret("ANTHROPIC_API_KEY"), defineSecret("OPENAI_API_KEY")];

const common: HttpsOptions = {
  region: "us-central1",
  invoker: "public", // MCP clients call the URL directly; each domain checks the caller itself
  cors: false, // Origin is checked in http/origin.ts
  concurrency: 80,
  // Cost and abuse bound: at most 10 instances × concurrency in flight per function; an open
  // function without it scales with whatever traffic arrives. Raise it per function from load data.
  maxInstances: 10,
};
// Inside an instance, http/capacity.ts bounds the work in flight to the function's concurrency and
// sheds the rest (503 + Retry-After). CPU-bound functions take fewer requests per instance, so
// Cloud Run adds instances instead of queueing work behind one CPU (docs/reliability.md).

export const dermal = onRequest(
  // Firestore reads, I/O-bound, 80 per instance. RSS measured: 190–290 MB under the load bench's 50
  // clients; a 353-MB plateau (heap 49 MB after GC) over 24,000 calls at 10 in flight.
  { ...common, memory: "512MiB", timeoutSeconds: 60 },
  serveDomain("dermal", () => import("./domains/dermal/index.js")),
);

export const knowledge = onRequest(
  // Vertex embeds in production (I/O); the local model (400–500 MB RSS under load) is CPU-bound, so
  // fewer requests per instance than dermal: 40, and 1 GiB for the model's working memory.
  { ...common, memory: "1GiB", cpu: 1, timeoutSeconds: 120, concurrency: 40 },
  serveDomain("knowledge", () => import("./domains/knowledge/index.js")),
);

export const mermaid = onRequest(
  // Rendering is CPU-bound in one worker thread per vCPU (MERMAID_WORKERS; ~370 MB RSS under
  // load): with 16 requests per instance Cloud Run adds instances instead of queueing renders.
  // The pool's heap caps must fit inside this 1 GiB together with the main thread.
  { ...common, memory: "1GiB", cpu: 1, timeoutSeconds: 60, concurrency: 16 },
  serveDomain("mermaid", () => import("./domains/mermaid/index.js")),
);

export const figma = onRequest(
  // Tools wait for the plugin (FIGMA_COMMAND_TIMEOUT_MS, 60 s) and plugin polls are held ~25 s.
  { ...common, memory: "512MiB", timeoutSeconds: 120 },
  serveDomain("figma", () => import("./domains/figma/index.js")),
);

// The OAuth 2.1 authorization server (sign-in, consent, device pairing); serves no MCP.
export const oauth = onRequest(
  { ...common, memory: "512MiB", timeoutSeconds: 30, secrets: [oauthSigningKey] },
  serveDomain("oauth", () => import("./domains/oauth/index.js")),
);

export const fotos = onRequest(
  // A capture waits for the desktop agent (30 s + delay, at most 4 min); sharp downscales for the model.
  { ...common, memory: "1GiB", cpu: 1, timeoutSeconds: 300, secrets: visionLlmKeys },
  serveDomain("fotos", () => import("./domains/fotos/index.js")),
);

/** Deletes expired screenshots (FOTOS_RETENTION_DAYS, default 7) with their images, every hour. */
export const fotosCleanup = onSchedule(
  { region: "us-central1", schedule: "every 60 minutes", timeoutSeconds: 540, memory: "512MiB", concurrency: 1, maxInstances: 1 },
  async () => {
    const { cleanupExpired } = await import("./domains/fotos/cleanup.js");
    await cleanupExpired();
  },
);
