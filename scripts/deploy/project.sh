# Sourced by scripts/deploy/deploy.sh and scripts/release/*.sh: what a .firebaserc alias names.
#   alias_project <alias>    the project id (exit 2 with a sentence when unknown or a demo project)
#   served_base_url <project> where its functions answer: PUBLIC_BASE_URL of functions/.env.<project>,
#                            else the cloudfunctions.net host of the region functions/src/index.ts uses
alias_project() {
  local project
  project="$(node -e 'const p=JSON.parse(require("fs").readFileSync(".firebaserc","utf8")).projects||{}; process.stdout.write(p[process.argv[1]]||"")' "$1")"
  if [ -z "$project" ]; then
    echo "$(basename "$0" .sh): .firebaserc has no alias \"$1\" (add it: firebase use --add <project id> --alias $1)" >&2
    return 2
  fi
  case "$project" in demo-*) echo "$(basename "$0" .sh): $1 is $project, an emulator-only demo project" >&2; return 2 ;; esac
  echo "$project"
}
served_base_url() {
  local region configured
  region="$(grep -Eo 'region: "[a-z0-9-]+"' functions/src/index.ts | head -1 | cut -d'"' -f2)"
  configured="$(sed -n 's/^PUBLIC_BASE_URL=//p' "functions/.env.$1" 2>/dev/null | tail -1)"
  configured="${configured:-https://${region:-us-central1}-$1.cloudfunctions.net}"
  echo "${configured%/}"
}
