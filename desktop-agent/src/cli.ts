// fotos-agent pair --server <fotos URL> [--name <name>] [--autostart]
//             run                 captures on request until stopped (Ctrl-C, tray "Quit")
//             status              pairing, pause state, autostart, and whether the server accepts the credential
//             pause | resume      refuse / accept capture requests (also from the tray)
//             autostart enable|disable
//             mcp [--standalone | --bridged]   the fotos MCP server over stdio (also the `fotos-mcp` bin)
//             mcp pair --server <fotos URL>    lets `mcp` work with your fotos function (bridged mode)
//             redact <in.png> <out.png> [--region GB]   the redaction captures get before upload, on a file
// `run` and `mcp` load their modules on use: the other commands start without the Firebase SDK,
// OCR or the MCP server (build.mjs splits them into chunks).
import { FotosApi, RevokedError } from "./api.js";
import { autostartEnabled, autostartPath, disableAutostart, enableAutostart } from "./autostart.js";
import { credentialsPath, loadCredentials, loadState, mcpCredentialsPath, saveState, type Credentials } from "./config.js";
import { MCP_CLIENT_ID, pair, type PairOptions } from "./pairing.js";
import { startTray } from "./tray.js";
import { AGENT_VERSION } from "./version.js";

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  return eq?.slice(name.length + 3);
}

const USAGE = `fotos-agent ${AGENT_VERSION}
  fotos-agent pair --server <fotos URL> [--name <name>] [--autostart]
  fotos-agent run
  fotos-agent status
  fotos-agent pause | resume
  fotos-agent autostart enable | disable
  fotos-agent mcp [--standalone | --bridged]     MCP server over stdio, for Claude Desktop, Cursor… (also: fotos-mcp)
  fotos-agent mcp pair --server <fotos URL> [--name <name>]
  fotos-agent redact <in.png> <out.png> [--region GB]   redact personal data in a PNG here, as captures are before upload
Credential file: ${credentialsPath()} (FOTOS_AGENT_HOME moves it)
`;

const mcpStatus = (server = "<fotos URL>") =>
  `mcp: ${loadCredentials(mcpCredentialsPath()) ? `paired for bridged mode (${mcpCredentialsPath()})` : `standalone only (not paired: fotos-agent mcp pair --server ${server})`}`;

/** Pairs until confirmed; Ctrl-C cancels (nothing is saved) and says so. */
async function pairOnConsole(opts: Omit<PairOptions, "signal">): Promise<Credentials> {
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  process.once("SIGINT", onInterrupt);
  try {
    return await pair({ ...opts, signal: cancel.signal });
  } catch (err) {
    if (cancel.signal.aborted) {
      process.stderr.write("fotos-agent: pairing cancelled; nothing was saved\n");
      process.exit(130);
    }
    throw err;
  } finally {
    process.off("SIGINT", onInterrupt);
  }
}

function needCreds() {
  const creds = loadCredentials();
  if (!creds) {
    process.stderr.write("This computer is not paired yet: run `fotos-agent pair --server <fotos URL>` first.\n");
    process.exit(1);
  }
  return creds;
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  switch (command) {
    case "pair": {
      const server = flag(args, "server") ?? process.env.FOTOS_SERVER;
      if (!server) throw new Error("--server <fotos URL> is required, e.g. https://us-central1-<project>.cloudfunctions.net/fotos");
      const name = flag(args, "name");
      const creds = await pairOnConsole({ server, ...(name ? { name } : {}) });
      process.stdout.write(`Paired as "${creds.deviceName}" (device ${creds.deviceId}). Credential saved to ${credentialsPath()}.\n`);
      if (args.includes("--autostart")) process.stdout.write(`Autostart entry written: ${enableAutostart()}\n`);
      process.stdout.write("Start capturing with: fotos-agent run\n");
      return;
    }
    case "run": {
      const creds = needCreds();
      const heartbeatMs = process.env.FOTOS_AGENT_HEARTBEAT_MS ? Number(process.env.FOTOS_AGENT_HEARTBEAT_MS) : undefined;
      const { Agent } = await import("./agent.js");
      let tray: Awaited<ReturnType<typeof startTray>>;
      const agent = new Agent({ creds, credentialsFile: credentialsPath(), ...(heartbeatMs ? { heartbeatMs } : {}), onStatus: (s) => tray?.update(s) });
      let stopping = false;
      const shutdown = async (code = 0) => {
        if (stopping) return;
        stopping = true;
        await agent.stop();
        await tray?.close();
        process.stdout.write(`${new Date().toISOString()} stopped\n`);
        process.exit(code);
      };
      process.on("SIGINT", () => void shutdown());
      process.on("SIGTERM", () => void shutdown());
      tray = await startTray({ togglePause: () => agent.setPaused(!loadState().paused), quit: () => void shutdown() }, (l) => process.stdout.write(`${l}\n`));
      if (!tray) process.stdout.write("console mode (no tray): Ctrl-C stops the agent; `fotos-agent pause` pauses it\n");
      await agent.start();
      return;
    }
    case "status": {
      const creds = loadCredentials();
      if (!creds) {
        process.stdout.write(`not paired (no ${credentialsPath()})\n${mcpStatus()}\n`);
        process.exitCode = 1;
        return;
      }
      let server = "credential accepted";
      try {
        await new FotosApi(creds, credentialsPath()).refresh();
      } catch (err) {
        server = err instanceof RevokedError ? `credential REVOKED. ${err.message}` : `server unreachable (${(err as Error).message})`;
        process.exitCode = 1;
      }
      process.stdout.write(
        [
          `paired: "${creds.deviceName}" (device ${creds.deviceId}) with ${creds.server} since ${creds.pairedAt}`,
          `server: ${server}`,
          `captures: ${loadState().paused ? "paused" : "active"}`,
          `autostart: ${autostartEnabled() ? autostartPath() : "off"}`,
          `credential file: ${credentialsPath()}`,
          mcpStatus(creds.server),
          "",
        ].join("\n"),
      );
      return;
    }
    case "pause":
    case "resume":
      saveState({ paused: command === "pause" });
      process.stdout.write(`captures ${command === "pause" ? "paused" : "resumed"} (a running agent picks this up within a second)\n`);
      return;
    case "autostart":
      if (args[0] === "enable") process.stdout.write(`autostart entry written: ${enableAutostart()}\n`);
      else if (args[0] === "disable") process.stdout.write(`autostart entry removed: ${disableAutostart()}\n`);
      else throw new Error("use: fotos-agent autostart enable|disable");
      return;
    case "mcp": {
      if (args[0] === "pair") {
        const server = flag(args, "server") ?? process.env.FOTOS_SERVER;
        if (!server) throw new Error("--server <fotos URL> is required, e.g. https://us-central1-<project>.cloudfunctions.net/fotos");
        const name = flag(args, "name");
        const creds = await pairOnConsole({ server, clientId: MCP_CLIENT_ID, path: mcpCredentialsPath(), ...(name ? { name } : {}) });
        process.stdout.write(`Paired "${creds.deviceName}" for AI apps on this computer. Credential saved to ${mcpCredentialsPath()}.\n`);
        process.stdout.write("`fotos-agent mcp` now works with your fotos function (bridged) whenever it is reachable.\n");
        return;
      }
      const unknown = args.filter((a) => a !== "--standalone" && a !== "--bridged");
      if (unknown.length) throw new Error(`unknown option ${unknown[0]}: use fotos-agent mcp [--standalone | --bridged], or fotos-agent mcp pair --server <fotos URL>`);
      if (args.includes("--standalone") && args.includes("--bridged")) throw new Error("choose one of --standalone and --bridged");
      const { serveMcp } = await import("./mcp/serve.js");
      await serveMcp({ standalone: args.includes("--standalone"), bridged: args.includes("--bridged") });
      return;
    }
    case "redact": {
      const [input, output] = args.filter((a, i) => !a.startsWith("--") && !args[i - 1]?.startsWith("--"));
      if (!input || !output) throw new Error("use: fotos-agent redact <in.png> <out.png> [--region GB]");
      const { redactFile } = await import("./redact-file.js");
      const runs = Number(flag(args, "runs") ?? 1);
      process.stdout.write(`${JSON.stringify(await redactFile(input, output, { region: flag(args, "region") ?? "US", runs }))}\n`);
      return;
    }
    case "--version":
    case "version":
      process.stdout.write(`${AGENT_VERSION}\n`);
      return;
    default:
      process.stdout.write(USAGE);
      if (command && command !== "help" && command !== "--help") process.exitCode = 1;
  }
}

main(process.argv.slice(2)).catch((err: Error) => {
  process.stderr.write(`fotos-agent: ${err.message}\n`);
  process.exit(err instanceof RevokedError ? 2 : 1);
});
