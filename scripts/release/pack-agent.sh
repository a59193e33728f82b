#!/usr/bin/env bash
# Packs the desktop agent (npm package `fotos-agent`) the way npm publish would:
#   scripts/release/pack-agent.sh [<dest dir>]     prints the tarball's path on stdout
# With RELEASE_TAG=v<x.y.z> (the release workflow) the tag must equal the package's version.
source "$(dirname "$0")/../toolchain.sh"
cd "$ROOT"
dest="$(mkdir -p "${1:-dist/release}" && cd "${1:-dist/release}" && pwd)"
version="$(node -p 'require("./desktop-agent/package.json").version')"
if [ -n "${RELEASE_TAG:-}" ] && [ "$RELEASE_TAG" != "v$version" ]; then
  echo "pack-agent: tag $RELEASE_TAG does not match desktop-agent/package.json version $version (set \"version\": \"${RELEASE_TAG#v}\" and tag again)" >&2
  exit 2
fi
# prepack builds dist/; --json names the tarball.
name="$(npm pack -w fotos-agent --pack-destination "$dest" --json --loglevel=error | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>process.stdout.write(JSON.parse(s)[0].filename))')"
echo "$dest/$name"
