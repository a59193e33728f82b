#!/usr/bin/env bash
# Runs a TypeScript script with the project's toolchain: `bash scripts/run.sh scripts/x.ts args…`.
# Used by npm scripts such as `npm run kb:import` and `npm run token`. When the local emulator
# suite is running (`npm start`) and MCP_TARGET is not "production", the script talks to it.
source "$(dirname "$0")/toolchain.sh"
MCP_PORT_OFFSET="${MCP_PORT_OFFSET:-0}"
if [ "${MCP_TARGET:-}" != "production" ] && [ -z "${FIRESTORE_EMULATOR_HOST:-}" ] \
   && (exec 3<>"/dev/tcp/127.0.0.1/$((4400 + MCP_PORT_OFFSET))") 2>/dev/null; then
  export FIRESTORE_EMULATOR_HOST="127.0.0.1:$((8080 + MCP_PORT_OFFSET))"
  export FIREBASE_AUTH_EMULATOR_HOST="127.0.0.1:$((9099 + MCP_PORT_OFFSET))"
  export FIREBASE_STORAGE_EMULATOR_HOST="127.0.0.1:$((9199 + MCP_PORT_OFFSET))"
fi
exec tsx "$@"
