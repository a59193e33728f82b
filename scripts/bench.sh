#!/usr/bin/env bash
# `npm run bench -- <name…>`: runs bench/<name>.ts (default: all) under the emulator suite and
# prints the figures; each one that finishes writes them into docs/benchmarks.md (its latest run only).
# Benchmarks are not tests: they print numbers and ratios, they assert nothing.
# bench/start.ts starts `npm start` itself, so it runs outside the suite. Ports: scripts/emulator/ports.sh
# (free ones when another suite, e.g. a running `npm start`, holds the usual ones).
source "$(dirname "$0")/toolchain.sh"
source "$ROOT/scripts/emulator/build.sh"
cd "$ROOT"
build_functions
names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  names=(); for f in bench/*.ts; do names+=("$(basename "$f" .ts)"); done
fi
suite=()
for n in "${names[@]}"; do
  [ -f "bench/$n.ts" ] || { echo "No benchmark bench/$n.ts; there are: $(cd bench && ls *.ts | sed 's/\.ts$//' | tr '\n' ' ')" >&2; exit 2; }
  if [ "$n" = start ]; then
    echo; echo "== bench/start.ts"; tsx scripts/bench-record.ts start
  else
    suite+=("$n")
  fi
done
[ ${#suite[@]} -eq 0 ] && exit 0
source "$ROOT/scripts/emulator/ports.sh"
cmd=""
for n in "${suite[@]}"; do cmd+="echo; echo '== bench/$n.ts'; tsx scripts/bench-record.ts $n && "; done
exec firebase emulators:exec "${FIREBASE_CONFIG_ARGS[@]}" --project "$GCLOUD_PROJECT" \
  --only auth,firestore,storage,functions "${cmd}true"
