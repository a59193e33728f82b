// What each HTTPS function declares in functions/src/index.ts (vCPUs, timeout, concurrency), read
// from the built functions/lib, for the tools that serve the functions locally (the emulator's
// front, the load benchmark) the way Cloud Run would.
export interface Declared {
  cpu?: number;
  timeoutSeconds?: number;
  availableMemoryMb?: number;
  concurrency?: number;
}

/** Each HTTPS function's timeoutSeconds (60 when it declares none, as firebase-functions does). */
export async function declaredTimeouts(): Promise<Record<string, number>> {
  return Object.fromEntries(Object.entries(await declaredFunctions()).map(([name, d]) => [name, d.timeoutSeconds ?? 60]));
}

export async function declaredFunctions(): Promise<Record<string, Declared>> {
  const built = (await import(new URL("../../functions/lib/index.js", import.meta.url).href)) as Record<string, { __endpoint?: Declared & { httpsTrigger?: unknown } }>;
  return Object.fromEntries(
    Object.entries(built)
      .filter(([, f]) => f?.__endpoint?.httpsTrigger)
      .map(([name, f]) => [name, f.__endpoint!]),
  );
}
