#!/usr/bin/env bash
# What the deploy workflow runs (and what you can run by hand):
#   scripts/deploy/deploy.sh <alias> [--only <targets>] [--dry-run] [--skip-check] [--no-smoke]
#   scripts/deploy/deploy.sh <alias> --smoke-only [--only <targets>]
#   scripts/deploy/deploy.sh --smoke-only --base-url <url>     (any served copy, e.g. the emulator's)
# <alias> is a project alias of .firebaserc (staging, production). Default targets: functions,
# Firestore rules + indexes, Storage rules; `--only functions:fotos` deploys one function.
# Order: offline checks (npm run deploy:check) → credentials → firebase deploy → MCP URLs → smoke
# check (scripts/deploy/smoke.ts: every deployed function answers as clients expect; no credentials).
# --dry-run stops right before the first step that needs Google credentials, after printing the
# exact deploy command; the tests run it that way. --smoke-only runs only the smoke check.
source "$(dirname "$0")/../toolchain.sh"
source "$ROOT/scripts/deploy/project.sh"
cd "$ROOT"

alias="" only="" dry_run=0 skip_check=0 smoke=1 smoke_only=0 base_url=""
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only="${2:-}"; shift 2 ;;
    --only=*) only="${1#--only=}"; shift ;;
    --dry-run) dry_run=1; shift ;;
    --skip-check) skip_check=1; shift ;;
    --no-smoke) smoke=0; shift ;;
    --smoke-only) smoke_only=1; shift ;;
    --base-url) base_url="${2:-}"; shift 2 ;;
    --base-url=*) base_url="${1#--base-url=}"; shift ;;
    -*) echo "deploy: unknown option $1" >&2; exit 2 ;;
    *) [ -z "$alias" ] || { echo "deploy: one alias only" >&2; exit 2; }; alias="$1"; shift ;;
  esac
done
USAGE="usage: scripts/deploy/deploy.sh <alias> [--only <targets>] [--dry-run] [--skip-check] [--no-smoke] | <alias> --smoke-only [--only <targets>] | --smoke-only --base-url <url>"
[ -n "$base_url" ] && [ "$smoke_only" = 0 ] && { echo "deploy: --base-url goes with --smoke-only" >&2; exit 2; }
[ -n "$alias" ] || [ -n "$base_url" ] || { echo "$USAGE" >&2; exit 2; }

# The functions a target list deploys, comma-separated ("" = none): `functions` is all of them.
smoke_functions() {
  local t list=""
  IFS=',' read -r -a ts <<< "$1"
  for t in "${ts[@]}"; do
    case "$t" in
      functions) echo "all"; return ;;
      functions:*) list="${list:+$list,}${t#functions:}" ;;
    esac
  done
  echo "$list"
}
# Smoke check of the functions in targets $2 at base URL $1.
run_smoke() {
  local fns
  fns="$(smoke_functions "$2")"
  if [ -z "$fns" ]; then say "no functions among $2: nothing to smoke-check"; return 0; fi
  # shellcheck disable=SC2046
  tsx "$ROOT/scripts/deploy/smoke.ts" --base-url "$1" $([ "$fns" = all ] || echo --functions "$fns")
}
if [ "$smoke_only" = 1 ] && [ -n "$base_url" ] && [ -z "$alias" ]; then
  run_smoke "$base_url" "${only:-functions}"
  exit $?
fi

# 1. Which project: the alias must be in .firebaserc, and never a demo (emulator-only) project.
project="$(alias_project "$alias")" || exit 2

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
deployed_base="${base_url:-$(served_base_url "$project")}"
if [ "$smoke_only" = 1 ]; then
  say "smoke check of $alias ($project) at $deployed_base"
  run_smoke "$deployed_base" "$targets"
  exit $?
fi
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
  for fn in $(grep -Eo '^export const [a-z][A-Za-z0-9_]* = serve\(' functions/src/index.ts | awk '{print $3}'); do
    [[ ",$targets," == *",functions,"* || ",$targets," == *",functions:$fn,"* ]] || continue
    echo "MCP URL: $deployed_base/$fn"
  done
fi

# 6. Does what was deployed answer? A failure names the function and what it answered.
if [ "$smoke" = 1 ]; then
  run_smoke "$deployed_base" "$targets"
fi
