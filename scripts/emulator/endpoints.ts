// What each HTTPS function declares (its onRequest options, read from the built functions/lib, and
// its serving profile from its manifest), for the tools that serve the functions locally (the
// front, the benches) the way Cloud Run would.
import { manifestOf, type ServingProfile } from "../../functions/src/core/manifest.js";

export interface Declared {
  cpu?: number;
  timeoutSeconds?: number;
  availableMemoryMb?: number;
  concurrency?: number;
  /** The serving profile declared beside its onRequest. */
  profile?: ServingProfile;
}

const LIB = new URL("../../functions/lib/", import.meta.url);

/** Each HTTPS function's timeoutSeconds (60 when it declares none, as firebase-functions does). */
export async function declaredTimeouts(): Promise<Record<string, number>> {
  return Object.fromEntries(Object.entries(await declaredFunctions()).map(([name, d]) => [name, d.timeoutSeconds ?? 60]));
}

export async function declaredFunctions(): Promise<Record<string, Declared>> {
  const built = (await import(new URL("index.js", LIB).href)) as Record<string, { __endpoint?: Declared & { httpsTrigger?: unknown } }>;
  return Object.fromEntries(
    Object.entries(built)
      .filter(([, f]) => f?.__endpoint?.httpsTrigger)
      .map(([name, f]) => [name, { ...f.__endpoint!, profile: manifestOf(name)?.serving }]),
  );
}
