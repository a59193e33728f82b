// A host for views (MCP Apps) to look at them outside an AI app: a page that runs a tool's view in a
// sandboxed iframe (allow-scripts, no same-origin) under the CSP the view declares, through the
// extension SDK's AppBridge, and a small server behind it that talks MCP to the functions as a
// client announcing the extension. Used by `npm run views` (against `npm start`) and by the view
// tests (against the emulator suite).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { CallToolResult, Client, Tool } from "@modelcontextprotocol/client";
import { UI_EXTENSION, VIEW_MIME_TYPE, type ViewCsp } from "../../functions/src/mcp/view.js";

/** What a client says to be shown views. */
export const VIEW_CAPABILITIES = { extensions: { [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } };

/** One tool call opened in the host: what the page needs to show its view. */
export interface OpenedView {
  domain: string;
  tool: Tool;
  args: Record<string, unknown>;
  result: CallToolResult;
  /** The view's document on this server (undefined: the tool has no view). */
  viewUrl?: string;
  csp?: ViewCsp;
}

export interface ViewHost {
  url: string;
  /** Calls a tool and prepares its view for the page (the page calls this too, through POST /open). */
  open(domain: string, tool: string, args: Record<string, unknown>): Promise<OpenedView>;
  close(): Promise<void>;
}

/** The CSP a host applies to a view: nothing but its own inline code and data: images unless declared. */
export function viewCsp(csp: ViewCsp = {}): string {
  const resources = (csp.resourceDomains ?? []).join(" ");
  const connect = csp.connectDomains?.length ? csp.connectDomains.join(" ") : "'none'";
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`,
    `style-src 'unsafe-inline' ${resources}`,
    `img-src data: ${resources}`,
    `font-src data: ${resources}`,
    `media-src data: ${resources}`,
    `connect-src ${connect}`,
    "frame-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ]
    .map((d) => d.trim())
    .join("; ");
}

const here = dirname(fileURLToPath(import.meta.url));

export async function startViewHost(clientFor: (domain: string) => Promise<Client>, domains: string[]): Promise<ViewHost> {
  const bundle = await build({ entryPoints: [join(here, "page.ts")], bundle: true, write: false, format: "esm", platform: "browser", target: "es2022", logLevel: "error" });
  const pageJs = bundle.outputFiles[0]!.text;
  const views = new Map<string, { html: string; csp?: ViewCsp }>();
  const tools = new Map<string, Tool[]>();
  let next = 1;

  const toolsOf = async (domain: string): Promise<Tool[]> => {
    let list = tools.get(domain);
    if (!list) {
      list = (await (await clientFor(domain)).listTools()).tools;
      tools.set(domain, list);
    }
    return list;
  };

  async function open(domain: string, name: string, args: Record<string, unknown>): Promise<OpenedView> {
    const client = await clientFor(domain);
    const tool = (await toolsOf(domain)).find((t) => t.name === name);
    if (!tool) throw new Error(`${domain} has no tool ${name} that the model may call`);
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const uri = (tool._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri;
    if (!uri) return { domain, tool, args, result };
    const read = await client.readResource({ uri });
    const content = read.contents[0] as { text?: string; mimeType?: string; _meta?: { ui?: { csp?: ViewCsp } } };
    if (content?.mimeType !== VIEW_MIME_TYPE || typeof content.text !== "string") throw new Error(`${uri} is not a view (${content?.mimeType})`);
    const id = String(next++);
    views.set(id, { html: content.text, csp: content._meta?.ui?.csp });
    return { domain, tool, args, result, viewUrl: `/view/${id}`, csp: content._meta?.ui?.csp };
  }

  // What a running view asks of the server, through the host: only tools the view may call
  // (visibility includes "app"), and resources.
  async function forward(domain: string, method: string, params: Record<string, unknown>): Promise<unknown> {
    const client = await clientFor(domain);
    if (method === "tools/call") {
      const all = (await clientFor(domain)).listTools();
      const tool = (await all).tools.find((t) => t.name === params.name);
      const visibility = (tool?._meta?.ui as { visibility?: string[] } | undefined)?.visibility ?? ["model", "app"];
      if (!tool || !visibility.includes("app")) return { isError: true, content: [{ type: "text", text: `A view may not call ${String(params.name)}.` }] };
      return client.callTool({ name: String(params.name), arguments: (params.arguments as Record<string, unknown>) ?? {} });
    }
    if (method === "resources/read") return client.readResource({ uri: String(params.uri) });
    throw new Error(`The host does not forward ${method}`);
  }

  const server: Server = createServer(async (req, res) => {
    const send = (status: number, type: string, body: string, headers: Record<string, string> = {}) =>
      res.writeHead(status, { "content-type": type, "cache-control": "no-store", ...headers }).end(body);
    try {
      const path = (req.url ?? "/").split("?")[0]!;
      if (req.method === "GET" && path === "/") return send(200, "text/html; charset=utf-8", hostPage(domains));
      if (req.method === "GET" && path === "/host.js") return send(200, "text/javascript; charset=utf-8", pageJs);
      const view = /^\/view\/(\d+)$/.exec(path);
      if (req.method === "GET" && view) {
        const stored = views.get(view[1]!);
        if (!stored) return send(404, "text/plain", "No such view");
        return send(200, "text/html; charset=utf-8", stored.html, { "content-security-policy": viewCsp(stored.csp) });
      }
      if (req.method === "POST" && path === "/open") {
        const body = await readJson(req);
        return send(200, "application/json", JSON.stringify(await open(String(body.domain), String(body.tool), (body.args as Record<string, unknown>) ?? {})));
      }
      if (req.method === "POST" && path === "/tools") {
        const body = await readJson(req);
        return send(200, "application/json", JSON.stringify((await toolsOf(String(body.domain))).filter((t) => t._meta?.ui)));
      }
      if (req.method === "POST" && path === "/rpc") {
        const body = await readJson(req);
        return send(200, "application/json", JSON.stringify(await forward(String(body.domain), String(body.method), (body.params as Record<string, unknown>) ?? {})));
      }
      send(404, "text/plain", "Not found");
    } catch (err) {
      send(500, "application/json", JSON.stringify({ error: (err as Error).message }));
    }
  });
  await new Promise<void>((resolve) => server.listen(Number(process.env.VIEW_HOST_PORT ?? 0), "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, open, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return JSON.parse(text || "{}");
}

function hostPage(domains: string[]): string {
  const options = domains.map((d) => `<option>${d}</option>`).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>View host</title>
<style>
body{margin:0;font:14px/1.4 system-ui,sans-serif;background:var(--page-bg);color:var(--page-fg)}
body[data-theme=light]{--page-bg:#f0f1f3;--page-fg:#1b1d21}body[data-theme=dark]{--page-bg:#131416;--page-fg:#e8e9eb}
form{display:flex;flex-wrap:wrap;gap:8px;align-items:flex-start;padding:12px}
textarea{width:420px;height:110px;font:12px monospace}
#conversation{padding:0 12px 12px}
iframe{display:block;width:760px;border:1px solid #8884;border-radius:10px;background:transparent}
#result{white-space:pre-wrap;font:12px monospace;max-width:760px;max-height:240px;overflow:auto}
</style></head><body data-theme="light">
<form id="form"><label>Domain <select id="domain">${options}</select></label>
<label>Tool <select id="tool"></select></label>
<label>Arguments (JSON)<br><textarea id="args">{}</textarea></label>
<label>Theme <select id="theme"><option>light</option><option>dark</option></select></label>
<button>Call and show</button></form>
<div id="conversation"><div id="frame"></div><details><summary>Result the model received</summary><div id="result"></div></details></div>
<script type="module" src="/host.js"></script></body></html>`;
}
