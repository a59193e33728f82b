// The functions served the way `npm start` serves them: one instance per HTTPS function
// (instances.ts) behind the front (front.ts), each bounded by the serving profile of its
// manifest (functions/src/core/manifest.ts). Used by `npm start`, its test and the benches.
import { declaredFunctions } from "./endpoints.js";
import { frontBound, startFront } from "./front.js";
import { startInstances } from "./instances.js";

export interface LocalServing {
  /** http://host:port of the front; functions are at <url>/<project>/<region>/<function> (core/where.ts). */
  url: string;
  /** The instances' process ids (benches measure them). */
  pids(): number[];
  close(): Promise<void>;
}

/** Binds the front first (so a taken port is reported before anything loads), then starts the instances. */
export async function serveLocally(options: { host: string; port: number; log: NodeJS.WritableStream }): Promise<LocalServing> {
  const declared = await declaredFunctions();
  const names = Object.keys(declared);
  const upstreams: Record<string, string> = {};
  const front = await startFront({
    upstreams,
    host: options.host,
    port: options.port,
    bounds: Object.fromEntries(names.flatMap((n) => (declared[n]!.profile ? [[n, frontBound(declared[n]!.profile!)]] : []))),
    timeoutSeconds: Object.fromEntries(names.map((n) => [n, declared[n]!.timeoutSeconds ?? 60])),
  });
  try {
    const instances = await startInstances(names, { log: options.log });
    Object.assign(upstreams, instances.hosts);
    return {
      url: front.url,
      pids: instances.pids,
      close: async () => {
        await front.close();
        await instances.close();
      },
    };
  } catch (err) {
    await front.close();
    throw err;
  }
}
