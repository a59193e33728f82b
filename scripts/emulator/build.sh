# Sourced after toolchain.sh: builds functions/ when a source is newer than the last build, so a
# second `npm start`, `npm test` or `npm run bench` does not wait for an unchanged build.
build_functions() {
  local stamp="$ROOT/functions/lib/.build-stamp"
  if [ -f "$stamp" ] && [ -z "$(find "$ROOT/functions/src" "$ROOT/functions/package.json" "$ROOT/functions/tsconfig.json" "$ROOT/functions/scripts" -newer "$stamp" -print -quit)" ]; then
    return 0
  fi
  say "building functions"
  # The stamp is the time the build started: a source saved while it ran is newer, so built next time.
  local started="$stamp.next"
  mkdir -p "$(dirname "$stamp")" && touch "$started"
  (cd "$ROOT" && npm run --silent build)
  mv "$started" "$stamp"
}
