#!/usr/bin/env bash
# What the deploy workflow runs (and what you can run by hand):
#   scripts/deploy/deploy.sh <alias> [--only <targets>] [--dry-run] [--skip-check]
# <alias> is a project alias of .firebaserc (staging, production). Default targets: functions,
# Firestore rules + indexes, Storage rules; `--only functions:fotos` deploys one function.
# Order: offline checks (npm run deploy:check) → credentials → firebase deploy → MCP URLs.
# --dry-run stops right before the first step that needs Google credentials, after printing the
# exact deploy command; the tests run it that way.
source "$(dirname "$0")/../toolchain.sh"
cd "$ROOT"

alias="" only="" dry_run=0 skip_check=0
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="${2:-}"; shift 2 ;;
    --only=*) only="${1#--only=}"; shift ;;
    --dry-run) dry_run=1; shift ;;
    --skip-check) skip_check=1; shift ;;
    -*) echo "deploy: unknown option $1" >&2; exit 2 ;;
    *) [ -z "$alias" ] || { echo "deploy: one alias only" >&2; exit 2; }; alias="$1"; shift ;;
  esac
done
[ -n "$alias" ] || { echo "usage: scripts/deploy/deploy.sh <alias> [--only <targets>] [--dry-run] [--skip-check]" >&2; exit 2; }

# 1. Which project: the alias must be in .firebaserc, and never a demo (emulator-only) project.
project="$(node -e 'const p=JSON.parse(require("fs").readFileSync(".firebaserc","utf8")).projects||{}; process.stdout.write(p[process.argv[1]]||"")' "$alias")"
if [ -z "$project" ]; then
  echo "deploy: .firebaserc has no alias \"$alias\" (add it: firebase use --add <project id> --alias $alias)" >&2
  exit 2
fi
case "$project" in demo-*) echo "deploy: $alias is $project, an emulator-only demo project" >&2; exit 2 ;; esac

# 2. Which targets: default everything; each functions:<name> must be a function of index.ts.
targets="${only:-functions,firestore,storage}"
IFS=',' read -r -a parts <<< "$targets"
for t in "${parts[@]}"; do
  case "$t" in
    functions|firestore|firestore:rules|firestore:indexes|storage|storage:rules) ;;
    functions:*)
      name="${t#functions:}"
      grep -Eq "^export const ${name}\b" functions/src/index.ts || {
        echo "deploy: no function \"$name\" in functions/src/index.ts (targets: $targets)" >&2; exit 2; } ;;
    *) echo "deploy: unknown target \"$t\"" >&2; exit 2 ;;
  esac
done
say "deploying $targets to $alias ($project)"

# 3. Everything firebase deploy would refuse, found offline.
if [ "$skip_check" = 0 ]; then
  # With this project's settings (.env.<project>); a running Firestore emulator, if any, only
  # serves as the rules compiler.
  # DEPLOY_CHECK_ARGS: extra check options (the tests pass --no-install).
  # shellcheck disable=SC2086
  bash scripts/deploy/check.sh --project "$alias" ${DEPLOY_CHECK_ARGS:-}
fi

cmd=(firebase deploy --project "$alias" --only "$targets" --non-interactive --message "$(git rev-parse --short HEAD 2>/dev/null || echo local)")
if [ "$dry_run" = 1 ]; then
  echo "dry run: would run: ${cmd[*]}"
  echo "dry run: stopping before the first step that needs Google credentials"
  exit 0
fi

# 4. Credentials: Workload Identity Federation (google-github-actions/auth writes an external
# account file and exports GOOGLE_APPLICATION_CREDENTIALS); locally, gcloud ADC or firebase login.
if [ -z "${GOOGLE_APPLICATION_CREDENTIALS:-}" ] && [ -z "${CI:-}" ]; then
  say "no GOOGLE_APPLICATION_CREDENTIALS: using your firebase login / gcloud application-default credentials"
elif [ -n "${CI:-}" ] && [ -z "${GOOGLE_APPLICATION_CREDENTIALS:-}" ]; then
  echo "deploy: no Google credentials (the workflow's google-github-actions/auth step sets GOOGLE_APPLICATION_CREDENTIALS)" >&2
  exit 1
fi
# The toolchain points the CLI at the emulators for local runs: not here.
unset FIRESTORE_EMULATOR_HOST FIREBASE_AUTH_EMULATOR_HOST FIREBASE_STORAGE_EMULATOR_HOST FUNCTIONS_EMULATOR_HOST
export GCLOUD_PROJECT="$project"
"${cmd[@]}"

# 5. The MCP URLs of what was deployed.
if [[ ",$targets," == *",functions"* ]]; then
  region="$(grep -Eo 'region: "[a-z0-9-]+"' functions/src/index.ts | head -1 | cut -d'"' -f2)"
  for fn in $(grep -Eo '^export const [a-z][A-Za-z0-9_]*' functions/src/index.ts | awk '{print $3}'); do
    [[ ",$targets," == *",functions,"* || ",$targets," == *",functions:$fn,"* ]] || continue
    echo "MCP URL: https://${region:-us-central1}-${project}.cloudfunctions.net/$fn"
  done
fi
