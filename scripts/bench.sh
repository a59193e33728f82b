#!/usr/bin/env bash
# `npm run bench -- <name…>`: runs bench/<name>.ts (default: all) under the emulator suite and
# prints the figures; each one that finishes writes them into docs/benchmarks.md (its latest run only).
# Benchmarks are not tests: they print numbers and ratios, they assert nothing.
source "$(dirname "$0")/toolchain.sh"
source "$ROOT/scripts/emulator/ports.sh"
cd "$ROOT"
npm run --silent build
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=(); for f in bench/*.ts; do names+=("$(basename "$f" .ts)"); done
fi
cmd=""
for n in "${names[@]}"; do cmd+="echo; echo '== bench/$n.ts'; tsx scripts/bench-record.ts $n && "; done
exec firebase emulators:exec "${FIREBASE_CONFIG_ARGS[@]}" --project "$GCLOUD_PROJECT" \
  --only auth,firestore,storage,functions "${cmd}true"
