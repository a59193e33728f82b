#!/usr/bin/env bash
# Builds the Figma plugin for a deployed project and zips what Figma imports (manifest.json + dist/):
#   scripts/release/plugin.sh <alias> [<dest dir>]     prints the zip's path on stdout
# The plugin talks to <base>/figma and <base>/oauth of that project (scripts/deploy/project.sh).
source "$(dirname "$0")/../toolchain.sh"
source "$ROOT/scripts/deploy/project.sh"
cd "$ROOT"
[ $# -ge 1 ] || { echo "usage: scripts/release/plugin.sh <alias> [<dest dir>]" >&2; exit 2; }
project="$(alias_project "$1")" || exit 2
base="$(served_base_url "$project")"
dest="$(mkdir -p "${2:-dist/release}" && cd "${2:-dist/release}" && pwd)"
version="$(node -p 'require("./figma-plugin/package.json").version')"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
FIGMA_MCP_URL="$base/figma" FIGMA_PLUGIN_OUT="$out" node figma-plugin/build.mjs >&2
zip="$dest/figma-plugin-$version-$1.zip"
rm -f "$zip"
# One folder in the zip: unzip it, then in Figma: Plugins → Development → Import plugin from manifest…
mkdir -p "$out/mcp-bridge" && mv "$out/manifest.json" "$out/dist" "$out/mcp-bridge/"
(cd "$out" && python3 -m zipfile -c "$zip" mcp-bridge)
echo "$zip"
