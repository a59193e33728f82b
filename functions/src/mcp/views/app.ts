// The view side of the MCP Apps protocol (specification 2026-01-26), bundled into every view: JSON-RPC
// over postMessage with the host (ui/initialize, the tool's input and result, theme changes, size,
// and the server's tools and resources called through the host). The extension SDK's App class does
// the same but brings the whole MCP client and zod (≈380 KB minified) into each single-file view;
// the views are held to 150 KB, so they speak the few messages they need here, typed by the SDK.
import type { McpUiHostContext, McpUiInitializeResult, McpUiStyles } from "@modelcontextprotocol/ext-apps";
import type { CallToolResult, ReadResourceResult } from "@modelcontextprotocol/server";

/** The protocol version the views speak (the SDK's LATEST_PROTOCOL_VERSION; a test compares). */
export const VIEW_PROTOCOL_VERSION = "2026-01-26";

export interface ViewHandlers {
  /** The arguments the tool was called with. */
  input?(args: Record<string, unknown>): void;
  /** The tool's result, exactly as the model's host received it. */
  result?(result: CallToolResult): void;
  /** The tool call was cancelled before it answered. */
  cancelled?(reason: string | undefined): void;
  /** The host's theme changed (also called once after connecting). */
  theme?(theme: "light" | "dark"): void;
  /** The room the host gives the view changed (containerDimensions). */
  room?(room: Room): void;
}

/** The most the host shows of the view, in CSS pixels (undefined: no limit). */
export interface Room {
  maxWidth?: number;
  maxHeight?: number;
}

/** The host's containerDimensions as limits: a fixed size is the most there is room for. */
export function roomOf(context: McpUiHostContext): Room {
  const dims = (context.containerDimensions ?? {}) as { width?: number; maxWidth?: number; height?: number; maxHeight?: number };
  return { maxWidth: dims.width ?? dims.maxWidth, maxHeight: dims.height ?? dims.maxHeight };
}

export interface View {
  readonly context: McpUiHostContext;
  /** A server tool, through the host (the host checks the tool may be called by a view). A failure to reach it is an error result too. */
  callTool(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  readResource(uri: string): Promise<ReadResourceResult>;
  /** Asks the host to save a file for the person (a host may decline: the answer says so). */
  download(filename: string, mimeType: string, content: { text: string } | { blob: string }): Promise<boolean>;
}

interface Message {
  jsonrpc: "2.0";
  id?: number | string;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

export async function connectView(name: string, handlers: ViewHandlers): Promise<View> {
  let nextId = 1;
  const pending = new Map<number | string, { resolve(v: Record<string, unknown>): void; reject(e: Error): void }>();
  const send = (message: Omit<Message, "jsonrpc">) => window.parent.postMessage({ jsonrpc: "2.0", ...message }, "*");
  const request = <T>(method: string, params: Record<string, unknown>): Promise<T> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: Record<string, unknown>) => void, reject });
      send({ id, method, params });
    });
  const notify = (method: string, params: Record<string, unknown> = {}) => send({ method, params });

  let context: McpUiHostContext = {};
  const applyContext = (next: McpUiHostContext) => {
    const themeChanged = next.theme !== undefined && next.theme !== context.theme;
    const roomChanged = next.containerDimensions !== undefined;
    context = { ...context, ...next };
    applyHostStyles(context);
    if (themeChanged) handlers.theme?.(context.theme ?? "light");
    if (roomChanged) handlers.room?.(roomOf(context));
  };

  window.addEventListener("message", (event) => {
    if (event.source !== window.parent) return; // only the host speaks to a view
    const message = event.data as Message;
    if (!message || message.jsonrpc !== "2.0") return;
    if (message.id !== undefined && !message.method) {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (message.error) waiting?.reject(new Error(message.error.message));
      else waiting?.resolve(message.result ?? {});
      return;
    }
    const params = message.params ?? {};
    switch (message.method) {
      case "ui/notifications/tool-input":
        handlers.input?.((params.arguments as Record<string, unknown>) ?? {});
        break;
      case "ui/notifications/tool-result":
        handlers.result?.(params as unknown as CallToolResult);
        break;
      case "ui/notifications/tool-cancelled":
        handlers.cancelled?.(params.reason as string | undefined);
        break;
      case "ui/notifications/host-context-changed":
        applyContext(params as McpUiHostContext);
        break;
      case "ui/resource-teardown":
      case "ping":
        if (message.id !== undefined) send({ id: message.id, result: {} });
        break;
      default:
        if (message.id !== undefined) send({ id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
    }
  });

  const init = await request<McpUiInitializeResult>("ui/initialize", {
    appInfo: { name, version: "1.0.0" },
    appCapabilities: {},
    protocolVersion: VIEW_PROTOCOL_VERSION,
  });
  context = init.hostContext ?? {};
  applyHostStyles(context);
  handlers.theme?.(context.theme ?? "light");
  notify("ui/notifications/initialized");

  // The host sizes the frame to the view: report the document's size whenever it changes.
  let last = "";
  new ResizeObserver(() => {
    const size = { width: Math.ceil(document.documentElement.scrollWidth), height: Math.ceil(document.documentElement.scrollHeight) };
    const key = `${size.width}x${size.height}`;
    if (key !== last) notify("ui/notifications/size-changed", size);
    last = key;
  }).observe(document.body);

  return {
    get context() {
      return context;
    },
    callTool: (toolName, args) =>
      request<CallToolResult>("tools/call", { name: toolName, arguments: args }).catch((err: Error) => ({ isError: true, content: [{ type: "text", text: err.message }] })),
    readResource: (uri) => request<ReadResourceResult>("resources/read", { uri }),
    async download(filename, mimeType, content) {
      const answer = await request<{ isError?: boolean }>("ui/download-file", {
        contents: [{ type: "resource", resource: { uri: `file:///${encodeURIComponent(filename)}`, mimeType, ...content } }],
      }).catch(() => ({ isError: true }));
      return !answer.isError;
    },
  };
}

/** The host's theme and CSS variables on the document; views style themselves with the variables. */
function applyHostStyles(context: McpUiHostContext): void {
  const root = document.documentElement;
  const theme = context.theme ?? "light";
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  const variables = (context.styles?.variables ?? {}) as Partial<McpUiStyles>;
  for (const [name, value] of Object.entries(variables)) if (value) root.style.setProperty(name, value);
  // The view never lays itself out wider than the host's container (base.css reads this).
  const { maxWidth } = roomOf(context);
  if (maxWidth) root.style.setProperty("--room-width", `${maxWidth}px`);
  else root.style.removeProperty("--room-width");
}

/** The text of a result's first text block (errors are sentences there). */
export function resultText(result: CallToolResult): string {
  const block = result.content?.find((c) => c.type === "text");
  return block && block.type === "text" ? block.text : "";
}

/** An element with text and optional class (never HTML from a result: text only). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.append(...children);
  return node;
}

/** An SVG element with attributes. */
export function svgEl<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

/** Shows a failure in the view, in words, in place of what it would have shown. */
export function showError(target: HTMLElement, title: string, detail?: string): void {
  target.replaceChildren(el("div", { class: "error", role: "alert" }, el("strong", {}, title), ...(detail ? [el("pre", {}, detail)] : [])));
}
