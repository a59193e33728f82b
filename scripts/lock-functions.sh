#!/usr/bin/env bash
# `npm run lock:functions`: writes functions/package-lock.json from functions/package.json alone,
# as Cloud Build will install it at deploy (npm ci in functions/, no workspace hoisting).
# Run it after changing the functions' dependencies; a test checks the two agree.
source "$(dirname "$0")/toolchain.sh"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cp "$ROOT/functions/package.json" "$tmp/"
(cd "$tmp" && npm install --package-lock-only --ignore-scripts --no-audit --no-fund --loglevel=error)
cp "$tmp/package-lock.json" "$ROOT/functions/package-lock.json"
say "functions/package-lock.json updated"
