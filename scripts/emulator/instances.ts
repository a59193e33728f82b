// The functions as Cloud Run serves them, for `npm start` and the benches: one process per HTTPS
// function running @google-cloud/functions-framework on the built functions/lib, taking its
// declared concurrency, against the Auth, Firestore and Storage emulators. (The Functions
// emulator instead starts one worker process per request in flight, each loading its domain.)
// Each process warms its domain before it reports healthy (FUNCTION_TARGET), reads the local
// stand-ins for its secrets (functions/.secret.local) and functions/.env, and writes its log to
// the stream given, never to the terminal.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const FRAMEWORK = fileURLToPath(new URL("../../node_modules/@google-cloud/functions-framework/build/src/main.js", import.meta.url));

// Every instance this process started: none outlives it, whatever path it exits by.
const running = new Set<ChildProcess>();
process.once("exit", () => running.forEach((child) => child.kill("SIGKILL")));

export interface Instances {
  /** Each function's instance, host:port. */
  hosts: Record<string, string>;
  pids(): number[];
  close(): Promise<void>;
}

/** KEY=VALUE lines (a double-quoted value is a JSON string), as functions/.env and .secret.local hold them. */
export function readEnvFile(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!m) continue;
    const raw = m[2]!;
    out[m[1]!] = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
  }
  return out;
}

/**
 * What a function's process sees: this environment (the emulator hosts among it), functions/.env,
 * and each secret from functions/.secret.local unless this environment already has a value for it.
 */
export function instanceEnv(name: string, port: number, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const secrets = readEnvFile(`${ROOT}/functions/.secret.local`);
  const own = Object.fromEntries(Object.entries(secrets).filter(([k]) => !env[k]));
  return {
    ...env,
    ...readEnvFile(`${ROOT}/functions/.env`),
    ...own,
    // Local, not production: the functions build their URLs from the Host header, allow http.
    FUNCTIONS_EMULATOR: "true",
    FUNCTION_TARGET: name,
    PORT: String(port),
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A restarted instance waits this long first, doubling per exit in a row, up to RESTART_MAX_MS. */
const RESTART_FIRST_MS = 1_000;
const RESTART_MAX_MS = 30_000;
/** An instance that served this long before it exited is restarted at once again (the back-off starts over). */
const RESTART_RESET_MS = 60_000;

/**
 * Starts one instance per name and resolves when every one answers /healthz (its domain loaded).
 * An instance that exits afterwards (out of memory, an uncaught exception, a kill) is started
 * again on the same port with a back-off, as Cloud Run replaces an instance; its exit and the
 * reason (code or signal, its last log line) are logged. Meanwhile the front answers 503.
 */
export async function startInstances(
  names: string[],
  options: { log: NodeJS.WritableStream; readyTimeoutMs?: number; env?: Record<string, string>; restartFirstMs?: number },
): Promise<Instances> {
  const children = new Map<string, ChildProcess>();
  const hosts: Record<string, string> = {};
  const restarts = new Set<NodeJS.Timeout>();
  let closing = false;
  const close = async () => {
    closing = true;
    restarts.forEach(clearTimeout);
    await Promise.all(
      [...children.values()].map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
            child.once("exit", () => (clearTimeout(kill), resolve()));
            child.kill("SIGTERM");
          }),
      ),
    );
  };
  /** Starts `name`'s process on `port`; its last lines are kept for the reason of an exit. */
  const launch = (name: string, port: number, failures: number): { child: ChildProcess; tail: () => string } => {
    const child = spawn(process.execPath, [FRAMEWORK, `--target=${name}`, "--source=functions", `--port=${port}`, "--signature-type=http"], {
      cwd: ROOT,
      env: { ...instanceEnv(name, port), ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.set(name, child);
    running.add(child);
    const startedAt = Date.now();
    let tail = "";
    for (const stream of [child.stdout!, child.stderr!]) {
      createInterface({ input: stream }).on("line", (line) => {
        tail = `${tail}${line}\n`.slice(-2000);
        options.log.write(`[${name}] ${line}\n`);
      });
    }
    child.once("exit", (code, signal) => {
      running.delete(child);
      if (closing || !ready.has(name)) return;
      const served = Date.now() - startedAt;
      const inRow = served >= RESTART_RESET_MS ? 0 : failures;
      const wait = Math.min(RESTART_MAX_MS, (options.restartFirstMs ?? RESTART_FIRST_MS) * 2 ** inRow);
      const last = tail.trim().split("\n").filter(Boolean).pop() ?? "";
      const how = signal ? `was killed (${signal})` : `exited with code ${code}`;
      options.log.write(`[${name}] the instance ${how}${last ? `; its last line: ${last}` : ""}. Starting it again in ${wait / 1000} s; calls meanwhile get 503 with Retry-After.\n`);
      const timer = setTimeout(() => {
        restarts.delete(timer);
        if (closing) return;
        launch(name, port, inRow + 1);
        options.log.write(`[${name}] started again\n`);
      }, wait);
      restarts.add(timer);
    });
    return { child, tail: () => tail };
  };
  const ready = new Set<string>();
  try {
    await Promise.all(
      names.map(async (name) => {
        const port = await freePort();
        const { child, tail } = launch(name, port, 0);
        hosts[name] = `127.0.0.1:${port}`;
        const deadline = Date.now() + (options.readyTimeoutMs ?? 180_000);
        for (;;) {
          if (child.exitCode !== null) throw new Error(`The ${name} function exited while starting (code ${child.exitCode}):\n${tail()}`);
          const res = await fetch(`http://${hosts[name]}/healthz`, { signal: AbortSignal.timeout(10_000) }).catch(() => undefined);
          if (res && (res.status === 200 || res.status === 503)) return void ready.add(name); // /healthz answers once the domain has loaded
          if (Date.now() > deadline) throw new Error(`The ${name} function did not become healthy within ${Math.round((options.readyTimeoutMs ?? 180_000) / 1000)} s:\n${tail()}`);
          await new Promise((r) => setTimeout(r, 250));
        }
      }),
    );
  } catch (err) {
    await close();
    throw err;
  }
  return { hosts, pids: () => [...children.values()].map((c) => c.pid!).filter(Boolean), close };
}
