// Each function's serving profile, declared once in its manifest (core/manifest.ts). Three readers:
// Cloud Run (the onRequest options `cloudRunOptions` returns, in index.ts), the instance's gate
// (`gateFor`) and the local front `npm start` serves through (scripts/emulator/front.ts).
// Inside an instance the gate works on `gate.maxInFlight` requests at once and lets the rest of
// the function's concurrency wait at most `gate.maxWaitMs`; past that, 503 + Retry-After at once.
// Each person (or device) may hold at most half of the in-flight requests (share.ts): an AI app's
// parallel calls fit, and another person still finds the other half free.
// Per deployment: <DOMAIN>_MAX_IN_FLIGHT, _MAX_QUEUED, _MAX_WAIT_MS, _RETRY_AFTER_SECONDS, _MAX_PER_PERSON.
import type { HttpsOptions } from "firebase-functions/v2/https";
import { manifestOf, type ServingProfile } from "../core/manifest.js";
import { Gate, type GateOptions } from "./gate.js";
import { PersonShares } from "./share.js";

export type { ServingProfile } from "../core/manifest.js";

/** The onRequest options a serving profile implies. */
export function cloudRunOptions(name: string, profile: ServingProfile): Pick<HttpsOptions, "concurrency" | "memory" | "cpu" | "timeoutSeconds" | "maxInstances"> {
  if (profile.gate.maxInFlight > profile.concurrency) throw new Error(`${name}: gate.maxInFlight exceeds the concurrency`);
  const { concurrency, memory, cpu, timeoutSeconds, maxInstances } = profile;
  return { concurrency, memory, timeoutSeconds, ...(maxInstances ? { maxInstances } : {}), ...(cpu ? { cpu } : {}) };
}

/** For a function without a profile (tests that serve a domain of their own). */
const FALLBACK: GateOptions = { maxInFlight: 16, maxQueued: 32, maxWaitMs: 10_000, retryAfterSeconds: 2 };

/** The instance gate's options: the manifest's profile, then the environment's overrides. */
export function gateOptions(domain: string, env: NodeJS.ProcessEnv = process.env): GateOptions {
  const p = manifestOf(domain)?.serving;
  const base = p ? { ...p.gate, maxQueued: p.concurrency - p.gate.maxInFlight } : FALLBACK;
  const get = (key: string, fallback: number): number => {
    const raw = env[`${domain.toUpperCase()}_${key}`];
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

/** The gate of one function's instance (one per process and domain). */
export function gateFor(domain: string): Gate {
  return new Gate(gateOptions(domain));
}

/** The requests one person may have held or in flight on one instance: half of the gate's, unless set. */
export function perPersonShare(domain: string, env: NodeJS.ProcessEnv = process.env): number {
  const { maxInFlight } = gateOptions(domain, env);
  const n = Number(env[`${domain.toUpperCase()}_MAX_PER_PERSON`]);
  return Math.max(1, Number.isInteger(n) && n > 0 ? n : Math.floor(maxInFlight / 2));
}

/** The per-person shares of one function's instance (one per process and domain). */
export function sharesFor(domain: string): PersonShares {
  return new PersonShares(perPersonShare(domain), gateOptions(domain).retryAfterSeconds);
}
