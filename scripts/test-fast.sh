#!/usr/bin/env bash
# `npm run test:fast -- [files…]`: the in-process tier alone (test/fast/ by default), in seconds:
# servers built by the functions' own factory, real MCP clients in-process, and only the Firestore
# emulator. `npm test` runs this tier too, with the end-to-end tier against the whole emulator suite.
source "$(dirname "$0")/toolchain.sh"
source "$ROOT/scripts/emulator/ports.sh"
cd "$ROOT"
[ $# -eq 0 ] && set -- test/fast
args="$(printf ' %q' "$@")"
exec firebase emulators:exec "${FIREBASE_CONFIG_ARGS[@]}" --project "$GCLOUD_PROJECT" \
  --only firestore "bash scripts/run-tests.sh$args"
