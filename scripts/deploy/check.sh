#!/usr/bin/env bash
# `npm run deploy:check [-- --project staging] [-- --only queries,rules]`: everything
# `firebase deploy` would find wrong, found offline (see scripts/deploy/check.ts). Rules are
# compiled by the Firestore emulator: one is started here unless the caller already runs one.
source "$(dirname "$0")/../toolchain.sh"
cd "$ROOT"
if [ -n "${FIRESTORE_EMULATOR_HOST:-}" ]; then
  exec tsx scripts/deploy/check.ts "$@"
fi
source "$ROOT/scripts/emulator/ports.sh"
args=""
[ $# -gt 0 ] && args="$(printf ' %q' "$@")"
exec firebase emulators:exec "${FIREBASE_CONFIG_ARGS[@]}" --project demo-deploy-check --only firestore \
  "tsx scripts/deploy/check.ts$args"
