#!/usr/bin/env bash
# `npm test`: installs what is missing, builds, starts the emulator suite (Auth, Firestore,
# Storage, Functions) and runs every test against it. Exits non-zero on any failure.
# Extra arguments go to vitest, e.g. `npm test -- test/mermaid`.
source "$(dirname "$0")/toolchain.sh"
source "$ROOT/scripts/emulator/ports.sh"
source "$ROOT/scripts/test-deps.sh"
source "$ROOT/scripts/emulator/build.sh"
cd "$ROOT"
build_functions
# Account state (disabled, claims) is re-checked every 2 s in tests instead of 60 s, so tests of
# revocation wait seconds, not minutes.
export ACCOUNT_CHECK_SECONDS="${ACCOUNT_CHECK_SECONDS:-2}"
# Every test signs in from 127.0.0.1: the oauth function's per-address limits are raised for the
# suite (per-account limits stay, and test/oauth checks them).
export OAUTH_IP_LIMIT_SCALE="${OAUTH_IP_LIMIT_SCALE:-1000}"
# CI is a busy 2-core machine: a large diagram may take longer than production's 10 s to render,
# and an agent's heartbeat may wait for a cold emulator worker. Tests assert outcomes, so these
# deadlines are generous here; the tests that check a deadline is reached do not depend on its size.
export MERMAID_RENDER_TIMEOUT_MS="${MERMAID_RENDER_TIMEOUT_MS:-30000}"
# Mermaid's fair-use count fails open after 400 ms in production; on a busy machine a count can
# take longer, and the tests of the limits must see every count. The stall test sets its own.
export DEADLINE_FAIR_USE_MS="${DEADLINE_FAIR_USE_MS:-10000}"
# Renders wait for a worker as long as they must (no "busy" because the machine is slow); the
# test of the wait budget sets its own.
export MERMAID_MAX_WAIT_MS="${MERMAID_MAX_WAIT_MS:-600000}"
export FOTOS_AGENT_STALE_MIN_MS="${FOTOS_AGENT_STALE_MIN_MS:-30000}"
# The Readwise sync talks to test/knowledge/readwise.test.ts' stand-in of Readwise's API.
export READWISE_API_URL="${READWISE_API_URL:-http://127.0.0.1:$((4310 + ${MCP_PORT_OFFSET:-0}))}"
say "starting the emulator suite and running the tests"
args=""
[ $# -gt 0 ] && args="$(printf ' %q' "$@")"
exec firebase emulators:exec "${FIREBASE_CONFIG_ARGS[@]}" --project "$GCLOUD_PROJECT" \
  --only auth,firestore,storage,functions "bash scripts/run-tests.sh$args"
