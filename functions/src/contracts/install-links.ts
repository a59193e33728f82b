// One-click ways to add an MCP function to a client, made from the function's URL in one place for
// the oauth function's connect page and `npm start`'s .local/connect.md:
//   Cursor      cursor://anysphere.cursor-deeplink/mcp/install?name=<name>&config=<base64 of {"url"}>
//   VS Code     vscode:mcp/install?<URL-encoded {"name","type":"http","url"}>
//   Claude Code claude mcp add --transport http <name> <url>
//   claude.ai   the URL itself (Settings → Connectors → Add custom connector; Claude Desktop too)
// and, for fotos, the Claude Desktop extension (fotos-mcp.mcpb) with the URL to enter in its form.
// Every function is Streamable HTTP at its own URL; signed-in ones ask for OAuth sign-in on first use.

export interface McpFunction {
  /** The function name: also the name clients list the server under. */
  name: string;
  title: string;
  url: string;
}

export interface InstallLinks extends McpFunction {
  transport: "http";
  cursor: string;
  vscode: string;
  claudeCode: string;
  /** What to paste as a claude.ai (or Claude Desktop) custom connector's URL. */
  connectorUrl: string;
  /** The Claude Desktop extension for this function, when it has one. */
  desktopBundle?: { file: string; download?: string; fotosUrlField: string };
}

/** The file name of the Claude Desktop extension (what `npm run package` builds and releases attach). */
export const FOTOS_BUNDLE_FILE = "fotos-mcp.mcpb";

export function installLinks(fn: McpFunction, opts: { bundleDownload?: string } = {}): InstallLinks {
  const cursorConfig = Buffer.from(JSON.stringify({ url: fn.url })).toString("base64");
  return {
    ...fn,
    transport: "http",
    cursor: `cursor://anysphere.cursor-deeplink/mcp/install?name=${encodeURIComponent(fn.name)}&config=${encodeURIComponent(cursorConfig)}`,
    vscode: `vscode:mcp/install?${encodeURIComponent(JSON.stringify({ name: fn.name, type: "http", url: fn.url }))}`,
    claudeCode: `claude mcp add --transport http ${fn.name} ${fn.url}`,
    connectorUrl: fn.url,
    ...(fn.name === "fotos" ? { desktopBundle: { file: FOTOS_BUNDLE_FILE, ...(opts.bundleDownload ? { download: opts.bundleDownload } : {}), fotosUrlField: fn.url } } : {}),
  };
}
