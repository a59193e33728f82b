#!/usr/bin/env bash
# Runs inside `firebase emulators:exec` (the emulator hosts are in the environment).
set -euo pipefail
cd "$(dirname "$0")/.."
exec vitest run "$@"
