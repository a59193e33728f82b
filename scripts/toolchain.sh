# Sourced by every project script. Makes sure this machine has what the project needs and
# puts it on PATH: Node >= 22.12, the npm dependencies (installed by Node 22, so optional
# dependencies that require it are not skipped), and an emulator suite that starts offline.
# Idempotent: a second run only checks stamps (well under a second).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TOOLS="$ROOT/.tools"
mkdir -p "$TOOLS"
export NO_UPDATE_NOTIFIER=1 METADATA_SERVER_DETECTION=none FIREBASE_CLI_DISABLE_UPDATE_CHECK=1
export GCLOUD_PROJECT="${GCLOUD_PROJECT:-demo-mcp-suite}"

say() { printf '\033[2m[setup]\033[0m %s\n' "$*" >&2; }

node_ok() { # true when `node` on PATH is >= 22.12
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit(a>22||(a===22&&b>=12)?0:1)'
}

# 1. Node 22 ---------------------------------------------------------------------------------
if ! node_ok; then
  NODE_HOME="$TOOLS/node/node_modules/node"
  if [ ! -x "$NODE_HOME/bin/node" ]; then
    say "Node $(node -v 2>/dev/null || echo none) is older than 22.12: installing Node 22 from the npm registry into .tools/"
    npm install --prefix "$TOOLS/node" --no-save --no-audit --no-fund node@22 >/dev/null
  fi
  export PATH="$NODE_HOME/bin:$TOOLS/node/node_modules/.bin:$PATH"
  # Native addons must be compiled against this Node's headers, not the system's.
  headers="$(find "$TOOLS/node/node_modules" -maxdepth 4 -type d -name include -path '*node-linux*' | head -1)"
  [ -n "$headers" ] && export npm_config_nodedir="$(dirname "$headers")"
fi
node_ok || { echo "Could not provide Node >= 22.12" >&2; exit 1; }

# 2. npm dependencies (root workspace incl. functions/) --------------------------------------
stamp="$ROOT/node_modules/.install-stamp"
want="$(cat "$ROOT/package.json" "$ROOT/functions/package.json" "$ROOT/package-lock.json" 2>/dev/null | sha1sum | cut -c1-40) $(node -v)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  say "installing npm dependencies (the first time takes a few minutes)"
  # A fresh clone gets exactly the lockfile (npm ci); an existing tree is updated in place, so
  # processes using node_modules meanwhile are not pulled from under. One install at a time.
  lock=(); command -v flock >/dev/null 2>&1 && lock=(flock "$TOOLS/npm.lock")
  if [ -f "$ROOT/package-lock.json" ] && [ ! -d "$ROOT/node_modules" ]; then
    (cd "$ROOT" && "${lock[@]}" npm ci --no-audit --no-fund --loglevel=error)
  else
    (cd "$ROOT" && "${lock[@]}" npm install --no-audit --no-fund --loglevel=error)
  fi
  want="$(cat "$ROOT/package.json" "$ROOT/functions/package.json" "$ROOT/package-lock.json" 2>/dev/null | sha1sum | cut -c1-40) $(node -v)"
  echo "$want" > "$stamp"
fi
export PATH="$ROOT/node_modules/.bin:$PATH"

# 3. Emulator suite, offline ---------------------------------------------------------------
source "$ROOT/scripts/emulator/offline.sh"
