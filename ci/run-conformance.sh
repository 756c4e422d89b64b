#!/usr/bin/env bash
# The CI job of teamchat-conformance, shared by the GitHub Action (action.yml) and the GitLab
# snippet (ci/gitlab-ci.yml): a smoke run (or TEAMCHAT_ARGS) against TEAMCHAT_TARGET (or the URL
# of a --profile in TEAMCHAT_ARGS) with the TEAMCHAT_{ADMIN,MEMBER,OTHER}_{EMAIL,API_KEY}
# credentials, the JSON, JUnit and HTML reports and the undo journal written to TEAMCHAT_REPORTS.
# Exit code: the suite's (0 pass, 1 a rule failed, 3 a rule ended in error, 2 the run could not be
# made).
# Shards: TEAMCHAT_SHARD=I/N runs the I-th of N parts (each job of a CI matrix its own; the
# pipeline's ID gives every shard the same seed); then a job with TEAMCHAT_MERGE set to the shards'
# JSON reports (a glob) writes the one report of the run.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
# The user's paths (TEAMCHAT_EXPECT, TEAMCHAT_REPORTS, TEAMCHAT_MERGE, paths in TEAMCHAT_ARGS) are
# the user's folder's.
user="$(pwd)"
say() { echo "teamchat-conformance: $*" >&2; }

# An absolute path: the user's file, else (for the documented examples, such as
# fixtures/expectations/zulip.json) the package's own.
locate() {
  local file="$1"
  if [ -f "$file" ]; then echo "$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"
  elif [ -f "$here/$file" ]; then echo "$here/$file"
  else return 1
  fi
}

build() {
  (cd "$here" && { [ -d node_modules ] || npm ci --no-audit --no-fund >&2; } && node scripts/build.js) || { say "could not install or build the suite in $here"; exit 2; }
}

# The reports folder, made only for a run that writes into it; removed again if the run left it empty.
reports="${TEAMCHAT_REPORTS:-teamchat-reports}"
made_reports=0
open_reports() {
  [ -d "$reports" ] || { mkdir -p "$reports" && made_reports=1; }
  reports="$(cd "$reports" && pwd)"
}
close_reports() {
  if [ "$made_reports" = 1 ] && [ -z "$(ls -A "$reports" 2>/dev/null)" ]; then rmdir "$reports"; fi
}

if [ -n "${TEAMCHAT_MERGE:-}" ]; then
  # The glob is expanded in the user's folder; each report made absolute.
  shards=()
  shopt -s nullglob
  # shellcheck disable=SC2206 # the glob is meant to expand
  matched=($TEAMCHAT_MERGE)
  shopt -u nullglob
  for file in "${matched[@]}"; do [ -f "$file" ] && shards+=("$(cd "$(dirname "$file")" && pwd)/$(basename "$file")"); done
  if [ ${#shards[@]} -eq 0 ]; then
    say "TEAMCHAT_MERGE: $TEAMCHAT_MERGE matches no shard report in $user: nothing merged"
    exit 2
  fi
  build
  open_reports
  node "$here/dist/conformance/main.js" --merge-reports "${shards[@]}" \
    --json "$reports/conformance.json" --junit "$reports/conformance.xml" --html "$reports/conformance.html"
  code=$?
  if [ "$code" = 2 ] || [ ! -f "$reports/conformance.json" ]; then
    close_reports
    say "exit $code; the merge failed, no report was written"
  else
    say "exit $code; merged report of ${#shards[@]} shards in $reports"
  fi
  exit $code
fi

# shellcheck disable=SC2086 # TEAMCHAT_ARGS is a list of options
set -- ${TEAMCHAT_ARGS:---smoke --retries 2 --quiet}
profile_given=0
for arg in "$@"; do case "$arg" in --profile|--profile=*|--target|--target=*) profile_given=1 ;; esac; done
if [ -z "${TEAMCHAT_TARGET:-}" ] && [ "$profile_given" = 0 ]; then
  say "set TEAMCHAT_TARGET to the base URL of the server to check (or give a --profile in TEAMCHAT_ARGS)"
  exit 2
fi
options=()
[ -n "${TEAMCHAT_SHARD:-}" ] && options+=(--shard "$TEAMCHAT_SHARD")
if [ -n "${TEAMCHAT_EXPECT:-}" ]; then
  if ! expect="$(locate "$TEAMCHAT_EXPECT")"; then
    say "TEAMCHAT_EXPECT: no file $TEAMCHAT_EXPECT in $user (nor in the suite's own files)"
    exit 2
  fi
  options+=(--expect "$expect")
fi
build
open_reports
node "$here/dist/conformance/main.js" "$@" "${options[@]}" \
  --json "$reports/conformance.json" --junit "$reports/conformance.xml" --html "$reports/conformance.html" \
  --journal "$reports/conformance.journal.jsonl"
code=$?
if [ -f "$reports/conformance.json" ]; then
  say "exit $code; reports in $reports"
else
  close_reports
  say "exit $code; no report was written (the run could not be made)"
fi
exit $code
