#!/usr/bin/env bash
# The CI job of teamchat-conformance, shared by the GitHub Action (action.yml) and the GitLab
# snippet (ci/gitlab-ci.yml): a smoke run (or TEAMCHAT_ARGS) against TEAMCHAT_TARGET with the
# TEAMCHAT_{ADMIN,MEMBER,OTHER}_{EMAIL,API_KEY} credentials, the JSON, JUnit and HTML reports and
# the undo journal written to TEAMCHAT_REPORTS. Exit code: the suite's (0 pass, 1 a rule failed,
# 3 a rule ended in error, 2 the run could not be made).
set -uo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
reports="${TEAMCHAT_REPORTS:-teamchat-reports}"
mkdir -p "$reports"
reports="$(cd "$reports" && pwd)"
: "${TEAMCHAT_TARGET:?set TEAMCHAT_TARGET to the base URL of the server}"
cd "$here"
[ -d node_modules ] || npm ci --no-audit --no-fund >&2 || exit 2
node scripts/build.js || exit 2
expect=()
[ -n "${TEAMCHAT_EXPECT:-}" ] && expect=(--expect "$TEAMCHAT_EXPECT")
# shellcheck disable=SC2086 # TEAMCHAT_ARGS is a list of options
node dist/conformance/main.js ${TEAMCHAT_ARGS:---smoke --retries 2} "${expect[@]}" \
  --json "$reports/conformance.json" --junit "$reports/conformance.xml" --html "$reports/conformance.html" \
  --journal "$reports/conformance.journal.jsonl"
code=$?
echo "teamchat-conformance: exit $code; reports in $reports" >&2
exit $code
