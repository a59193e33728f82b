#!/usr/bin/env bash
# `npm start`: installs what is missing, builds, starts the emulator suite with demo data and
# prints each domain's MCP URL and client configs. Ctrl-C stops everything it started.
source "$(dirname "$0")/toolchain.sh"
source "$ROOT/scripts/emulator/ports.sh"
cd "$ROOT"
say "building functions"
npm run --silent build
say "starting the emulator suite (Auth, Firestore, Storage, Functions)"
exec firebase emulators:exec "${FIREBASE_CONFIG_ARGS[@]}" --project "$GCLOUD_PROJECT" \
  --only auth,firestore,storage,functions "tsx scripts/dev-session.ts"
