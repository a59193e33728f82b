// Builds the MCP server for one request from a domain's definitions. Stateless by design: every
// HTTP request gets a fresh server (a shared one would leak state between callers), so this
// must stay cheap: it only registers plain definitions.
import { readFileSync } from "node:fs";
import { z } from "zod";
import {
  completable,
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  type CallToolResult,
  type GetPromptResult,
  type ReadResourceResult,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { guardResultSize, jsonText, textContent } from "./content.js";
import type { DomainDefinition, RequestContext, ResourceTemplateDefinition, StructuredResult, ToolDefinition } from "./define.js";
import { decodeCursor, encodeCursor } from "./cursor.js";
import { asToolError, INTERNAL_ERROR_TEXT, invalidInput, ToolError } from "../core/errors.js";
import { handlerContext, type RequestScope } from "../handler/scope.js";
import { parseInput, passThrough } from "./validation.js";
import { offerViewsToAnnouncingClients, toolViewMeta } from "./view.js";

/**
 * The deployed package's version is every server's version. Bundled into another package (the
 * fotos stdio server in fotos-agent) this file is not there: that domain announces its own.
 */
export const PACKAGE_VERSION: string = (() => {
  try {
    return JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;
  } catch {
    return "0.0.0";
  }
})();

/**
 * A domain's MCP server for one scope, for any host: the function (a server per request, through
 * the SDK's stateless handler: http/serve-mcp.ts), `fotos-agent mcp` over stdio (one scope for its
 * process) and the in-process tests. `cleanup` closes it.
 */
export function createServer(domain: DomainDefinition, scope: RequestScope): { server: McpServer; cleanup(): Promise<void> } {
  const server = buildServer(domain, scope);
  return { server, cleanup: () => server.close() };
}

/** The MCP server for one request, its handlers bound to that request's scope. */
export function buildServer(domain: DomainDefinition, scope: RequestScope): McpServer {
  const server = new McpServer(
    { name: domain.serverName ?? `${domain.name}-mcp`, title: domain.title, version: domain.version ?? PACKAGE_VERSION, description: domain.description },
    {
      instructions: domain.instructions,
      // The lists never change while a server runs, and a per-request server could not deliver a
      // change anyway: with no listChanged to honour, a client's subscriptions/listen is answered
      // and closed at once instead of holding a request slot (and an instance) open.
      capabilities: {
        tools: { listChanged: false },
        ...(domain.resources?.length ? { resources: { listChanged: false }, completions: {} } : {}),
        ...(domain.prompts?.length ? { prompts: { listChanged: false }, completions: {} } : {}),
      },
    },
  );
  const context = (sdk?: ServerContext): RequestContext => contextFor(scope, domain.backend, sdk);

  for (const t of domain.tools) registerTool(server, t, context);
  for (const r of domain.resources ?? []) {
    if (r.kind === "static") {
      server.registerResource(r.name, r.uri, { title: r.title, description: r.description, mimeType: r.mimeType }, (uri, sdk) =>
        guardResource(() => r.read(uri, context(sdk)), uri.href, scope),
      );
    } else {
      const complete = Object.fromEntries(
        Object.entries(r.complete ?? {}).map(([name, fn]) => [name, (value: string) => completeSafely(() => fn(value, context()), scope)]),
      );
      const template = new ResourceTemplate(r.uriTemplate, { list: undefined, complete });
      server.registerResource(r.name, template, { title: r.title, description: r.description, mimeType: r.mimeType }, (uri, vars, sdk) =>
        guardResource(() => r.read(uri, decodeVariables(vars), context(sdk)), uri.href, scope),
      );
    }
  }
  const listable = (domain.resources ?? []).filter((r): r is ResourceTemplateDefinition => r.kind === "template" && !!r.list);
  if (listable.length) overrideResourceList(server, domain, listable, context, scope);
  if (domain.tools.some((t) => t.ui)) offerViewsToAnnouncingClients(server);

  for (const p of domain.prompts ?? []) {
    const shape: Record<string, z.ZodType> = { ...p.argsSchema.shape };
    const completes = Object.entries(p.complete ?? {});
    for (const [name, fn] of completes) {
      const field = shape[name];
      // completable() marks the schema object itself, and the callback closes over this request's
      // caller: mark a fresh clone per request, never the definition's shared schema.
      if (field) shape[name] = completable(field.clone(), (value: unknown) => completeSafely(() => fn(String(value ?? ""), context()), scope));
    }
    server.registerPrompt(p.name, { title: p.title, description: p.description, argsSchema: completes.length ? z.object(shape) : p.argsSchema }, async (args: unknown, sdk: ServerContext) => {
      try {
        const out = await p.handler(args as never, context(sdk));
        return typeof out === "string" ? promptText(p.description, out) : out;
      } catch (err) {
        throw toProtocolError(err, scope, `prompt ${p.name}`);
      }
    });
  }
  return server;
}

function registerTool(server: McpServer, t: ToolDefinition, context: (sdk?: ServerContext) => RequestContext): void {
  server.registerTool(
    t.name,
    {
      title: t.title,
      description: t.description,
      inputSchema: passThrough(t.inputSchema),
      ...(t.outputSchema ? { outputSchema: passThrough(t.outputSchema) } : {}),
      annotations: { title: t.title, ...t.annotations },
      ...(t.ui ? { _meta: toolViewMeta(t.ui) } : {}),
    },
    async (args: unknown, sdk: ServerContext): Promise<CallToolResult> => {
      const ctx = context(sdk);
      const started = performance.now();
      try {
        const input = parseInput(t.inputSchema, args);
        const out = await t.handler(input, ctx);
        const { result, structuredBytes } = toCallToolResult(t, out, ctx);
        ctx.log.info("tool call", { tool: t.name, ms: Math.round(performance.now() - started) });
        return await guardResultSize(result, undefined, structuredBytes);
      } catch (err) {
        const error = asToolError(err);
        if (error.kind === "internal") {
          ctx.log.error("tool failed", { tool: t.name, err });
          return { isError: true, content: [textContent(`${INTERNAL_ERROR_TEXT} (request id ${ctx.requestId}).`)] };
        }
        ctx.log.info("tool error", { tool: t.name, kind: error.kind, ms: Math.round(performance.now() - started) });
        return { isError: true, content: [textContent(error.toText())] };
      }
    },
  );
}

/** The SDK's result of a handler's answer; for structured data, also its serialised length (the structuredContent's size). */
function toCallToolResult(t: ToolDefinition, out: unknown, ctx: RequestContext): { result: CallToolResult; structuredBytes?: number } {
  if (typeof out === "string") return { result: { content: [textContent(out)] } };
  if (!t.outputSchema || (out as CallToolResult).isError === true) return { result: out as CallToolResult };
  const { data, text, content = [] } = out as StructuredResult<unknown>;
  const check = t.outputSchema.safeParse(data);
  if (!check.success) {
    // A bug on our side, not the caller's: log the details, answer generically.
    ctx.log.error("tool output does not match its outputSchema", { tool: t.name, issues: check.error.issues.slice(0, 5) });
    throw new Error(`output schema mismatch in ${t.name}`);
  }
  // Serialised once: the text (when the handler gives none) and the size guard share it.
  const compact = JSON.stringify(data);
  return {
    result: { content: [textContent(text ?? jsonText(data, compact)), ...content], structuredContent: data as Record<string, unknown> },
    structuredBytes: compact.length,
  };
}

function contextFor(scope: RequestScope, backend: unknown, sdk?: ServerContext): RequestContext {
  const token = sdk?.mcpReq._meta?.progressToken;
  const progress: RequestContext["progress"] = async (done, total, message) => {
    if (token === undefined || !sdk) return;
    await sdk.mcpReq
      .notify({ method: "notifications/progress", params: { progressToken: token, progress: done, ...(total !== undefined ? { total } : {}), ...(message ? { message } : {}) } })
      .catch(() => undefined);
  };
  return handlerContext(scope, backend, progress, anySignal([sdk?.mcpReq.signal, scope.signal]));
}

// The SDK's signal sees a cancel notification on the same stream; the request's signal sees the
// client hang up. A handler stops on either.
function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => !!s);
  if (present.length === 1) return present[0]!;
  return present.length ? AbortSignal.any(present) : new AbortController().signal;
}

function decodeVariables(vars: Record<string, string | string[]>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(vars).map(([k, v]) => {
      const raw = Array.isArray(v) ? v.join("/") : v;
      try {
        return [k, decodeURIComponent(raw)];
      } catch {
        throw invalidInput(`The resource URI is not correctly URL-encoded in "${k}": encode it with encodeURIComponent`);
      }
    }),
  );
}

// Completion is a convenience: a failure (or an odd prefix) yields no suggestions, never an error
// that could carry internals. At most 100 values, as the spec allows.
async function completeSafely(run: () => Promise<string[]>, scope: RequestScope): Promise<string[]> {
  try {
    return (await run()).slice(0, 100);
  } catch (err) {
    if (!(err instanceof ToolError)) scope.log.error("completion failed", { err });
    return [];
  }
}

async function guardResource(read: () => Promise<ReadResourceResult>, uri: string, scope: RequestScope): Promise<ReadResourceResult> {
  try {
    return await read();
  } catch (err) {
    throw toProtocolError(err, scope, `resource ${uri}`, uri);
  }
}

// Resource and prompt failures are JSON-RPC errors (the spec's shape for them), with the same
// sentences as tool errors. Someone else's record reads as "not found": existence is not revealed.
function toProtocolError(err: unknown, scope: RequestScope, what: string, uri?: string): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const error = asToolError(err);
  if (error.kind === "internal") {
    scope.log.error(`${what} failed`, { err });
    return new ProtocolError(ProtocolErrorCode.InternalError, `${INTERNAL_ERROR_TEXT} (request id ${scope.requestId}).`);
  }
  if (uri && (error.kind === "not_found" || error.kind === "forbidden")) {
    return new ProtocolError(-32002 as ProtocolErrorCode, error.toText(), { uri });
  }
  const code = error.kind === "invalid_input" ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
  return new ProtocolError(code, error.toText());
}

function guardCursor<T>(decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, asToolError(err).toText());
  }
}

function promptText(description: string, text: string): GetPromptResult {
  return { description, messages: [{ role: "user", content: { type: "text", text } }] };
}

// resources/list with pagination across the templates that can enumerate their resources.
// The cursor names the template and that template's own cursor.
function overrideResourceList(
  server: McpServer,
  domain: DomainDefinition,
  templates: ResourceTemplateDefinition[],
  context: (sdk?: ServerContext) => RequestContext,
  scope: RequestScope,
): void {
  const statics = (domain.resources ?? []).flatMap((r) =>
    r.kind === "static" ? [{ uri: r.uri, name: r.name, title: r.title, description: r.description, mimeType: r.mimeType }] : [],
  );
  server.server.setRequestHandler("resources/list", async (request, sdk) => {
    const cursor = request.params?.cursor;
    const position = cursor
      ? guardCursor(() =>
          decodeCursor(cursor, (v) =>
            Number.isInteger(v.t) && templates[v.t as number] && (v.c === undefined || typeof v.c === "string")
              ? { index: v.t as number, inner: v.c as string | undefined }
              : undefined,
          ),
        )
      : { index: 0, inner: undefined };
    const { index, inner } = position;
    const template = templates[index]!;
    const page = await template.list!(context(sdk), inner).catch((err) => {
      throw toProtocolError(err, scope, `resources/list of ${template.name}`);
    });
    const next = page.nextCursor !== undefined ? { t: index, c: page.nextCursor } : index + 1 < templates.length ? { t: index + 1 } : undefined;
    return {
      resources: [...(cursor ? [] : statics), ...page.resources.map((r) => ({ mimeType: template.mimeType, ...r }))],
      ...(next ? { nextCursor: encodeCursor(next) } : {}),
    };
  });
}
