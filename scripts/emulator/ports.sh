# Sourced after toolchain.sh. MCP_PORT_OFFSET=N (default 0) shifts every emulator port by N, so
# several emulator suites can run side by side on one machine (e.g. two checkouts testing at once).
# Use 10, 20, … 90 (not 60: the front would land on 5061, a port fetch() refuses): the default
# ports differ by other than a multiple of 10 below 100 (5001/5002 by 1, the rest by 49 to 400),
# so those offsets never collide.
# Sets FIREBASE_CONFIG_ARGS for the firebase CLI, FUNCTIONS_EMULATOR_HOST (the Functions emulator,
# 5002: tests and tools call it directly) and MCP_FRONT_HOST (5001: where `npm start` serves the
# functions, through scripts/emulator/front.ts, Cloud Run's stand-in; the URLs users paste).
MCP_PORT_OFFSET="${MCP_PORT_OFFSET:-0}"
FIREBASE_CONFIG_ARGS=()
if [ "$MCP_PORT_OFFSET" != "0" ]; then
  shifted="$ROOT/.firebase.ports-$MCP_PORT_OFFSET.json"
  node -e '
    const fs = require("fs"); const [src, dst, off] = process.argv.slice(1);
    const c = JSON.parse(fs.readFileSync(src, "utf8"));
    for (const e of Object.values(c.emulators)) {
      if (e && typeof e === "object" && "port" in e) e.port += Number(off);
      if (e && typeof e === "object" && "websocketPort" in e) e.websocketPort += Number(off);
    }
    fs.writeFileSync(dst, JSON.stringify(c, null, 2));
  ' "$ROOT/firebase.json" "$shifted" "$MCP_PORT_OFFSET"
  FIREBASE_CONFIG_ARGS=(--config "$shifted")
fi
export FUNCTIONS_EMULATOR_HOST="127.0.0.1:$((5002 + MCP_PORT_OFFSET))"
export MCP_FRONT_HOST="127.0.0.1:$((5001 + MCP_PORT_OFFSET))"
# The Storage emulator keeps its blobs under $TMPDIR/firebase: suites side by side each get their
# own, or one suite's shutdown deletes another's files.
if [ "$MCP_PORT_OFFSET" != "0" ]; then
  export TMPDIR="${TMPDIR:-/tmp}/mcp-suite-$MCP_PORT_OFFSET"
  mkdir -p "$TMPDIR"
fi
