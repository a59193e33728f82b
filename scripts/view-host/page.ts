// The host page's script (bundled by host.ts): runs a tool's view in a sandboxed iframe through the
// extension SDK's AppBridge, with a light or dark host theme, and forwards what the view asks of
// the server to host.ts. window.viewHost is what the tests drive and read.
import { AppBridge, PostMessageTransport, type McpUiHostContext } from "@modelcontextprotocol/ext-apps/app-bridge";
import type { OpenedView } from "./host.js";

type Theme = "light" | "dark";

// The style variables a host hands its views (a subset of the specification's keys).
const PALETTES: Record<Theme, Record<string, string>> = {
  light: {
    "--color-background-primary": "#ffffff",
    "--color-background-secondary": "#f3f4f6",
    "--color-text-primary": "#111827",
    "--color-text-secondary": "#4b5563",
    "--color-border-primary": "#d1d5db",
    "--color-ring-primary": "#2563eb",
    "--font-sans": "'DejaVu Sans', sans-serif",
  },
  dark: {
    "--color-background-primary": "#1f2023",
    "--color-background-secondary": "#2b2d31",
    "--color-text-primary": "#f3f4f6",
    "--color-text-secondary": "#a1a1aa",
    "--color-border-primary": "#3f4147",
    "--color-ring-primary": "#8ab4ff",
    "--font-sans": "'DejaVu Sans', sans-serif",
  },
};

interface HostState {
  initialized: boolean;
  downloads: { contents: unknown[] }[];
  toolCalls: { name: string; isError: boolean }[];
  reads: string[];
  opened?: OpenedView;
}

const state: HostState = { initialized: false, downloads: [], toolCalls: [], reads: [] };
let bridge: AppBridge | undefined;
let theme: Theme = "light";
/** The room the host gives a view: the conversation's width, a tall view scrolls at 2000 px. */
type Container = NonNullable<McpUiHostContext["containerDimensions"]>;
const DEFAULT_CONTAINER: Container = { maxHeight: 2000, width: 760 };
let container: Container = DEFAULT_CONTAINER;

async function post<T>(path: string, body: unknown): Promise<T> {
  const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  const json = await res.json();
  if (!res.ok) throw new Error(json.error ?? `HTTP ${res.status}`);
  return json as T;
}

const context = (opened: OpenedView): McpUiHostContext => ({
  theme,
  styles: { variables: PALETTES[theme] as NonNullable<McpUiHostContext["styles"]>["variables"] },
  displayMode: "inline",
  availableDisplayModes: ["inline"],
  containerDimensions: container,
  locale: "en-US",
  platform: "web",
  toolInfo: { tool: opened.tool },
});

async function showView(domain: string, tool: string, args: Record<string, unknown>, wanted: Theme = theme, room: Container = DEFAULT_CONTAINER): Promise<OpenedView> {
  theme = wanted;
  container = room;
  document.body.dataset.theme = theme;
  await bridge?.close().catch(() => undefined);
  Object.assign(state, { initialized: false, downloads: [], toolCalls: [], reads: [] });
  const opened = await post<OpenedView>("/open", { domain, tool, args });
  state.opened = opened;
  document.getElementById("result")!.textContent = JSON.stringify(opened.result, null, 2);
  const holder = document.getElementById("frame")!;
  holder.replaceChildren();
  if (!opened.viewUrl) {
    holder.textContent = `${tool} has no view: the conversation shows its result as text.`;
    return opened;
  }
  const frame = document.createElement("iframe");
  frame.setAttribute("sandbox", "allow-scripts"); // no allow-same-origin: the view gets an opaque origin
  frame.title = `${domain} ${tool}`;
  frame.style.height = "200px";
  const dims = container as { width?: number; maxWidth?: number; height?: number; maxHeight?: number };
  const width = dims.width ?? dims.maxWidth;
  if (width) frame.style.width = `${width}px`;
  frame.src = opened.viewUrl;
  holder.append(frame);

  const b = new AppBridge(null, { name: "view-host", version: "1.0.0" }, { serverTools: {}, serverResources: {}, downloadFile: {} }, { hostContext: context(opened) });
  b.oncalltool = async (params) => {
    const result = await post<Awaited<ReturnType<NonNullable<AppBridge["oncalltool"]>>>>("/rpc", { domain, method: "tools/call", params });
    state.toolCalls.push({ name: params.name, isError: !!result.isError });
    return result;
  };
  b.onreadresource = (params) => {
    state.reads.push(params.uri);
    return post("/rpc", { domain, method: "resources/read", params });
  };
  b.ondownloadfile = async (params) => {
    state.downloads.push(params as HostState["downloads"][number]);
    return {};
  };
  b.onsizechange = ({ height }) => {
    if (height) frame.style.height = `${Math.min(dims.height ?? dims.maxHeight ?? 2000, height)}px`;
  };
  b.oninitialized = () => {
    void b.sendToolInput({ arguments: args }).then(() => b.sendToolResult(opened.result)).then(() => (state.initialized = true));
  };
  bridge = b;
  await b.connect(new PostMessageTransport(frame.contentWindow!, frame.contentWindow!));
  return opened;
}

function setTheme(next: Theme): void {
  theme = next;
  document.body.dataset.theme = theme;
  if (bridge && state.opened) bridge.setHostContext(context(state.opened));
}

declare global {
  interface Window {
    viewHost: { showView: typeof showView; setTheme: typeof setTheme; state: HostState };
  }
}
window.viewHost = { showView, setTheme, state };

// The form, for a person looking at views against `npm start`.
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
async function listTools() {
  const tools = await post<{ name: string; inputSchema?: { properties?: Record<string, unknown> } }[]>("/tools", { domain: $<HTMLSelectElement>("domain").value });
  $<HTMLSelectElement>("tool").replaceChildren(...tools.map((t) => Object.assign(document.createElement("option"), { textContent: t.name })));
}
$("domain").addEventListener("change", () => void listTools().catch((e: Error) => ($("result").textContent = e.message)));
$("theme").addEventListener("change", () => setTheme($<HTMLSelectElement>("theme").value as Theme));
$("form").addEventListener("submit", (e) => {
  e.preventDefault();
  let args: Record<string, unknown>;
  try {
    args = JSON.parse($<HTMLTextAreaElement>("args").value || "{}");
  } catch {
    $("result").textContent = "The arguments are not JSON.";
    return;
  }
  showView($<HTMLSelectElement>("domain").value, $<HTMLSelectElement>("tool").value, args, $<HTMLSelectElement>("theme").value as Theme).catch(
    (err: Error) => ($("result").textContent = err.message),
  );
});
if (new URLSearchParams(location.search).get("form") !== "off") void listTools().catch(() => undefined);
