// One manifest per function: its name (the key: the export in index.ts, the URL's last segment,
// the token audience, the folder under domains/), what it serves, who may call its MCP endpoint
// (scopes and device clients), its serving profile and its secrets. index.ts builds each export
// from here (the loader, which must sit above the domains, is there); the access policy
// (auth/policy.ts), the consent page, the local front, the docs tables and every test or bench that
// walks all functions read it. `npm run deploy:check` refuses an export named otherwise.
// Imports nothing: scripts, tests, the desktop agent and the plugin may read it.

/** Each function's serving profile: Cloud Run's options, the instance's gate and the local front read it. */
export interface ServingProfile {
  /** Requests Cloud Run sends one instance at once. */
  concurrency: number;
  memory: "256MiB" | "512MiB" | "1GiB" | "2GiB" | "4GiB";
  /** vCPUs per instance (firebase-tools' default for the memory when absent). */
  cpu?: number;
  timeoutSeconds: number;
  /** The cost and abuse bound: instances × concurrency requests at most (deploy:check refuses a function without it). */
  maxInstances?: number;
  /** Inside the instance; the queue is the rest of `concurrency`, so the platform's bound and ours agree. */
  gate: { maxInFlight: number; maxWaitMs: number; retryAfterSeconds: number };
  /** Why these sizes, in one line. */
  why: string;
}

/**
 * Devices that pair with the device flow (by OAuth client id), and the function their tokens are
 * for; `noun` is how the pairing page asks ("Pair a … ?").
 */
export const DEVICE_CLIENTS = {
  "fotos-agent": { kind: "desktop-agent", noun: "desktop agent", resource: "fotos", scopes: ["fotos"], title: "Fotos desktop agent", does: "take screenshots of the computer it runs on when your AI agent asks" },
  // `fotos-agent mcp`, the stdio server an AI app on the computer starts: bridged, it acts as the
  // user's MCP client of the fotos function (a device token is no MCP client otherwise).
  "fotos-mcp": { kind: "fotos-mcp", noun: "connection for AI apps", resource: "fotos", scopes: ["fotos"], title: "Fotos connection for AI apps", does: "use your Fotos screenshots and tools from AI apps on the computer it runs on (Claude Desktop, Cursor) through fotos-agent mcp" },
  // `npm run kb:import -- --server <knowledge URL>`: the person's own import from a terminal.
  "kb-import": { kind: "kb-import", noun: "knowledge import", resource: "knowledge", scopes: ["knowledge", "knowledge.write"], title: "Knowledge import (kb:import)", does: "import Markdown, text, Kindle and Readwise files from the computer it runs on into your knowledge base" },
  "figma-plugin": { kind: "figma-plugin", noun: "Figma plugin", resource: "figma", scopes: ["figma"], title: "Figma plugin", does: "run your AI agent's commands in the Figma files you open" },
} as const satisfies Record<string, { kind: string; noun: string; resource: string; scopes: readonly string[]; title: string; does: string }>;
export type DeviceClientId = keyof typeof DEVICE_CLIENTS;
export type DeviceKind = (typeof DEVICE_CLIENTS)[DeviceClientId]["kind"];

export interface FunctionManifest {
  /** "mcp": an MCP server at the root (with routes beside it); "routes": routes only (oauth). */
  serves: "mcp" | "routes";
  /** As the consent page and the docs name it. */
  title: string;
  /** OAuth scopes and what each lets an app do (consent page); absent: the MCP endpoint is open. */
  scopes?: Record<string, string>;
  /** Scopes a token may lack and still reach the MCP endpoint: the tools that need one check it (knowledge.write). */
  optionalScopes?: readonly string[];
  /** Device clients (DEVICE_CLIENTS' kinds) whose tokens this function's MCP endpoint also accepts. */
  devices?: readonly DeviceKind[];
  /** Secret Manager secrets bound to the function (declared with defineSecret in index.ts). */
  secrets?: readonly string[];
  serving: ServingProfile;
}

// CPU-bound work takes fewer requests per instance, so Cloud Run adds instances instead of queueing
// it behind one CPU; maxInstances is the cost and abuse bound (docs/reliability.md).
export const FUNCTIONS = {
  dermal: {
    serves: "mcp",
    title: "DermalVision",
    scopes: { dermal: "Read your DermalVision profile, analysis sessions, reports and zone history (read-only)" },
    serving: {
      concurrency: 80,
      memory: "512MiB",
      timeoutSeconds: 60,
      maxInstances: 10,
      gate: { maxInFlight: 32, maxWaitMs: 10_000, retryAfterSeconds: 2 },
      why: "Firestore reads with little CPU: latency is Firestore's, so many calls overlap.",
    },
  },
  knowledge: {
    serves: "mcp",
    title: "Knowledge base",
    scopes: {
      knowledge: "Search and read your knowledge base: highlights, notes and their metadata",
      "knowledge.write": "Save notes to your knowledge base and delete documents from it",
    },
    // A connection approved read-only stays read-only: it searches, save_note and delete_document refuse it.
    optionalScopes: ["knowledge.write"],
    serving: {
      concurrency: 40,
      memory: "1GiB",
      cpu: 1,
      timeoutSeconds: 120,
      maxInstances: 10,
      gate: { maxInFlight: 16, maxWaitMs: 10_000, retryAfterSeconds: 2 },
      why: "A query embeds on the CPU where the local model runs: past a few at once they only queue there; the model needs the memory.",
    },
  },
  mermaid: {
    serves: "mcp",
    title: "Mermaid diagrams",
    serving: {
      concurrency: 16,
      memory: "1GiB",
      cpu: 1,
      timeoutSeconds: 60,
      maxInstances: 10,
      gate: { maxInFlight: 16, maxWaitMs: 0, retryAfterSeconds: 5 },
      why: "Renders are CPU-bound in the domain's worker pool, which queues and sheds by itself: calls reach it at once, and the pool's heap caps fit in 1 GiB beside the main thread.",
    },
  },
  figma: {
    serves: "mcp",
    title: "Figma bridge",
    scopes: { figma: "Read and edit the Figma files you open with the paired plugin" },
    serving: {
      concurrency: 80,
      memory: "1GiB",
      timeoutSeconds: 120,
      maxInstances: 10,
      gate: { maxInFlight: 80, maxWaitMs: 0, retryAfterSeconds: 2 },
      why: "Mostly idle waits (plugin polls held ~25 s, tools waiting up to FIGMA_COMMAND_TIMEOUT_MS for the plugin): a held request costs no CPU. 1 GiB: create_diagram lays diagrams out in the Mermaid engine's worker (heap up to ~260 MB) beside the relay.",
    },
  },
  // The OAuth 2.1 authorization server (sign-in, consent, device pairing); serves no MCP.
  oauth: {
    serves: "routes",
    title: "Sign-in",
    // The private JWK that signs access tokens (docs/deploy.md); only `oauth` can read it.
    secrets: ["OAUTH_SIGNING_KEY"],
    serving: {
      concurrency: 80,
      memory: "512MiB",
      timeoutSeconds: 30,
      maxInstances: 10,
      gate: { maxInFlight: 32, maxWaitMs: 10_000, retryAfterSeconds: 2 },
      why: "Sign-in pages and token endpoints: light, though each token check may read Firestore.",
    },
  },
  fotos: {
    serves: "mcp",
    title: "Fotos",
    scopes: { fotos: "Take screenshots with your paired desktop agent, and read, annotate and analyse your screenshots" },
    // `fotos-agent mcp` bridged: the user's MCP client of this function (contracts/fotos-agent.ts).
    devices: ["fotos-mcp"],
    // Vision LLM keys for analyze_screenshot (platform/vision-llm.ts); only `fotos` can read them.
    secrets: ["ANTHROPIC_API_KEY", "OPENAI_API_KEY"],
    serving: {
      concurrency: 80,
      memory: "1GiB",
      cpu: 1,
      timeoutSeconds: 300,
      maxInstances: 10,
      gate: { maxInFlight: 80, maxWaitMs: 0, retryAfterSeconds: 2 },
      why: "A capture waits for the desktop agent (at most 4 min) at no CPU; sharp and OCR need the memory.",
    },
  },
} as const satisfies Record<string, FunctionManifest>;

export type FunctionName = keyof typeof FUNCTIONS;

/** Every function's name, in the manifest's order. */
export const FUNCTION_NAMES = Object.keys(FUNCTIONS) as FunctionName[];

/** A function with an MCP endpoint. */
export type McpFunctionName = { [K in FunctionName]: (typeof FUNCTIONS)[K]["serves"] extends "mcp" ? K : never }[FunctionName];
/** A function whose MCP endpoint requires a credential (it declares scopes). */
export type SignedInFunctionName = { [K in FunctionName]: (typeof FUNCTIONS)[K] extends { scopes: object } ? K : never }[FunctionName];

/** The functions with an MCP endpoint. */
export const MCP_FUNCTIONS = FUNCTION_NAMES.filter((n): n is McpFunctionName => FUNCTIONS[n].serves === "mcp");

/** The functions whose MCP endpoint requires a credential. */
export const SIGNED_IN_FUNCTIONS = FUNCTION_NAMES.filter((n): n is SignedInFunctionName => "scopes" in FUNCTIONS[n]);

export const isFunctionName = (name: string): name is FunctionName => Object.prototype.hasOwnProperty.call(FUNCTIONS, name);

/** The manifest of `name`, or undefined for a function this suite does not deploy (a test's own). */
export const manifestOf = (name: string): FunctionManifest | undefined => (isFunctionName(name) ? FUNCTIONS[name] : undefined);

