# Sourced after toolchain.sh. Chooses one emulator suite's ports (scripts/emulator/ports.mjs):
# firebase.json's shifted by MCP_PORT_OFFSET=N (default 0; use 10, 20, … 90, not 60: the front would
# land on 5061, a port fetch() refuses; the default ports differ by other than a multiple of 10
# below 100, so those offsets never collide), or, when any of those is taken by another suite on
# this machine, free ports the OS hands out: `npm test`, `npm run bench` and `npm run deploy:check`
# run beside a running `npm start`.
# Sets FIREBASE_CONFIG_ARGS for the firebase CLI, FUNCTIONS_EMULATOR_HOST (the Functions emulator
# `npm test` and the benches call), MCP_FRONT_HOST (where `npm start` serves the functions: the
# URLs users paste) and SUITE_*_HOST (each emulator, for scripts that start the suite themselves).
MCP_PORT_OFFSET="${MCP_PORT_OFFSET:-0}"
eval "$(node "$ROOT/scripts/emulator/ports.mjs" "$ROOT/firebase.json" "$MCP_PORT_OFFSET" "$ROOT")"
FIREBASE_CONFIG_ARGS=(--config "$SUITE_CONFIG")
export FUNCTIONS_EMULATOR_HOST MCP_FRONT_HOST
# The Storage emulator keeps its blobs under $TMPDIR/firebase, and the hub its locator file: suites
# side by side each get their own, or one suite's shutdown deletes another's files.
if [ "$SUITE_TAG" != "0" ]; then
  export TMPDIR="${TMPDIR:-/tmp}/mcp-suite-$SUITE_TAG"
  mkdir -p "$TMPDIR"
fi
