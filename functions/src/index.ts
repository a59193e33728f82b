// Firebase entry point: one HTTPS function per manifest (core/manifest.ts), MCP at each function's
// root. Each export is named as its manifest (deploy:check refuses another name) and imports only
// its own domain, lazily, so a cold start never pays for the others.
import { onRequest, type HttpsFunction } from "firebase-functions/v2/https";
import { defineSecret } from "firebase-functions/params";
import { onSchedule } from "firebase-functions/v2/scheduler";
import { FUNCTIONS, type FunctionName } from "./core/manifest.js";
import { REGION } from "./core/where.js";
import { cloudRunOptions } from "./http/capacity.js";
import { serveDomain, type Loader } from "./http/endpoint.js";
import { installBodyGuard } from "./http/body-guard.js";
import { providePersonData } from "./http/person.js";

// The secrets the manifests bind, declared so deploy checks each exists; a manifest naming one not
// declared here fails the typecheck.
type SecretName = { [K in FunctionName]: (typeof FUNCTIONS)[K] extends { secrets: readonly (infer S)[] } ? S : never }[FunctionName];
const SECRETS: Record<SecretName, ReturnType<typeof defineSecret>> = {
  OAUTH_SIGNING_KEY: defineSecret("OAUTH_SIGNING_KEY"),
  ANTHROPIC_API_KEY: defineSecret("ANTHROPIC_API_KEY"),
  OPENAI_API_KEY: defineSecret("OPENAI_API_KEY"),
};

// Each function's loader: the one part of its manifest that must sit above the domains.
const LOAD: Record<FunctionName, Loader> = {
  dermal: () => import("./domains/dermal/index.js"),
  knowledge: () => import("./domains/knowledge/index.js"),
  mermaid: () => import("./domains/mermaid/index.js"),
  figma: () => import("./domains/figma/index.js"),
  oauth: () => import("./domains/oauth/index.js"),
  fotos: () => import("./domains/fotos/index.js"),
};

// Bodies over their limit are refused before the framework reads them (http/body-guard.ts).
installBodyGuard();

/** The HTTPS function of manifest `name`. */
function serve(name: FunctionName): HttpsFunction {
  const manifest = FUNCTIONS[name];
  const secrets = "secrets" in manifest ? manifest.secrets.map((s: SecretName) => SECRETS[s]) : [];
  return onRequest(
    {
      region: REGION,
      invoker: "public", // MCP clients call the URL directly; each domain checks the caller itself
      cors: false, // Origin is checked in http/origin.ts
      ...cloudRunOptions(name, manifest.serving),
      ...(secrets.length ? { secrets } : {}),
    },
    serveDomain(name, LOAD[name]),
  );
}

export const dermal = serve("dermal");
export const knowledge = serve("knowledge");
export const mermaid = serve("mermaid");
export const figma = serve("figma");
// The person's home page (oauth's /home) shows and changes their Fotos settings and knowledge
// base, and exports or erases their data: each domain's small module for it, loaded when needed.
providePersonData({
  fotos: () => import("./domains/fotos/person.js"),
  knowledge: () => import("./domains/knowledge/person.js"),
  figma: () => import("./domains/figma/person.js"),
});
export const oauth = serve("oauth");
export const fotos = serve("fotos");

/** Brings each person's new and changed Readwise highlights into their knowledge base (knowledge/readwise.ts). */
export const knowledgeReadwiseSync = onSchedule(
  { region: REGION, schedule: "every 6 hours", timeoutSeconds: 540, memory: "1GiB", concurrency: 1, maxInstances: 1 },
  async () => {
    const [{ syncEveryone }, { firestore }, { embedder }] = await Promise.all([import("./domains/knowledge/readwise.js"), import("./platform/firebase.js"), import("./platform/embeddings.js")]);
    await syncEveryone(firestore(), await embedder());
  },
);

/** Imports the files people dropped on their home page whose tab closed before they were done (knowledge/import-queue.ts). */
export const knowledgeImportDrain = onSchedule(
  { region: REGION, schedule: "every 1 minutes", timeoutSeconds: 540, memory: "1GiB", concurrency: 1, maxInstances: 1 },
  async () => {
    const [{ drainImports }, { firestore }, { embedder }] = await Promise.all([import("./domains/knowledge/import-queue.js"), import("./platform/firebase.js"), import("./platform/embeddings.js")]);
    await drainImports(firestore(), embedder, 480_000);
  },
);

/** Deletes expired screenshots (FOTOS_RETENTION_DAYS, default 7) with their images, every hour. */
export const fotosCleanup = onSchedule(
  { region: REGION, schedule: "every 60 minutes", timeoutSeconds: 540, memory: "512MiB", concurrency: 1, maxInstances: 1 },
  async () => {
    const { cleanupExpired } = await import("./domains/fotos/cleanup.js");
    await cleanupExpired();
  },
);
