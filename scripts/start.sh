#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, starts the Auth, Firestore and Storage emulators
# (their chatter goes to .local/emulators.log), then scripts/dev-session.ts serves each function
# from one process behind the front, with demo data, and prints the URLs and how to connect.
# Ctrl-C stops everything it started.
source "$(dirname "$0")/toolchain.sh"
source "$ROOT/scripts/emulator/ports.sh"
source "$ROOT/scripts/emulator/build.sh"
cd "$ROOT"
build_functions
LOCAL="${MCP_LOCAL_DIR:-$ROOT/.local}"
mkdir -p "$LOCAL"
emulators_log="$LOCAL/emulators.log"
say "starting the Auth, Firestore and Storage emulators (log: ${emulators_log#$ROOT/})"
firebase emulators:start "${FIREBASE_CONFIG_ARGS[@]}" --project "$GCLOUD_PROJECT" --only auth,firestore,storage >"$emulators_log" 2>&1 &
emulators=$!
stop() {
  trap - EXIT INT TERM
  [ -n "${session:-}" ] && kill -TERM "$session" 2>/dev/null && wait "$session" 2>/dev/null
  kill -INT "$emulators" 2>/dev/null && wait "$emulators" 2>/dev/null
  return 0
}
trap stop EXIT
trap 'stop; exit 0' INT TERM
# The functions load while the emulators start (loading needs none of them); the session loads the
# demo data once the emulators say they are ready (MCP_EMULATORS_LOG).
export FIRESTORE_EMULATOR_HOST="$SUITE_FIRESTORE_HOST" FIREBASE_AUTH_EMULATOR_HOST="$SUITE_AUTH_HOST" \
  FIREBASE_STORAGE_EMULATOR_HOST="$SUITE_STORAGE_HOST" FIREBASE_EMULATOR_HUB="$SUITE_HUB_HOST" \
  MCP_LOCAL_DIR="$LOCAL" MCP_EMULATORS_LOG="$emulators_log"
# node --import tsx rather than the tsx CLI: one process less for the whole session.
node --import tsx scripts/dev-session.ts &
session=$!
# Whichever ends first: the session (Ctrl-C, or it failed and said why) or the emulators (they
# could not start, e.g. Java missing: say so with the end of their log).
wait -n "$session" "$emulators" || true
if ! kill -0 "$emulators" 2>/dev/null; then
  echo "The emulators stopped; the end of ${emulators_log#$ROOT/}:" >&2
  tail -n 15 "$emulators_log" >&2
  exit 1
fi
wait "$session"
