// Firebase entry point: one HTTPS function per domain, MCP at each function's root.
// Each function imports only its own domain, lazily, so a cold start never pays for the others.
import { onRequest, type HttpsOptions } from "firebase-functions/v2/https";
import { defineSecret } from "firebase-functions/params";
import { onSchedule } from "firebase-functions/v2/scheduler";
import { serving } from "./http/capacity.js";
import { serveDomain } from "./http/endpoint.js";
import { providePersonData } from "./http/person.js";

// The private JWK that signs access tokens (see README, "Production"); only `oauth` can read it.
const oauthSigningKey = defineSecret("OAUTH_SIGNING_KEY");
// Vision LLM keys for analyze_screenshot (platform/vision-llm.ts); only `fotos` can read them.
const visionLlmKeys = [defineSecret("ANTHROPIC_API_KEY"), defineSecret("OPENAI_API_KEY")];

const common: HttpsOptions = {
  region: "us-central1",
  invoker: "public", // MCP clients call the URL directly; each domain checks the caller itself
  cors: false, // Origin is checked in http/origin.ts
};
// Each function's serving profile (http/capacity.ts): Cloud Run's options, the instance's gate and
// the local front all read it. maxInstances is the cost and abuse bound: an open function without
// it scales with whatever traffic arrives. CPU-bound work takes fewer requests per instance, so
// Cloud Run adds instances instead of queueing it behind one CPU (docs/reliability.md).

export const dermal = onRequest(
  {
    ...common,
    ...serving("dermal", {
      concurrency: 80,
      memory: "512MiB",
      timeoutSeconds: 60,
      maxInstances: 10,
      gate: { maxInFlight: 32, maxWaitMs: 10_000, retryAfterSeconds: 2 },
      why: "Firestore reads with little CPU: latency is Firestore's, so many calls overlap.",
    }),
  },
  serveDomain("dermal", () => import("./domains/dermal/index.js")),
);

export const knowledge = onRequest(
  {
    ...common,
    ...serving("knowledge", {
      concurrency: 40,
      memory: "1GiB",
      cpu: 1,
      timeoutSeconds: 120,
      maxInstances: 10,
      gate: { maxInFlight: 16, maxWaitMs: 10_000, retryAfterSeconds: 2 },
      why: "A query embeds on the CPU where the local model runs: past a few at once they only queue there; the model needs the memory.",
    }),
  },
  serveDomain("knowledge", () => import("./domains/knowledge/index.js")),
);

export const mermaid = onRequest(
  {
    ...common,
    ...serving("mermaid", {
      concurrency: 16,
      memory: "1GiB",
      cpu: 1,
      timeoutSeconds: 60,
      maxInstances: 10,
      gate: { maxInFlight: 16, maxWaitMs: 0, retryAfterSeconds: 5 },
      why: "Renders are CPU-bound in the domain's worker pool, which queues and sheds by itself: calls reach it at once, and the pool's heap caps fit in 1 GiB beside the main thread.",
    }),
  },
  serveDomain("mermaid", () => import("./domains/mermaid/index.js")),
);

export const figma = onRequest(
  {
    ...common,
    ...serving("figma", {
      concurrency: 80,
      memory: "512MiB",
      timeoutSeconds: 120,
      maxInstances: 10,
      gate: { maxInFlight: 80, maxWaitMs: 0, retryAfterSeconds: 2 },
      why: "Mostly idle waits (plugin polls held ~25 s, tools waiting up to FIGMA_COMMAND_TIMEOUT_MS for the plugin): a held request costs no CPU.",
    }),
  },
  serveDomain("figma", () => import("./domains/figma/index.js")),
);

// The person's home page (oauth's /home) shows and changes their Fotos settings and knowledge
// base, and exports or erases their data: each domain's small module for it, loaded when needed.
providePersonData({
  fotos: () => import("./domains/fotos/person.js"),
  knowledge: () => import("./domains/knowledge/person.js"),
  figma: () => import("./domains/figma/person.js"),
});

// The OAuth 2.1 authorization server (sign-in, consent, device pairing); serves no MCP.
export const oauth = onRequest(
  {
    ...common,
    ...serving("oauth", {
      concurrency: 80,
      memory: "512MiB",
      timeoutSeconds: 30,
      maxInstances: 10,
      gate: { maxInFlight: 32, maxWaitMs: 10_000, retryAfterSeconds: 2 },
      why: "Sign-in pages and token endpoints: light, though each token check may read Firestore.",
    }),
    secrets: [oauthSigningKey],
  },
  serveDomain("oauth", () => import("./domains/oauth/index.js")),
);

export const fotos = onRequest(
  {
    ...common,
    ...serving("fotos", {
      concurrency: 80,
      memory: "1GiB",
      cpu: 1,
      timeoutSeconds: 300,
      maxInstances: 10,
      gate: { maxInFlight: 80, maxWaitMs: 0, retryAfterSeconds: 2 },
      why: "A capture waits for the desktop agent (at most 4 min) at no CPU; sharp and OCR need the memory.",
    }),
    secrets: visionLlmKeys,
  },
  serveDomain("fotos", () => import("./domains/fotos/index.js")),
);

/** Brings each person's new and changed Readwise highlights into their knowledge base (knowledge/readwise.ts). */
export const knowledgeReadwiseSync = onSchedule(
  { region: "us-central1", schedule: "every 6 hours", timeoutSeconds: 540, memory: "1GiB", concurrency: 1, maxInstances: 1 },
  async () => {
    const [{ syncEveryone }, { firestore }, { embedder }] = await Promise.all([import("./domains/knowledge/readwise.js"), import("./platform/firebase.js"), import("./platform/embeddings.js")]);
    await syncEveryone(firestore(), await embedder());
  },
);

/** Deletes expired screenshots (FOTOS_RETENTION_DAYS, default 7) with their images, every hour. */
export const fotosCleanup = onSchedule(
  { region: "us-central1", schedule: "every 60 minutes", timeoutSeconds: 540, memory: "512MiB", concurrency: 1, maxInstances: 1 },
  async () => {
    const { cleanupExpired } = await import("./domains/fotos/cleanup.js");
    await cleanupExpired();
  },
);
