#!/usr/bin/env bash
# The CI job of teamchat-conformance, shared by the GitHub Action (action.yml) and the GitLab
# snippet (ci/gitlab-ci.yml): a smoke run (or TEAMCHAT_ARGS) against TEAMCHAT_TARGET with the
# TEAMCHAT_{ADMIN,MEMBER,OTHER}_{EMAIL,API_KEY} credentials, the JSON, JUnit and HTML reports and
# the undo journal written to TEAMCHAT_REPORTS. Exit code: the suite's (0 pass, 1 a rule failed,
# 3 a rule ended in error, 2 the run could not be made).
# Shards: TEAMCHAT_SHARD=I/N runs the I-th of N parts (each job of a CI matrix its own); then a job
# with TEAMCHAT_MERGE set to the shards' JSON reports (a glob) writes the one report of the run.
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
reports="${TEAMCHAT_REPORTS:-teamchat-reports}"
mkdir -p "$reports"
reports="$(cd "$reports" && pwd)"
if [ -n "${TEAMCHAT_MERGE:-}" ]; then
  # The glob is the user's, from the user's folder: expanded there, each report made absolute.
  shards=()
  # shellcheck disable=SC2086 # the glob is meant to expand
  for file in $TEAMCHAT_MERGE; do shards+=("$(cd "$(dirname "$file")" 2>/dev/null && pwd)/$(basename "$file")"); done
  cd "$here"
  [ -d node_modules ] || npm ci --no-audit --no-fund >&2 || exit 2
  node scripts/build.js || exit 2
  node dist/conformance/main.js --merge-reports "${shards[@]}" \
    --json "$reports/conformance.json" --junit "$reports/conformance.xml" --html "$reports/conformance.html"
  code=$?
  echo "teamchat-conformance: exit $code; merged report in $reports" >&2
  exit $code
fi
if [ -z "${TEAMCHAT_TARGET:-}" ]; then
  echo "teamchat-conformance: set TEAMCHAT_TARGET to the base URL of the server to check" >&2
  exit 2
fi
# The user's paths (TEAMCHAT_EXPECT, paths in TEAMCHAT_ARGS) are the user's folder's.
user="$(pwd)"
expect=()
[ -n "${TEAMCHAT_SHARD:-}" ] && expect+=(--shard "$TEAMCHAT_SHARD")
if [ -n "${TEAMCHAT_EXPECT:-}" ]; then
  if [ ! -f "$TEAMCHAT_EXPECT" ]; then
    echo "teamchat-conformance: TEAMCHAT_EXPECT: no file $TEAMCHAT_EXPECT in $user" >&2
    exit 2
  fi
  expect+=(--expect "$(cd "$(dirname "$TEAMCHAT_EXPECT")" && pwd)/$(basename "$TEAMCHAT_EXPECT")")
fi
cd "$here"
[ -d node_modules ] || npm ci --no-audit --no-fund >&2 || exit 2
node scripts/build.js || exit 2
cd "$user"
# shellcheck disable=SC2086 # TEAMCHAT_ARGS is a list of options
node "$here/dist/conformance/main.js" ${TEAMCHAT_ARGS:---smoke --retries 2 --quiet} "${expect[@]}" \
  --json "$reports/conformance.json" --junit "$reports/conformance.xml" --html "$reports/conformance.html" \
  --journal "$reports/conformance.journal.jsonl"
code=$?
if [ -f "$reports/conformance.json" ]; then
  echo "teamchat-conformance: exit $code; reports in $reports" >&2
else
  echo "teamchat-conformance: exit $code; no report was written (the run could not be made)" >&2
fi
exit $code
