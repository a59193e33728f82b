// `fotos-agent mcp` (and the `fotos-mcp` bin): the fotos MCP server over stdio, for an AI app on
// this computer (Claude Desktop, Cursor) that starts it as a child process. The same six tools,
// four resources and four prompts as the fotos function, from the same definitions:
//   bridged     paired with `fotos-agent mcp pair` and the function answers (or --bridged): calls
//               go to the function as the person; captures are taken here and uploaded.
//   standalone  not paired, offline, or --standalone: everything on this computer (local-backend.ts).
// stdout carries JSON-RPC only; every log line goes to stderr.
import { Transform, type TransformCallback } from "node:stream";
import type { McpServer } from "@modelcontextprotocol/server";
import { serveStdio, StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { createLogger, createServer, OPEN, fotosServer, newScope, sayWhereKeysAreSet, TesseractOcr, VISION_INSTRUCTIONS, type BackendFactory, type DomainDefinition } from "../../../functions/src/domains/fotos/published.js";
import { loadCredentials, mcpCredentialsPath } from "../config.js";
import { AGENT_VERSION } from "../version.js";
import { Bridge, bridgedDomain } from "./bridge.js";
import { localBackend } from "./local-backend.js";
import { LocalStore } from "./local-store.js";
import { PairOnUse } from "./pair-on-use.js";

export interface ServeOptions {
  /** --standalone: never contact the function. */
  standalone?: boolean;
  /** --bridged: always the function; when it is unreachable every call says so. */
  bridged?: boolean;
}

const log = createLogger({ server: "fotos-mcp" });

const CAPTURE_INSTRUCTIONS =
  "take_screenshot {mode fullscreen|monitor|window, monitor_index, window_title, delay_ms} captures this computer's screen and returns the image (at most 1568 px a side) with its id; " +
  "the full-resolution PNG is at screenshots://{id}. list_screenshots {limit} and screenshots://recent list recent screenshots, newest first. settings://current holds the settings.";

/**
 * Chooses the mode: standalone unless paired for MCP and (when not forced) the function answers.
 * FOTOS_SERVER (the extension's fotos URL) without a pairing for it: bridged, pairing on first use.
 */
async function chooseMode(opts: ServeOptions): Promise<{ mode: "standalone"; reason: string } | { mode: "bridged"; bridge: Bridge } | { mode: "pairing"; pairing: PairOnUse }> {
  if (opts.standalone) return { mode: "standalone", reason: "--standalone" };
  const creds = loadCredentials(mcpCredentialsPath());
  const server = process.env.FOTOS_SERVER?.trim().replace(/\/+$/, "");
  if (server && creds?.server.replace(/\/+$/, "") !== server) return { mode: "pairing", pairing: new PairOnUse(server, (line) => log.info("pairing", { message: line })) };
  if (!creds) {
    if (opts.bridged) throw new Error(`--bridged needs a pairing first: run \`fotos-agent mcp pair --server <fotos URL>\` (no ${mcpCredentialsPath()})`);
    return { mode: "standalone", reason: "not paired (fotos-agent mcp pair --server <fotos URL> bridges it to your fotos function)" };
  }
  const bridge = new Bridge(creds);
  if (opts.bridged) return { mode: "bridged", bridge };
  if (await bridge.reachable()) return { mode: "bridged", bridge };
  return { mode: "standalone", reason: `the fotos function at ${creds.server} is not reachable` };
}

export async function serveMcp(opts: ServeOptions = {}): Promise<void> {
  const choice = await chooseMode(opts);
  let members: Pick<DomainDefinition, "tools" | "resources" | "prompts">;
  let backend: BackendFactory;
  let ocr: TesseractOcr | undefined;
  let where: string;
  if (choice.mode === "pairing") {
    backend = () => choice.pairing.backend();
    members = choice.pairing.domain();
    where = `Bridged to your fotos function at ${choice.pairing.server} once this computer is paired (the first call says which code to confirm): screenshots are stored there; captures are taken on this computer.`;
    log.info("pairing on first use", { server: choice.pairing.server });
  } else if (choice.mode === "bridged") {
    backend = () => choice.bridge.backend();
    members = bridgedDomain(choice.bridge);
    where = `Bridged to your fotos function at ${choice.bridge.url}: screenshots are stored there (the same history as its MCP URL); captures are taken on this computer.`;
    log.info("bridged", { server: choice.bridge.url });
  } else {
    const store = new LocalStore();
    ocr = new TesseractOcr();
    backend = localBackend(store, ocr);
    sayWhereKeysAreSet(() => ` in the environment of fotos-agent mcp (the "env" of its entry in your AI app's MCP configuration)`);
    members = fotosServer;
    where = `Standalone: screenshots are kept on this computer only (${store.dir}), OCR runs locally, settings are the defaults (FOTOS_REDACT_BEFORE_UPLOAD=1 turns on capture.redactBeforeUpload).`;
    log.info("standalone", { reason: choice.reason, folder: store.dir });
  }
  const domain: DomainDefinition = {
    ...fotosServer,
    ...members,
    version: AGENT_VERSION,
    instructions: [where, CAPTURE_INSTRUCTIONS, VISION_INSTRUCTIONS].join(" "),
    // The person at this computer, who started it: no credential to check over stdio.
    access: OPEN,
    backend,
  };
  const input = parseErrorFilter(process.stdout);
  process.stdin.pipe(input);
  // One SDK at run time (build.mjs resolves it from functions/); the type checker sees two installs.
  const handle = serveStdio(() => createServer(domain, newScope({ domain: "fotos", requestId: "stdio", clientIp: "stdio" })).server as unknown as McpServer, {
    transport: new StdioServerTransport(input, process.stdout),
    onerror: (err) => log.warn("stdio", { error: err.message }),
  });
  // The host closes stdin to stop the server: end the OCR workers and leave.
  process.stdin.once("end", () => {
    void handle
      .close()
      .catch(() => undefined)
      .then(() => ocr?.close())
      .catch(() => undefined)
      .finally(() => process.exit(0));
  });
}

/**
 * Lets through every line that is JSON; answers any other line itself with JSON-RPC -32700
 * (Parse error), and a JSON value that is not a JSON-RPC message with -32600 (Invalid Request),
 * so a malformed message gets an answer and the server keeps serving.
 */
function parseErrorFilter(stdout: NodeJS.WritableStream): Transform {
  let pending = "";
  const reply = (id: unknown, code: number, message: string) =>
    stdout.write(JSON.stringify({ jsonrpc: "2.0", id: typeof id === "string" || typeof id === "number" ? id : null, error: { code, message } }) + "\n");
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      pending += chunk.toString("utf8");
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const raw of lines) {
        const line = raw.replace(/\r$/, "");
        if (!line.trim()) continue;
        let message: unknown;
        try {
          message = JSON.parse(line);
        } catch {
          reply(null, -32700, "Parse error: the message is not valid JSON");
          continue;
        }
        if (!message || typeof message !== "object" || Array.isArray(message) || (message as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
          reply((message as { id?: unknown } | null)?.id, -32600, "Invalid Request: expected one JSON-RPC 2.0 message object per line");
          continue;
        }
        this.push(line + "\n");
      }
      done();
    },
  });
}
