// How much work one instance of each function takes on at once, and what it does past that.
// Cloud Run sends an instance up to `concurrency` requests (index.ts); inside, the gate
// (guards.ts) works on `maxInFlight` of them, queues up to `maxQueued` for at most `maxWaitMs`,
// and answers the rest 503 + Retry-After at once. Sized with bench/load.ts (one
// functions-framework process per function, 50 clients); docs/reliability.md has the figures.
// Override per deployment with <DOMAIN>_MAX_IN_FLIGHT, _MAX_QUEUED, _MAX_WAIT_MS, _RETRY_AFTER_SECONDS.
import { Gate, type Admitter, type GateOptions } from "./guards.js";
import { MachineGate } from "./machine-gate.js";

// maxInFlight + maxQueued = the function's Cloud Run concurrency (index.ts): Cloud Run never sends
// more, so on Cloud Run the queue bound is the platform's; elsewhere (functions-framework on any
// host, the bench) this gate is the bound.
const DEFAULTS: Record<string, GateOptions> = {
  // Firestore reads, little CPU: latency is Firestore's, so many can overlap.
  dermal: { maxInFlight: 32, maxQueued: 48, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  // search_semantic embeds the query (local model: CPU-bound, tens of ms; Vertex in production):
  // beyond a few at once they only queue behind each other on the CPU.
  knowledge: { maxInFlight: 16, maxQueued: 24, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  // Rendering runs in the domain's worker pool, which queues and sheds by itself (a render not
  // expected to start within MERMAID_MAX_WAIT_MS is refused at once): every call must reach it
  // promptly. A queue here held calls up to ~1.2 s before the pool could answer them (bench/load.ts:
  // gate 8 + 8 was full under 50 clients), so no queue, and the bound is Cloud Run's concurrency.
  mermaid: { maxInFlight: 16, maxQueued: 0, maxWaitMs: 0, retryAfterSeconds: 5 },
  // Sign-in pages and token endpoints: light, but each token check may read Firestore.
  oauth: { maxInFlight: 32, maxQueued: 48, maxWaitMs: 10_000, retryAfterSeconds: 2 },
  // Mostly idle waits (plugin long-polls held ~25 s, tools waiting for the plugin or the desktop
  // agent, up to minutes): a held request costs no CPU, so the bound is Cloud Run's concurrency.
  figma: { maxInFlight: 80, maxQueued: 0, maxWaitMs: 0, retryAfterSeconds: 2 },
  fotos: { maxInFlight: 80, maxQueued: 0, maxWaitMs: 0, retryAfterSeconds: 2 },
};
const FALLBACK: GateOptions = { maxInFlight: 16, maxQueued: 32, maxWaitMs: 10_000, retryAfterSeconds: 2 };

function fromEnv(domain: string, base: GateOptions): GateOptions {
  const get = (key: string, fallback: number): number => {
    const raw = process.env[`${domain.toUpperCase()}_${key}`];
    const n = raw === undefined ? NaN : Number(raw);
    return Number.isInteger(n) && n >= 0 ? n : fallback;
  };
  return {
    maxInFlight: Math.max(1, get("MAX_IN_FLIGHT", base.maxInFlight)),
    maxQueued: get("MAX_QUEUED", base.maxQueued),
    maxWaitMs: get("MAX_WAIT_MS", base.maxWaitMs),
    retryAfterSeconds: Math.max(1, get("RETRY_AFTER_SECONDS", base.retryAfterSeconds)),
  };
}

// On the Functions emulator (one process per concurrent request, all on one machine) the bound
// holds across processes and is smaller: the machine is a laptop, not a fleet of instances.
const EMULATOR: Record<string, GateOptions> = {
  dermal: { maxInFlight: 16, maxQueued: 0, maxWaitMs: 15_000, retryAfterSeconds: 2 },
  knowledge: { maxInFlight: 8, maxQueued: 0, maxWaitMs: 15_000, retryAfterSeconds: 2 },
  mermaid: { maxInFlight: 8, maxQueued: 0, maxWaitMs: 15_000, retryAfterSeconds: 5 },
  // Idle waits (long-polls, captures): many at once cost processes, not CPU.
  figma: { maxInFlight: 32, maxQueued: 0, maxWaitMs: 15_000, retryAfterSeconds: 2 },
  fotos: { maxInFlight: 32, maxQueued: 0, maxWaitMs: 15_000, retryAfterSeconds: 2 },
};

/** The gate of one function's instance (one per process and domain; machine-wide on the emulator). */
export function gateFor(domain: string): Admitter {
  if (process.env.FUNCTIONS_EMULATOR === "true") {
    // One emulator suite's workers share the bound; other suites on the same machine (other
    // ports) have their own.
    const suite = `${process.env.GCLOUD_PROJECT ?? ""}|${process.env.FIRESTORE_EMULATOR_HOST ?? ""}|${domain}`;
    return new MachineGate(fromEnv(domain, EMULATOR[domain] ?? FALLBACK), suite);
  }
  return new Gate(fromEnv(domain, DEFAULTS[domain] ?? FALLBACK));
}
