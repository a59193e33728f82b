// Bridged mode: every call goes to the person's fotos function, as that person (the `fotos-mcp`
// grant from `fotos-agent mcp pair`), over a fresh MCP connection per call; nothing of a call
// (screenshot, OCR, analysis) stays in this process. What the function cannot do from the cloud
// is capture this computer's screen: take_screenshot, and ocr/analyze without a screenshot_id,
// capture here and upload the PNG (POST /captures), so the capture is in the same history the
// remote MCP URL lists. The tool, resource and prompt definitions are the fotos domain's own;
// only their handlers are swapped for forwarding ones.
import { randomUUID } from "node:crypto";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { ProtocolError, ProtocolErrorCode, type GetPromptResult, type ReadResourceResult } from "@modelcontextprotocol/server";
import { type DomainDefinition, type ErrorResult, type RequestContext, type StructuredResult, ToolError, unauthenticated, unavailable, type FotosBackend, fotosServer, captureRedaction, settingsFrom, type Settings, type CaptureArgs, type ScreenshotMeta } from "../../../functions/src/domains/fotos/published.js";
import { LOCAL_CAPTURE_PATH, redactionParam, type LocalCaptured, type LocalCaptureQuery } from "../../../functions/src/contracts/fotos-agent.js";
import { FotosApi, RefusedError, RevokedError } from "../api.js";
import { mcpCredentialsPath, type Credentials } from "../config.js";
import { AGENT_VERSION } from "../version.js";
import { captureHereRedacted, thisComputer } from "./local-backend.js";

export class Bridge {
  private readonly api: FotosApi;

  constructor(readonly creds: Credentials) {
    this.api = new FotosApi(creds, mcpCredentialsPath());
  }

  get url(): string {
    return this.creds.server;
  }

  notReachable(detail: string): ToolError {
    return unavailable(
      `Fotos service is not reachable at ${this.url} (${detail}). Check your connection, or start fotos-agent mcp with --standalone to work on this computer only`,
    );
  }

  /** A fresh access token for every call (none is kept), or the error that says why there is none. */
  async token(): Promise<string> {
    try {
      return (await this.api.refresh()).accessToken;
    } catch (err) {
      if (err instanceof RevokedError) {
        throw unauthenticated(`This computer's Fotos grant for AI apps was revoked: run \`fotos-agent mcp pair --server ${this.url}\` again, or use --standalone`);
      }
      throw this.notReachable(shortReason(err));
    }
  }

  /** Whether the function answers now (at start, to choose the mode). */
  async reachable(): Promise<boolean> {
    try {
      await this.token();
      return true;
    } catch {
      return false;
    }
  }

  /** Runs `fn` with a client connected to the function, closed afterwards. */
  async withClient<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    const token = await this.token();
    const client = new Client({ name: "fotos-agent-mcp", version: AGENT_VERSION });
    const transport = new StreamableHTTPClientTransport(new URL(this.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
    try {
      await client.connect(transport);
    } catch (err) {
      throw this.notReachable(shortReason(err));
    }
    try {
      return await fn(client);
    } catch (err) {
      throw this.asLocalError(err);
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  /** Remote JSON-RPC errors keep their code and sentence; a dropped connection says the service is not reachable. */
  private asLocalError(err: unknown): unknown {
    if (err instanceof ToolError) return err;
    const e = err as { code?: unknown; message?: string; data?: unknown };
    if (typeof e.code === "number" && typeof e.message === "string") return new ProtocolError(e.code as ProtocolErrorCode, e.message.replace(/^MCP error -?\d+: /, ""), e.data);
    return this.notReachable(shortReason(err));
  }

  /** settings://current of the function: the person's settings over the defaults. */
  async remoteSettings(): Promise<Settings> {
    const read = await this.withClient((c) => c.readResource({ uri: "settings://current" }));
    const first = read.contents[0];
    return settingsFrom(first && "text" in first ? JSON.parse(first.text) : undefined);
  }

  /** Captures here and stores the PNG with the person's screenshots on the function. */
  async captureAndUpload(args: CaptureArgs, signal: AbortSignal): Promise<{ meta: ScreenshotMeta; png: Buffer }> {
    const mode = args.mode ?? "fullscreen";
    const { png, redaction } = await captureHereRedacted(args, signal);
    const query: LocalCaptureQuery = { mode };
    if (redaction) query.redaction = redactionParam(redaction);
    if (mode === "monitor") query.monitor_index = String(args.monitor_index ?? 0);
    if (mode === "window" && args.window_title) query.window_title = args.window_title.trim();
    try {
      // Retried for a short while with one key: a retry after a lost answer gets the first upload back.
      const upload = { binary: png, query, idempotencyKey: randomUUID(), until: Date.now() + UPLOAD_RETRY_MS };
      const meta = (await this.api.callRetrying(LOCAL_CAPTURE_PATH, undefined, upload)) as LocalCaptured & ScreenshotMeta;
      const { screenshot_id: _id, ...rest } = meta;
      return { meta: rest, png };
    } catch (err) {
      if (err instanceof RevokedError) throw unauthenticated(err.message);
      if (err instanceof RefusedError) throw new ToolError(err.status === 413 ? "too_large" : "invalid_input", err.message);
      throw this.notReachable(shortReason(err));
    }
  }

  /**
   * The backend take_screenshot runs against in bridged mode: the capture is local, the store is
   * the function's. Everything else is forwarded as a whole call (see bridgedDomain).
   */
  backend(): FotosBackend {
    const remoteOnly = () => Promise.reject(new Error("bridged mode forwards this call"));
    return {
      capture: async (args, ctx) => ({ ...(await this.captureAndUpload(args, ctx.signal)), agent: { name: thisComputer() }, otherAgents: [] }),
      save: remoteOnly,
      load: remoteOnly,
      meta: remoteOnly,
      list: async (limit) => {
        const result = await this.withClient((c) => c.callTool({ name: "list_screenshots", arguments: { limit } }));
        return ((result.structuredContent as { screenshots?: ScreenshotMeta[] } | undefined)?.screenshots ?? []) as ScreenshotMeta[];
      },
      // The person's settings on the function (take_screenshot's redact-before-upload among them).
      settings: () => this.remoteSettings(),
      aiChoice: async () => ({ models: {} }),
      ocr: remoteOnly,
      cachedOcr: remoteOnly,
      ocrEngine: remoteOnly,
      useQuota: remoteOnly,
      vision: remoteOnly,
    };
  }
}

/** How long a capture's upload is retried (a network drop, a busy or briefly unavailable function). */
const UPLOAD_RETRY_MS = 20_000;

const shortReason = (err: unknown): string => {
  const e = err as { cause?: { code?: string; message?: string }; message?: string };
  return (e.cause?.code ?? e.cause?.message ?? e.message ?? String(err)).split("\n")[0]!.slice(0, 120);
};

/** Tools that capture first when screenshot_id is omitted: here, then forwarded with the new id. */
const CAPTURE_FIRST = new Set(["ocr_screenshot", "analyze_screenshot"]);

/** The fotos server's members with handlers that forward to the function. */
export function bridgedDomain(bridge: Bridge): Pick<DomainDefinition, "tools" | "resources" | "prompts"> {
  const tools = fotosServer.tools.map((t) => {
    if (t.name === "take_screenshot") return t; // runs here, against bridge.backend()
    return {
      ...t,
      handler: async (input: Record<string, unknown>, ctx: RequestContext) => {
        let args = input;
        if (CAPTURE_FIRST.has(t.name) && input.screenshot_id === undefined) {
          const { meta } = await bridge.captureAndUpload({ mode: "fullscreen", ...captureRedaction(await bridge.remoteSettings()) }, ctx.signal);
          args = { ...input, screenshot_id: meta.id };
        }
        const result = (await bridge.withClient((c) => c.callTool({ name: t.name, arguments: args }, { signal: ctx.signal }))) as CallToolResult;
        return asHandlerResult(result);
      },
    };
  });
  const resources = fotosServer.resources.map((r) =>
    r.kind === "static"
      ? { ...r, read: (uri: URL) => bridge.withClient((c) => c.readResource({ uri: uri.href }) as Promise<ReadResourceResult>) }
      : {
          ...r,
          read: (uri: URL) => bridge.withClient((c) => c.readResource({ uri: uri.href }) as Promise<ReadResourceResult>),
          ...(r.list
            ? {
                list: async (_ctx: RequestContext, cursor: string | undefined) => {
                  const page = await bridge.withClient((c) => c.listResources(cursor ? { cursor } : {}));
                  const statics = new Set(fotosServer.resources.flatMap((s) => (s.kind === "static" ? [s.uri] : [])));
                  return { resources: page.resources.filter((x) => !statics.has(x.uri)), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
                },
              }
            : {}),
        },
  );
  const prompts = fotosServer.prompts.map((p) => ({
    ...p,
    handler: (args: Record<string, unknown>) =>
      bridge.withClient((c) => c.getPrompt({ name: p.name, arguments: Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)])) }) as Promise<GetPromptResult>),
  }));
  return { tools, resources, prompts };
}

/** A remote tool result as a definition's handler returns it (the shared layer re-checks it). */
function asHandlerResult(result: CallToolResult): StructuredResult<unknown> | ErrorResult {
  if (result.isError) return result as ErrorResult;
  const [first, ...rest] = result.content;
  const text = first?.type === "text" ? first.text : undefined;
  return { data: result.structuredContent ?? {}, ...(text !== undefined ? { text } : {}), content: first?.type === "text" ? rest : result.content };
}
