// The "connect" section: for each MCP function of this deployment, the one-click install links
// (contracts/install-links.ts) as a person uses them: "Add to Cursor", "Add to VS Code", the
// `claude mcp add` line, the URL for a claude.ai connector, and for fotos the Claude Desktop
// extension. A section (not a page) so any page of this function can show it.
import type { IncomingHttpHeaders } from "node:http";
import { functionUrl } from "../../auth/urls.js";
import { installLinks, type InstallLinks } from "../../contracts/install-links.js";
import { FUNCTIONS, MCP_FUNCTIONS } from "../../core/manifest.js";
import { escapeHtml } from "./pages.js";

/** Where people download the Claude Desktop extension (e.g. a release's fotos-mcp.mcpb); docs/configuration.md. */
const bundleDownload = () => process.env.FOTOS_BUNDLE_URL?.trim() || undefined;

/** Every MCP function of this deployment (the manifest's order) with its links. */
export function connectLinks(headers: IncomingHttpHeaders): InstallLinks[] {
  const download = bundleDownload();
  return MCP_FUNCTIONS.map((name) => installLinks({ name, title: FUNCTIONS[name].title, url: functionUrl(name, headers) }, download ? { bundleDownload: download } : {}));
}

// The section's own look, carried with it to whichever page shows it.
const STYLE = `<style>.connect section{border-top:1px solid #eef0f4;padding:12px 0}.connect h2{font-size:17px;margin:0 0 6px}
.connect .row{flex-wrap:wrap}.connect a.button{display:inline-block;padding:8px 14px;border-radius:8px;background:#1a56db;color:#fff;text-decoration:none;font-weight:600;font-size:14px}
.connect code{font:13px ui-monospace,Menlo,monospace;background:#f0f3fa;padding:2px 6px;border-radius:6px;word-break:break-all;user-select:all}</style>`;

const code = (text: string) => `<code class="copy">${escapeHtml(text)}</code>`;

function desktopBundle(l: InstallLinks): string {
  const b = l.desktopBundle;
  if (!b) return "";
  const get = b.download
    ? `<a class="button" href="${escapeHtml(b.download)}" download>Download the Claude Desktop extension</a>`
    : `<span class="muted">Claude Desktop extension: <b>${escapeHtml(b.file)}</b> from the project's release (or <code>npm run package</code> builds it)</span>`;
  return `<p>${get} — open it in Claude Desktop and enter ${code(b.fotosUrlField)} as “Fotos function URL” (empty: screenshots stay on that computer).</p>`;
}

export function connectSection(headers: IncomingHttpHeaders): string {
  const items = connectLinks(headers)
    .map(
      (l) => `<section class="server" id="connect-${escapeHtml(l.name)}"><h2>${escapeHtml(l.title)} <span class="muted">${escapeHtml(l.name)}</span></h2>
<p class="row"><a class="button" href="${escapeHtml(l.cursor)}">Add to Cursor</a><a class="button" href="${escapeHtml(l.vscode)}">Add to VS Code</a></p>
<p>Claude Code: ${code(l.claudeCode)}</p>
<p>claude.ai and Claude Desktop (Settings → Connectors → Add custom connector): ${code(l.connectorUrl)}</p>${desktopBundle(l)}</section>`,
    )
    .join("\n");
  return `${STYLE}<div class="connect">${items}</div>`;
}
