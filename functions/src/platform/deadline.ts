// Deadlines on every call to a dependency (Firestore, Storage, Cloud Vision, Vertex AI, the vision
// LLMs, client metadata documents), set here once: each dependency's budget, what the caller is
// told when it is spent, and which dependencies are timing out right now (/healthz reports them).
//
// A call gets its budget, or less when the request has less time left; a streamed answer's
// budget (idle) bounds its first part and every gap instead, the request's time the whole. The
// request's cancel (the client went away) ends it at once; so does its deadline, through the
// signal the call gets (the client's own request is closed too). A call that misses its deadline
// ends with an "unavailable" ToolError (503, Retry-After) naming the dependency and is logged. While a
// dependency is timing out, one call at a time probes it (with the full budget) and the others are
// answered at once with the same sentence, so a stalled dependency does not fill the instance
// with requests that can only wait; the first call that gets an answer closes it again.
// Outside a request (the seeders, imports from the command line) nothing is bounded here: the
// clients' own timeouts apply. Firestore's calls are bounded in firestore-deadlines.ts.
import { AsyncLocalStorage } from "node:async_hooks";
import { envNumber } from "../core/env.js";
import { ToolError } from "../core/errors.js";
import type { Logger } from "../core/log.js";

export type Dependency = "firestore" | "storage" | "vision" | "vertex" | "vision-llm" | "client-metadata";

export interface Budget {
  dependency: Dependency;
  /** How the caller's sentence names it. */
  label: string;
  ms: number;
  /** Whether missing this budget means the dependency is timing out (a short, fail-open budget does not). */
  marksTrouble: boolean;
  /**
   * The budget bounds each silence (the first answer, then every gap between two parts of it),
   * not the whole call: a streamed answer may go on as long as the request has time left.
   */
  idle?: boolean;
}

const budget = (dependency: Dependency, label: string, env: string, fallbackMs: number, marksTrouble = true, idle = false): Budget => ({
  dependency,
  label,
  ms: envNumber(env, fallbackMs, { min: 1 }),
  marksTrouble,
  ...(idle ? { idle } : {}),
});

/** Every dependency's budget; per deployment: DEADLINE_<NAME>_MS. */
export const BUDGETS = {
  firestore: budget("firestore", "the database (Firestore)", "DEADLINE_FIRESTORE_MS", 8_000),
  /** Mermaid's fair-use count: the open renderer never waits for the database (it fails open). */
  fairUse: budget("firestore", "the database (Firestore)", "DEADLINE_FAIR_USE_MS", 400, false),
  storage: budget("storage", "file storage (Cloud Storage)", "DEADLINE_STORAGE_MS", 8_000),
  vision: budget("vision", "text recognition (Cloud Vision)", "DEADLINE_VISION_MS", 8_000),
  vertex: budget("vertex", "the embedding model (Vertex AI)", "DEADLINE_VERTEX_MS", 8_000),
  /**
   * A vision model writes its answer for tens of seconds when it works, so its answer is streamed
   * and the budget bounds the wait for its first part and every gap after it; the request's own
   * time bounds the whole. One provider among four (Ollama the user's own): a silent one does not
   * mark the function as timing out, nor refuse calls to the others.
   */
  visionLlm: budget("vision-llm", "the vision model", "DEADLINE_VISION_LLM_MS", 8_000, false, true),
  /** A client's own document on the internet: a slow one is that client's problem, not ours. */
  clientMetadata: budget("client-metadata", "the client's metadata document", "DEADLINE_CLIENT_METADATA_MS", 5_000, false),
} as const;

/** Seconds a caller is told to wait after a dependency missed its deadline (Retry-After). */
export const DEPENDENCY_RETRY_AFTER_SECONDS = envNumber("DEPENDENCY_RETRY_AFTER_SECONDS", 10, { min: 1 });
/** Kept back from the request's own timeout, so the answer goes out before the platform cuts it. */
const ANSWER_MARGIN_MS = 1_000;
const MIN_CALL_MS = 250;
/**
 * A streamed answer's first part is awaited until this long after the request arrived (and at
 * least MIN_FIRST_PART_MS), so a model that never answers is told to the caller within about
 * 10 s of the call even when the request did other work first (settings, quotas, the image).
 */
const ANSWER_WITHIN_MS = envNumber("DEADLINE_ANSWER_WITHIN_MS", 10_000, { min: 1 });
const MIN_FIRST_PART_MS = 4_000;

/** A dependency missed its deadline (or is known to be timing out): 503 with Retry-After. */
export class DependencyUnavailable extends ToolError {
  constructor(
    readonly dependency: Dependency,
    message: string,
  ) {
    super("unavailable", message, { retryAfterSeconds: DEPENDENCY_RETRY_AFTER_SECONDS });
  }
}

/** The request's cancel reached a dependency call: the client is gone, nobody reads this answer. */
export class RequestCancelled extends ToolError {
  constructor() {
    super("timeout", "The request was cancelled before it completed");
  }
}

/**
 * What a call changes, for the sentence: nothing (a read); a change that gives the same result
 * however often it is made (the same document set, an object saved at its path, a delete); or one
 * that may not (an increment, a new document, a transaction).
 */
export type Write = "none" | "idempotent" | "unknown";

const WRITE_NOTES: Record<Write, Record<"sent" | "timing out", string>> = {
  none: { sent: "", "timing out": "" },
  idempotent: { sent: ". The change may or may not have been saved; sending the same call again is safe", "timing out": ". Nothing was changed" },
  unknown: { sent: ". The change may or may not have been saved: check before sending it again", "timing out": ". Nothing was changed" },
};

/** How a call missed its deadline: no answer at all, an answer that stopped, an answer not finished in the request's time. */
type Missed = "timed out" | "went quiet" | "unfinished";

export function sentence(b: Budget, how: Missed | "timing out", ms: number, write: Write): string {
  const seconds = Math.max(1, Math.round(ms / 1000));
  const what = {
    "timed out": `${b.label} did not answer within ${seconds} s`,
    "went quiet": `${b.label} stopped answering (nothing for ${seconds} s)`,
    unfinished: `${b.label} did not finish its answer within ${seconds} s`,
    "timing out": `${b.label} is not answering right now`,
  }[how];
  return `Service temporarily unavailable: ${what}. Try again in ${DEPENDENCY_RETRY_AFTER_SECONDS} s${WRITE_NOTES[write][how === "timing out" ? how : "sent"]}`;
}

// ---------------------------------------------------------------------------------------------
// The request's scope

export interface DeadlineScope {
  /** Epoch ms by which the request must be answered. */
  deadlineAt: number;
  /** Epoch ms the request arrived (a streamed answer's first part is awaited within ANSWER_WITHIN_MS of it). */
  startedAt?: number;
  signal?: AbortSignal | undefined;
  log: Logger;
  /** Inside a bounded call already: nested SDK calls are covered by it. */
  inside?: boolean;
  /** Inside a bounded call with a fixed deadline: epoch ms by which it ends (the clients' own deadline, firestore-deadlines.ts). */
  callDeadlineAt?: number;
  /** Inside a listener: fires when it is detached (its stream is cancelled then, firestore-deadlines.ts). */
  detached?: AbortSignal;
  /** The request was answered: callbacks still running in its context are not bounded by it. */
  ended?: boolean;
  /** Whether the caller's writes are safe to send again as a whole (writesSafeToRepeat): overrides each write's own kind. */
  repeatable?: boolean;
}

const scopes = new AsyncLocalStorage<DeadlineScope>();

/** Runs a request's handler with its deadline (its function's timeout) and cancel signal. */
export async function withRequestDeadline<T>(opts: { timeoutSeconds: number; signal?: AbortSignal; log: Logger }, serve: () => Promise<T>): Promise<T> {
  const scope: DeadlineScope = { deadlineAt: Date.now() + opts.timeoutSeconds * 1000, startedAt: Date.now(), signal: opts.signal, log: opts.log };
  try {
    return await scopes.run(scope, serve);
  } finally {
    scope.ended = true;
  }
}

/**
 * Runs writes whose safety to send again is decided by the caller, not by each write: safe when a
 * repeat gets the first one's answer (never a second change); not safe when each attempt makes
 * something new (a document at a new random id). The sentence of a timed-out write says which.
 */
export async function writesSafeToRepeat<T>(write: () => Promise<T>, safe = true): Promise<T> {
  const scope = activeScope();
  if (!scope || scope.repeatable !== undefined) return write();
  scope.repeatable = safe;
  try {
    return await write();
  } finally {
    scope.repeatable = undefined;
  }
}

/** Runs `run` in `scope` (a listener's, firestore-deadlines.ts). */
export const runInScope = <T>(scope: DeadlineScope, run: () => T): T => scopes.run(scope, run);

/** The scope of the request being served, if any and not yet answered. */
export const activeScope = (): DeadlineScope | undefined => {
  const scope = scopes.getStore();
  return scope && !scope.ended ? scope : undefined;
};

// ---------------------------------------------------------------------------------------------
// Which dependencies are timing out

const trouble = new Map<Dependency, { since: number; label: string; probing: boolean }>();

/** Dependencies that missed their deadline and have not answered since (for /healthz). */
export function dependencyTrouble(): { dependency: Dependency; reason: string; since: string }[] {
  return [...trouble].map(([dependency, t]) => ({ dependency, reason: `${t.label} is not answering`, since: new Date(t.since).toISOString() }));
}

export function recovered(dependency: Dependency, log: Logger): void {
  const t = trouble.get(dependency);
  if (!t) return;
  trouble.delete(dependency);
  log.info("dependency answering again", { dependency, afterMs: Date.now() - t.since });
}

/** Logs a missed deadline (naming the dependency) and, for a full budget, marks the dependency as timing out. */
export function timedOut(b: Budget, log: Logger, fields: Record<string, unknown>): void {
  log.warn("dependency timed out", { dependency: b.dependency, ...fields });
  if (b.marksTrouble && !trouble.has(b.dependency)) trouble.set(b.dependency, { since: Date.now(), label: b.label, probing: false });
}

/** How a dependency is asked whether it answers again (one cheap call), for /healthz without traffic. */
const probes = new Map<Dependency, () => Promise<unknown>>();
export function registerProbe(dependency: Dependency, probe: () => Promise<unknown>): void {
  probes.set(dependency, probe);
}
const PROBE_MS = 2_000;

/**
 * Asks each dependency that is timing out (and has a probe) whether it answers again, at most
 * PROBE_MS, so an uptime check sees the recovery even when no request came by.
 */
export async function probeTrouble(log: Logger): Promise<void> {
  await Promise.all(
    [...trouble].map(async ([dependency, t]) => {
      const probe = probes.get(dependency);
      if (!probe || t.probing) return;
      t.probing = true;
      let timer: NodeJS.Timeout | undefined;
      try {
        // Inside a bounded call of its own: the probe's own call ends at PROBE_MS too (firestore-deadlines.ts).
        const callDeadlineAt = Date.now() + PROBE_MS;
        const inner: DeadlineScope = { deadlineAt: callDeadlineAt, callDeadlineAt, log, inside: true };
        await Promise.race([scopes.run(inner, probe), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("no answer")), PROBE_MS)))]);
        recovered(dependency, log);
      } catch {
        // still not answering
      } finally {
        clearTimeout(timer);
        const still = trouble.get(dependency);
        if (still) still.probing = false;
      }
    }),
  );
}

// gRPC's DEADLINE_EXCEEDED and UNAVAILABLE: the client library gave up on the dependency itself.
const unreachable = (err: unknown): boolean => [4, 14].includes((err as { code?: unknown } | null)?.code as number);

/**
 * Calls a dependency within its budget (less when the request has less time left). `call` gets a
 * signal that fires when the deadline passes or the request is cancelled; pass it to the client
 * where it takes one. With an idle budget, `call` reports each part of a streamed answer
 * (`answering`): the budget then bounds each silence and the request's own time the whole.
 * `write`: what the call changes (the sentence says whether sending it again is safe).
 */
export async function callDependency<T>(b: Budget, call: (signal: AbortSignal, answering: () => void) => Promise<T>, opts: { write?: Write } = {}): Promise<T> {
  const scope = activeScope();
  const unbounded = () => undefined;
  // Outside a request (seeders, command-line imports) there is no one waiting: the clients' own timeouts apply.
  if (!scope) return call(new AbortController().signal, unbounded);
  if (scope.inside) return call(scope.signal ?? new AbortController().signal, unbounded);
  const log = scope.log;
  const write = opts.write && opts.write !== "none" && scope.repeatable !== undefined ? (scope.repeatable ? "idempotent" : "unknown") : (opts.write ?? "none");
  const t = trouble.get(b.dependency);
  if (t?.probing) throw new DependencyUnavailable(b.dependency, sentence(b, "timing out", b.ms, write));
  // While it is timing out, this call is the one that probes it.
  const probe = t;
  if (probe) probe.probing = true;

  const startedAt = Date.now();
  const endAt = Math.max(startedAt + MIN_CALL_MS, scope.deadlineAt - ANSWER_MARGIN_MS);
  const ms = Math.min(b.ms, endAt - startedAt);
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onCancel: (() => void) | undefined;
  let miss: (how: Missed, ms: number) => void = () => undefined;
  const ended = new Promise<never>((_, reject) => {
    miss = (how, after) => reject(new DependencyUnavailable(b.dependency, sentence(b, how, after, write)));
    const first = b.idle && scope.startedAt !== undefined ? Math.min(ms, Math.max(MIN_FIRST_PART_MS, scope.startedAt + ANSWER_WITHIN_MS - startedAt)) : ms;
    timer = setTimeout(() => miss("timed out", first), first);
    if (scope.signal) {
      onCancel = () => reject(new RequestCancelled());
      if (scope.signal.aborted) onCancel();
      else scope.signal.addEventListener("abort", onCancel, { once: true });
    }
  });
  // Each part of the answer gives the next one the whole budget again, within the request's time.
  const answering = () => {
    if (!b.idle || controller.signal.aborted) return;
    clearTimeout(timer);
    const left = endAt - Date.now();
    timer = left <= b.ms ? setTimeout(() => miss("unfinished", endAt - startedAt), left) : setTimeout(() => miss("went quiet", b.ms), b.ms);
  };
  const inner: DeadlineScope = { ...scope, signal: controller.signal, inside: true, ...(b.idle ? {} : { callDeadlineAt: startedAt + ms }) };
  const work = (async () => scopes.run(inner, () => call(controller.signal, answering)))(); // a synchronous throw is a rejection too
  try {
    const result = await Promise.race([work, ended]);
    recovered(b.dependency, log);
    return result;
  } catch (err) {
    // A failure once the deadline has passed is the deadline's (the client's own call was cut by it).
    const late = !b.idle && !(err instanceof RequestCancelled) && Date.now() >= startedAt + ms;
    if (err instanceof DependencyUnavailable || unreachable(err) || late) {
      timedOut(b, log, { budgetMs: ms, write });
      if (err instanceof DependencyUnavailable) throw err;
      throw new DependencyUnavailable(b.dependency, sentence(b, "timed out", ms, write));
    }
    // Any other answer (a refusal, a not-found…) means the dependency is there.
    if (!(err instanceof RequestCancelled)) recovered(b.dependency, log);
    throw err;
  } finally {
    clearTimeout(timer);
    if (onCancel) scope.signal?.removeEventListener("abort", onCancel);
    controller.abort();
    work.catch(() => undefined); // an abandoned call's late failure is expected
    if (probe) probe.probing = false;
  }
}

