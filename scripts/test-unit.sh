#!/usr/bin/env bash
# `npm run test:unit -- [files…]`: the logic tier (test/unit/): definitions, validation, ranking,
# detection, redaction, layout, the device flow… with no Java and no emulator, in seconds.
source "$(dirname "$0")/toolchain.sh"
cd "$ROOT"
unset FIRESTORE_EMULATOR_HOST FIREBASE_AUTH_EMULATOR_HOST FIREBASE_STORAGE_EMULATOR_HOST FUNCTIONS_EMULATOR
# Tools called in-process log a line each: only errors, so that a failure's output is readable.
export MCP_LOG_LEVEL="${MCP_LOG_LEVEL:-error}"
exec vitest run --config vitest.unit.config.ts "$@"
