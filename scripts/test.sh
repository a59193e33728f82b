#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, starts the emulator suite (Auth, Firestore,
# Storage, Functions) and runs every test against it. Exits non-zero on any failure.
# Extra arguments go to vitest, e.g. `npm test -- test/mermaid`.
source "$(dirname "$0")/toolchain.sh"
source "$ROOT/scripts/emulator/ports.sh"
source "$ROOT/scripts/test-deps.sh"
cd "$ROOT"
say "building functions"
npm run --silent build
# Account state (disabled, claims) is re-checked every 2 s in tests instead of 60 s, so tests of
# revocation wait seconds, not minutes.
export ACCOUNT_CHECK_SECONDS="${ACCOUNT_CHECK_SECONDS:-2}"
say "starting the emulator suite and running the tests"
args=""
[ $# -gt 0 ] && args="$(printf ' %q' "$@")"
exec firebase emulators:exec "${FIREBASE_CONFIG_ARGS[@]}" --project "$GCLOUD_PROJECT" \
  --only auth,firestore,storage,functions "bash scripts/run-tests.sh$args"
