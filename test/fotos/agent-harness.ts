// What the Fotos capture tests and the capture bench need around the emulator suite: real X
// displays (Xvfb; Xorg's dummy driver for a two-output xrandr layout, which Xvfb cannot make),
// real windows with known titles and text (xterm), and the real desktop agent as a child process,
// paired through the real device flow. Missing Debian packages are installed with apt.
import { execFile, execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { Client } from "@modelcontextprotocol/client";
import { createUser, functionUrl, idTokenFor, type TestUser } from "../support/emulators.js";
import { confirmUserCode } from "../support/devices.js";
import { connect } from "../support/mcp.js";

const run = promisify(execFile);
const ROOT = new URL("../../", import.meta.url).pathname;
const AGENT_BIN = join(ROOT, "desktop-agent/bin/fotos-agent.js");
const OFFSET = Number(process.env.MCP_PORT_OFFSET ?? 0);

const PACKAGES: Record<string, string> = {
  "/usr/bin/Xvfb": "xvfb",
  "/usr/bin/xdotool": "xdotool",
  "/usr/bin/xwininfo": "x11-utils",
  "/usr/bin/xrandr": "x11-xserver-utils",
  "/usr/bin/import": "imagemagick", // /usr/local/bin/convert on some machines is a stand-in; `import` is the real one
  "/usr/bin/xterm": "xterm",
  "/usr/lib/xorg/Xorg": "xserver-xorg-core",
  "/usr/lib/xorg/modules/drivers/dummy_drv.so": "xserver-xorg-video-dummy",
  "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf": "fonts-dejavu-core",
};

/** Installs the X tools the tests need when any is missing (CI starts from a fresh machine). */
export async function ensureX11Packages(): Promise<void> {
  const missing = [...new Set(Object.entries(PACKAGES).filter(([path]) => !existsSync(path)).map(([, pkg]) => pkg))];
  if (!missing.length) return;
  const opts = { env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }, maxBuffer: 64 * 1024 * 1024 };
  await run("apt-get", ["update", "-qq"], opts);
  await run("apt-get", ["install", "-y", "-qq", "-o", "DPkg::Lock::Timeout=300", ...missing], opts);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a value (not undefined/false), or fails after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value as T;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await sleep(100);
  }
}

export interface XDisplay {
  display: string;
  stop(): Promise<void>;
}

// Display numbers per port offset, so parallel checkouts do not collide.
function freeDisplay(preferred: number): number {
  for (let n = preferred; n < preferred + 50; n++) if (!existsSync(`/tmp/.X${n}-lock`) && !existsSync(`/tmp/.X11-unix/X${n}`)) return n;
  throw new Error("no free X display number");
}

async function started(proc: ChildProcess, display: string, log: () => string): Promise<XDisplay> {
  await waitFor(`X server ${display}`, async () => {
    if (proc.exitCode !== null) throw new Error(`X server exited: ${log()}`);
    await run("xrandr", ["--current"], { env: { ...process.env, DISPLAY: display } });
    return true;
  });
  return {
    display,
    stop: async () => {
      if (proc.exitCode === null) {
        proc.kill("SIGTERM");
        await new Promise((r) => proc.once("exit", r));
      }
    },
  };
}

/** An Xvfb display of one screen. */
export async function startXvfb(width = 1920, height = 1080): Promise<XDisplay> {
  const display = `:${freeDisplay(200 + OFFSET)}`;
  let out = "";
  const proc = spawn("Xvfb", [display, "-screen", "0", `${width}x${height}x24`, "-nolisten", "tcp"], { stdio: ["ignore", "pipe", "pipe"] });
  proc.stderr!.on("data", (d) => (out += d));
  return started(proc, display, () => out);
}

/**
 * An Xorg display on the dummy driver with two outputs side by side, as xrandr reports real
 * monitors: DUMMY0 `a` at 0,0 and DUMMY1 `b` right of it.
 */
export async function startTwoMonitorDisplay(a = { width: 1920, height: 1080 }, b = { width: 1280, height: 1024 }): Promise<XDisplay> {
  const display = `:${freeDisplay(230 + OFFSET)}`;
  const dir = mkdtempSync(join(tmpdir(), "fotos-xorg-"));
  const config = join(dir, "xorg.conf");
  writeFileSync(
    config,
    `Section "ServerFlags"
  Option "DontVTSwitch" "true"
  Option "AllowMouseOpenFail" "true"
  Option "PciForceNone" "true"
  Option "AutoEnableDevices" "false"
  Option "AutoAddDevices" "false"
EndSection
Section "Device"
  Identifier "dummy"
  Driver "dummy"
  VideoRam 256000
EndSection
Section "Monitor"
  Identifier "m0"
  HorizSync 5.0 - 1000.0
  VertRefresh 5.0 - 200.0
EndSection
Section "Screen"
  Identifier "s0"
  Device "dummy"
  Monitor "m0"
  DefaultDepth 24
  SubSection "Display"
    Depth 24
    Virtual 4096 2160
  EndSubSection
EndSection
`,
  );
  let out = "";
  const proc = spawn("Xorg", [display, "-config", config, "-noreset", "-nolisten", "tcp", "-logfile", join(dir, "xorg.log")], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  proc.stderr!.on("data", (d) => (out += d));
  const x = await started(proc, display, () => out);
  const env = { ...process.env, DISPLAY: display };
  const xr = (...args: string[]) => run("xrandr", args, { env });
  for (const [output, m] of [["DUMMY0", a], ["DUMMY1", b]] as const) {
    const { stdout } = await run("cvt", [String(m.width), String(m.height), "60"]);
    const line = stdout.split("\n").find((l) => l.startsWith("Modeline"))!;
    const [name, ...timings] = line.replace(/^Modeline\s+/, "").split(/\s+/);
    const mode = name!.replace(/"/g, "");
    await xr("--newmode", mode, ...timings).catch(() => undefined); // already there when sizes repeat
    await xr("--addmode", output, mode);
  }
  const mode = (m: { width: number; height: number }) => `${m.width}x${m.height}_60.00`;
  await xr("--output", "DUMMY0", "--mode", mode(a), "--pos", "0x0", "--primary", "--output", "DUMMY1", "--mode", mode(b), "--pos", `${a.width}x0`);
  await waitFor("two monitors", async () => (await xr("--listmonitors")).stdout.includes("Monitors: 2"));
  return x;
}

export interface TestWindow {
  title: string;
  /** Geometry as X reports it (the size a window capture has). */
  width: number;
  height: number;
  close(): void;
}

/**
 * An xterm with a known title showing known text, mapped and findable by title. An xterm that
 * exits before its window shows up (seen once on a loaded machine, with no message) is started
 * again, twice at most; the error then carries what it printed.
 */
export async function openWindow(display: string, title: string, text: string, geometry = "60x8+100+100"): Promise<TestWindow> {
  const env = { ...process.env, DISPLAY: display };
  let proc: ChildProcess | undefined;
  let output = "";
  let starts = 0;
  const start = () => {
    starts++;
    output = "";
    proc = spawn("xterm", ["-T", title, "-geometry", geometry, "-fa", "DejaVu Sans Mono", "-fs", "14", "-e", "sh", "-c", `printf '%s\\n' "$0"; sleep 100000`, text], {
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    proc.stderr!.on("data", (d) => (output += d));
  };
  start();
  const id = await waitFor(`window "${title}"`, async () => {
    if (proc!.exitCode !== null || proc!.signalCode !== null) {
      if (starts >= 3) throw new Error(`xterm exited (${proc!.exitCode ?? proc!.signalCode}) ${starts} times: ${output.trim() || "no output"}`);
      start();
      return undefined;
    }
    const { stdout } = await run("xdotool", ["search", "--onlyvisible", "--name", title], { env }).catch(() => ({ stdout: "" }));
    return stdout.trim().split("\n")[0] || undefined;
  });
  await sleep(300); // let xterm draw its text
  const { stdout } = await run("xwininfo", ["-id", id], { env });
  const width = Number(/Width: (\d+)/.exec(stdout)![1]);
  const height = Number(/Height: (\d+)/.exec(stdout)![1]);
  return { title, width, height, close: () => proc!.kill("SIGTERM") };
}

/** Builds the agent once per process (its esbuild bundle, desktop-agent/dist, as `npm pack` ships it). */
let built: Promise<void> | undefined;
export function buildAgent(): Promise<void> {
  built ??= run(process.execPath, [join(ROOT, "desktop-agent/build.mjs")]).then(() => undefined);
  return built;
}

export interface AgentProcess {
  proc: ChildProcess;
  home: string;
  output(): string;
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Its exit code, once it exits by itself. */
  exited: Promise<number | null>;
  /** SIGTERM and wait for the exit (a clean shutdown tells the server at once). */
  stop(): Promise<number | null>;
  /** SIGKILL: no goodbye, as when the machine loses power. */
  kill(): Promise<void>;
}

/** `fotos-agent <args>` with its home in `home`, output collected (buildAgent() first). */
export function agentProcess(args: string[], home: string, env: Record<string, string | undefined> = {}): AgentProcess {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, FOTOS_AGENT_HOME: home, ...env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete fullEnv[k];
  const proc = spawn(process.execPath, [AGENT_BIN, ...args], { env: fullEnv, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  proc.stdout!.on("data", (d) => (out += d));
  proc.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((r) => proc.once("exit", (code) => r(code)));
  return {
    proc,
    home,
    exited,
    output: () => out,
    waitForOutput: (pattern, timeoutMs = 120_000) =>
      waitFor(`agent output ${pattern}`, () => {
        const m = pattern.exec(out);
        if (m) return m;
        if (proc.exitCode !== null) throw new Error(`agent exited (${proc.exitCode}):\n${out}`);
        return undefined;
      }, timeoutMs),
    stop: async () => {
      if (proc.exitCode === null) proc.kill("SIGTERM");
      return exited;
    },
    kill: async () => {
      if (proc.exitCode === null) proc.kill("SIGKILL");
      await exited;
    },
  };
}

export const newAgentHome = () => mkdtempSync(join(tmpdir(), "fotos-agent-home-"));

/**
 * `fotos-agent pair` as a user would run it: the agent prints a code, `confirm` plays the user
 * confirming it in the browser (confirmUserCode from test/support/devices.ts), the agent saves its
 * credential.
 */
export async function pairAgent(home: string, name: string, confirm: (userCode: string) => Promise<void>): Promise<void> {
  await buildAgent();
  const pairing = agentProcess(["pair", "--server", functionUrl("fotos"), "--name", name], home, {});
  const [code] = await pairing.waitForOutput(/\b[A-Z0-9]{4}-[A-Z0-9]{4}\b/);
  await confirm(code);
  await pairing.waitForOutput(/Paired as "/);
  const status = await new Promise<number | null>((r) => (pairing.proc.exitCode !== null ? r(pairing.proc.exitCode) : pairing.proc.once("exit", r)));
  if (status !== 0) throw new Error(`pairing failed:\n${pairing.output()}`);
}

export interface PairedAgent {
  user: TestUser;
  home: string;
  agent: AgentProcess;
  /** The person's MCP client of the fotos function. */
  client: Client;
}

/**
 * A new person whose computer runs the agent on `display`, paired as `deviceName` (the real device
 * flow), and their MCP client of fotos; what must be stopped afterwards goes on `cleanups`.
 */
export async function pairedAgent(deviceName: string, display: string, cleanups: (() => unknown)[]): Promise<PairedAgent> {
  const user = await createUser();
  const home = newAgentHome();
  await pairAgent(home, deviceName, (code) => confirmUserCode(user, code));
  // Confirming a pairing signs the person in with a password, which revokes their earlier ID tokens.
  user.token = await idTokenFor(user.uid);
  const agent = await runAgent(home, display);
  cleanups.push(() => agent.stop());
  const client = await connect("fotos", { token: user.token });
  cleanups.push(() => client.close());
  return { user, home, agent, client };
}

/** `fotos-agent run` on `display` (or with no display at all), heartbeats every 2 s. */
export async function runAgent(home: string, display: string | undefined, env: Record<string, string | undefined> = {}): Promise<AgentProcess> {
  await buildAgent();
  const agent = agentProcess(["run"], home, {
    DISPLAY: display,
    WAYLAND_DISPLAY: undefined,
    FOTOS_AGENT_HEARTBEAT_MS: "2000",
    ...env,
  });
  await agent.waitForOutput(/online as "/);
  return agent;
}

/** `fotos-agent <args>` to completion (pause, resume, status, autostart). */
export async function agentCommand(home: string, ...args: string[]): Promise<{ code: number | null; output: string }> {
  return agentCommandWith({}, home, ...args);
}

export async function agentCommandWith(env: Record<string, string | undefined>, home: string, ...args: string[]): Promise<{ code: number | null; output: string }> {
  await buildAgent();
  const p = agentProcess(args, home, env);
  const code = await new Promise<number | null>((r) => p.proc.once("exit", r));
  return { code, output: p.output() };
}

/** Kills leftovers by pid only (never by name). */
export function killQuietly(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(pid, "SIGKILL");
  } catch {
    // already gone
  }
}

export { execFileSync };

export interface Proxy {
  port: number;
  /** The network drops: open connections are cut, new ones refused. */
  down(): Promise<void>;
  /** The network is back. */
  up(): Promise<void>;
  close(): Promise<void>;
}

/**
 * An HTTP proxy to 127.0.0.1:`targetPort` that can drop and come back, on a fixed port. It keeps
 * the Host header of the target (the emulated functions derive their own URL, hence the tokens'
 * audience, from it).
 */
export async function startProxy(targetPort: number): Promise<Proxy> {
  const http = await import("node:http");
  const sockets = new Set<import("node:net").Socket>();
  let server: import("node:http").Server | undefined;
  let port = 0;
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server = http.createServer((req, res) => {
        const upstream = http.request(
          { host: "127.0.0.1", port: targetPort, method: req.method, path: req.url, headers: { ...req.headers, host: `127.0.0.1:${targetPort}` } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on("error", () => res.destroy());
        req.pipe(upstream);
      });
      server.on("connection", (s) => {
        sockets.add(s);
        s.on("close", () => sockets.delete(s));
      });
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (server!.address() as { port: number }).port;
        resolve();
      });
    });
  const down = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    server = undefined;
  };
  await listen();
  return { port, down, up: listen, close: down };
}
