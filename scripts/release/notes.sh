#!/usr/bin/env bash
# The head of a release's notes (GitHub appends the generated list of changes):
#   scripts/release/notes.sh <tag> <alias>
source "$(dirname "$0")/../deploy/project.sh"
cd "$(dirname "$0")/../.."
[ $# -eq 2 ] || { echo "usage: scripts/release/notes.sh <tag> <alias>" >&2; exit 2; }
tag="$1"
project="$(alias_project "$2")" || exit 2
base="$(served_base_url "$project")"
version="${tag#v}"
cat <<MD
## Install

**Desktop agent** (screenshots for the \`fotos\` MCP server), on the computer to capture:

\`\`\`bash
npx -y fotos-agent@$version pair --server $base/fotos   # sign in and confirm the code in your browser
npx -y fotos-agent@$version run
\`\`\`

Screenshots in Claude Desktop or Cursor without the cloud: \`npx -y fotos-agent@$version mcp\` as a
stdio MCP server (docs/fotos.md). The package is published with npm provenance: \`npm audit signatures\`
verifies it was built by this repository's release workflow.

**Claude Desktop extension**: download \`fotos-mcp.mcpb\` below and open it (double-click) in
Claude Desktop; leave "Fotos function URL" empty to keep screenshots on your computer, or enter
\`$base/fotos\` to keep them in your account (the first tool call shows a code to confirm).

**Without Node**: \`fotos-mcp-<os>-<arch>\` (the stdio MCP server) and \`fotos-agent-<os>-<arch>\`
(the capturing agent) below are single executables; give your MCP client the path of
\`fotos-mcp-…\` as its command. Each file has a \`.sha256\` beside it (\`sha256sum -c <file>.sha256\`).
On Linux and macOS make it executable after downloading (\`chmod +x <file>\`); they are not signed,
so macOS asks once (or: \`xattr -d com.apple.quarantine <file>\`).

**Figma plugin** (the \`figma\` MCP server's bridge): download \`figma-plugin-*.zip\` below, unzip it,
then in the Figma desktop app **Plugins → Development → Import plugin from manifest…** →
\`mcp-bridge/manifest.json\`. It talks only to \`$base\`.

**MCP URLs**: \`$base/<domain>\` for mermaid, knowledge, dermal, fotos and figma (docs/deploy.md).
MD
