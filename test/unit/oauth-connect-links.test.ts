// The /connect section as a deployment shows it: production URLs (PUBLIC_BASE_URL) in every link,
// and the Claude Desktop extension's download where FOTOS_BUNDLE_URL says (docs/configuration.md).
import { afterEach, expect, test } from "vitest";
import { MCP_FUNCTIONS } from "../../functions/src/core/manifest.js";
import { connectLinks, connectSection } from "../../functions/src/domains/oauth/connect.js";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

function deployed(env: Record<string, string>) {
  delete process.env.FUNCTIONS_EMULATOR;
  Object.assign(process.env, { PUBLIC_BASE_URL: "https://mcp.example.com/", ...env });
}

test("deployed: every link names the public URL; fotos links its extension's download", () => {
  deployed({ FOTOS_BUNDLE_URL: "https://github.com/acme/mcp/releases/latest/download/fotos-mcp.mcpb" });
  const links = connectLinks({ host: "ignored.example" });
  expect([...MCP_FUNCTIONS].sort()).toEqual(["dermal", "figma", "fotos", "knowledge", "mermaid"]);
  expect(links.map((l) => l.url)).toEqual(MCP_FUNCTIONS.map((n) => `https://mcp.example.com/${n}`));
  const fotos = links.find((l) => l.name === "fotos")!;
  expect(fotos.desktopBundle).toEqual({ file: "fotos-mcp.mcpb", download: "https://github.com/acme/mcp/releases/latest/download/fotos-mcp.mcpb", fotosUrlField: "https://mcp.example.com/fotos" });
  expect(links.filter((l) => l.desktopBundle).map((l) => l.name)).toEqual(["fotos"]);
  expect(connectSection({})).toContain('<a class="button" href="https://github.com/acme/mcp/releases/latest/download/fotos-mcp.mcpb" download>Download the Claude Desktop extension</a>');
});

test("without FOTOS_BUNDLE_URL the section names the file instead of linking nowhere", () => {
  deployed({});
  delete process.env.FOTOS_BUNDLE_URL;
  const html = connectSection({});
  expect(html).not.toContain("Download the Claude Desktop extension");
  expect(html).toContain("<b>fotos-mcp.mcpb</b> from the project's release");
});

test("links are HTML-escaped in the page: & in a link stays one &", () => {
  deployed({ FOTOS_BUNDLE_URL: "https://dl.example/get?file=fotos-mcp.mcpb&v=1" });
  const html = connectSection({});
  expect(html).toContain('href="https://dl.example/get?file=fotos-mcp.mcpb&amp;v=1"');
  expect(html).toMatch(/href="cursor:\/\/anysphere\.cursor-deeplink\/mcp\/install\?name=dermal&amp;config=/);
});
