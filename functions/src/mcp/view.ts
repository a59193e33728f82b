// Views in the conversation (MCP Apps, the io.modelcontextprotocol/ui extension): a tool names a
// ui:// resource whose HTML a host shows in a sandboxed iframe and hands the tool's input and
// result. Only a client that announces the extension is told about views and app-only tools; every
// other client gets exactly the listings it got before views existed. The HTML is built from each
// domain's views/ sources at `npm run build` (functions/scripts/build-views.mjs) into lib/views/.
import { readFile } from "node:fs/promises";
import type { McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { StaticResourceDefinition, ToolView } from "./define.js";

/** The extension's id and the views' MIME type, as the extension's SDK names them (a test compares). */
export const UI_EXTENSION = "io.modelcontextprotocol/ui";
export const VIEW_MIME_TYPE = "text/html;profile=mcp-app";
/** Where hosts from before the `ui` object look for a tool's view (the SDK sets both). */
const LEGACY_RESOURCE_URI_KEY = "ui/resourceUri";
const CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities";

/** What a view may load beyond its own HTML (the spec's `_meta.ui.csp`); our views need nothing. */
export interface ViewCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
}

export function toolViewMeta(view: ToolView): Record<string, unknown> {
  return { ui: view, [LEGACY_RESOURCE_URI_KEY]: view.resourceUri };
}

/** The `ui://<domain>/<name>` resource serving lib/views/<domain>/<name>.html. */
export function viewResource(config: { domain: string; name: string; title: string; description: string; csp?: ViewCsp }): StaticResourceDefinition {
  const uri = viewUri(config.domain, config.name);
  return {
    kind: "static",
    name: `view-${config.name}`,
    uri,
    title: config.title,
    description: config.description,
    mimeType: VIEW_MIME_TYPE,
    async read() {
      const text = await viewHtml(config.domain, config.name);
      return { contents: [{ uri, mimeType: VIEW_MIME_TYPE, text, _meta: { ui: { csp: config.csp ?? {}, prefersBorder: true } } }] };
    },
  };
}

export const viewUri = (domain: string, name: string): string => `ui://${domain}/${name}`;

const built = new Map<string, Promise<string>>();
// Both src/mcp and lib/mcp sit two folders below functions/, so the built file is found from either.
function viewHtml(domain: string, name: string): Promise<string> {
  const key = `${domain}/${name}`;
  let html = built.get(key);
  if (!html) {
    html = readFile(new URL(`../../lib/views/${key}.html`, import.meta.url), "utf8");
    html.catch(() => built.delete(key)); // a build that was missing is found once it exists
    built.set(key, html);
  }
  return html;
}

/** Did this request's client announce the extension (per request in 2026-07-28, at initialize before)? */
export function announcesViews(server: McpServer, sdk: ServerContext): boolean {
  const envelope = sdk.mcpReq.envelope as Record<string, { extensions?: Record<string, unknown> } | undefined> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_KEY] ?? server.server.getClientCapabilities();
  return !!capabilities?.extensions?.[UI_EXTENSION];
}

type RawHandler = (request: unknown, sdk: ServerContext) => Promise<Record<string, unknown>>;

/**
 * Wraps the SDK's tools/list and resources/list so a client without the extension sees neither
 * app-only tools, nor views' metadata, nor ui:// resources. The SDK builds both lists itself; the
 * listing is adjusted after it, since whether a client announced the extension is known only once
 * its request arrives (the server is built before). A test proves both cases.
 */
export function offerViewsToAnnouncingClients(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, RawHandler> })._requestHandlers;
  const wrap = (method: string, strip: (result: Record<string, unknown>) => Record<string, unknown>) => {
    const original = handlers.get(method);
    if (!original) return;
    handlers.set(method, async (request, sdk) => {
      const result = await original(request, sdk);
      return announcesViews(server, sdk) ? result : strip(result);
    });
  };
  wrap("tools/list", (result) => ({
    ...result,
    tools: (result.tools as { _meta?: Record<string, unknown> }[])
      .filter((t) => !(t._meta?.ui as ToolView | undefined)?.visibility?.every((v) => v === "app"))
      .map((t) => {
        if (!t._meta) return t;
        const { ui: _ui, [LEGACY_RESOURCE_URI_KEY]: _uri, ...rest } = t._meta;
        const { _meta: _omit, ...tool } = t;
        return Object.keys(rest).length ? { ...tool, _meta: rest } : tool;
      }),
  }));
  wrap("resources/list", (result) => ({ ...result, resources: (result.resources as { uri: string }[]).filter((r) => !r.uri.startsWith("ui://")) }));
}
